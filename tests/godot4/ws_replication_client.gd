# A Godot 4.6 WebSocketMultiplayerPeer client (port in res://port.txt) whose server is a Rust
# test (tests/godot4_ws_multiplayer.rs) writing SceneMultiplayer packets with gdwire: it
# confirms the path of /root/Game/Spawner, then receives a SPAWN (scene 0, spawn state), full
# and delta SYNCs and a DESPAWN. Prints one "REPORT <json>" line per thing the engine did,
# with values as var_to_bytes hex; exits 0 after the despawn, 1 on timeout.
extends SceneTree

const MP := preload("res://multiplayer_shared.gd")

var frame := 0
var status := -1

func report(rec: Dictionary) -> void:
	print("REPORT ", JSON.stringify(rec))

func _initialize() -> void:
	MP.save_enemy_scene(preload("res://multiplayer_enemy.gd"))

	var game := Node.new()
	game.name = "Game"
	root.add_child(game)
	var spawned := Node.new()
	spawned.name = "Spawned"
	game.add_child(spawned)
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	game.add_child(spawner)
	spawner.spawn_path = NodePath("../Spawned")
	spawner.add_spawnable_scene("user://enemy.tscn")
	spawner.spawned.connect(func(node):
		report({"event": "spawned", "name": String(node.name), "state": MP.hexes([node.position, node.label, node.hp])})
		var s: MultiplayerSynchronizer = node.get_node("Sync")
		s.synchronized.connect(func(): report({"event": "synchronized", "values": MP.hexes([node.position])}))
		s.delta_synchronized.connect(func(): report({"event": "delta_synchronized", "values": MP.hexes([node.hp])})))
	spawner.despawned.connect(func(node):
		report({"event": "despawned", "name": String(node.name)})
		status = 0)

	var peer := WebSocketMultiplayerPeer.new()
	var port := FileAccess.get_file_as_string("res://port.txt").strip_edges()
	if peer.create_client("ws://127.0.0.1:%s" % port) != OK:
		status = 2
		return
	get_multiplayer().multiplayer_peer = peer
	get_multiplayer().connected_to_server.connect(func(): report({"event": "connected", "id": get_multiplayer().get_unique_id()}))

func _process(_delta: float) -> bool:
	frame += 1
	if status >= 0:
		quit(status)
	elif frame > 1200:
		quit(1)
	return false
