# Shared by multiplayer_capture.gd and ws_replication_client.gd, preloaded as
# res://multiplayer_shared.gd. (ws_multiplayer_client.gd keeps its own hexes(): one more script
# loaded there shifts the object ids the engine hands out, and its capture records one.)


# Values as var_to_bytes hex, the form every report line carries.
static func hexes(values: Array) -> Array:
	var out := []
	for v in values:
		out.append(var_to_bytes(v).hex_encode())
	return out


# Saves user://enemy.tscn, the scene both replication runs spawn: a Node2D "Enemy" with
# `script` (multiplayer_enemy.gd) and a MultiplayerSynchronizer "Sync" that has position,
# label and hp in the spawn state and syncs position always, label never, hp on change.
# False when the scene could not be packed or saved.
static func save_enemy_scene(script: Script) -> bool:
	var enemy := Node2D.new()
	enemy.name = "Enemy"
	enemy.set_script(script)
	var config := SceneReplicationConfig.new()
	for p in [":position", ":label", ":hp"]:
		config.add_property(NodePath(p))
		config.property_set_spawn(NodePath(p), true)
	config.property_set_replication_mode(NodePath(":position"), SceneReplicationConfig.REPLICATION_MODE_ALWAYS)
	config.property_set_replication_mode(NodePath(":label"), SceneReplicationConfig.REPLICATION_MODE_NEVER)
	config.property_set_replication_mode(NodePath(":hp"), SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE)
	var sync := MultiplayerSynchronizer.new()
	sync.name = "Sync"
	sync.replication_config = config
	enemy.add_child(sync)
	sync.owner = enemy
	var scene := PackedScene.new()
	var ok := scene.pack(enemy) == OK and ResourceSaver.save(scene, "user://enemy.tscn") == OK
	enemy.free()
	return ok
