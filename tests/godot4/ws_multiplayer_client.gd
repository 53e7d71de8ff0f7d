# A Godot 4.6 WebSocketMultiplayerPeer client of the Rust example server
# examples/tokio_ws_multiplayer.rs (port in res://port.txt).
# RPCs: it calls methods of /root/Game (multiplayer_game.gd) with arguments of every Variant
# type, reliable and unreliable, on channels 0, 1 and 2, byte-only and without arguments, and
# through rpc_config(); the server answers each by calling the same method with the same
# arguments back, after confirming the path. Every answer must arrive with exactly the
# arguments sent.
# Replication with client authority: /root/Game/Spawner (authority = this client) spawns two
# units (ws_unit.gd) under /root/Game/Spawned, changes their synced properties (full sync) and
# watched properties (delta sync) every few frames, and despawns them; the server only decodes.
# Prints "REPORT <json>" per thing sent (values as var_to_bytes hex) and "ECHO ..." per
# answer; exits 0 when all answers came back equal, 1 otherwise, 2 when the connection failed.
extends SceneTree

const GAME := preload("res://multiplayer_game.gd")
const UNIT := preload("res://ws_unit.gd")
# Replicated properties of a unit, in SceneReplicationConfig order: [name, mode, spawn].
const PROPS := [
	[":position", SceneReplicationConfig.REPLICATION_MODE_ALWAYS, true],
	[":label", SceneReplicationConfig.REPLICATION_MODE_NEVER, true],
	[":hp", SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE, true],
	[":speed", SceneReplicationConfig.REPLICATION_MODE_ALWAYS, false],
	[":alive", SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE, false],
	[":tags", SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE, false],
	[":tint", SceneReplicationConfig.REPLICATION_MODE_NEVER, true],
	[":cell", SceneReplicationConfig.REPLICATION_MODE_ALWAYS, false],
]

var game: Node
var sent := []  # [method, [hex args]]
var got := []
var frame := 0
var connected_at := -1
var status := -1
var token := RefCounted.new()  # sent as an object id
var units := {}  # name -> node
var despawned := 0

func report(rec: Dictionary) -> void:
	print("REPORT ", JSON.stringify(rec))

func hexes(values: Array) -> Array:
	var out := []
	for v in values:
		out.append(var_to_bytes(v).hex_encode())
	return out

func _initialize() -> void:
	var port := FileAccess.get_file_as_string("res://port.txt").strip_edges()
	var peer := WebSocketMultiplayerPeer.new()
	if peer.create_client("ws://127.0.0.1:%s" % port) != OK:
		status = 2
		return
	game = Node.new()
	game.name = "Game"
	game.set_script(GAME)
	game.report = func(rec): got.append([rec["method"], rec["args"]]); print("ECHO ", rec["method"], " ", rec["args"], " from ", rec["sender"])
	root.add_child(game)
	game.rpc_config("dyn", {"rpc_mode": MultiplayerAPI.RPC_MODE_ANY_PEER, "call_local": false,
		"transfer_mode": MultiplayerPeer.TRANSFER_MODE_RELIABLE, "channel": 0})
	var spawned := Node.new()
	spawned.name = "Spawned"
	game.add_child(spawned)
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	game.add_child(spawner)
	spawner.spawn_path = NodePath("../Spawned")
	spawner.add_spawnable_scene(make_unit_scene())
	get_multiplayer().multiplayer_peer = peer
	get_multiplayer().connected_to_server.connect(func():
		connected_at = frame
		# Client authority over the spawner and everything it spawns.
		spawner.set_multiplayer_authority(get_multiplayer().get_unique_id())
		report({"event": "connected", "id": get_multiplayer().get_unique_id(),
			"spawner": String(root.get_path_to(spawner))}))
	get_multiplayer().connection_failed.connect(func(): status = 2)
	var names := []
	for p in PROPS:
		names.append([p[0], p[1], p[2]])
	report({"event": "config", "props": names})

func make_unit_scene() -> String:
	var unit := Node2D.new()
	unit.name = "Unit"
	unit.set_script(UNIT)
	var config := SceneReplicationConfig.new()
	for p in PROPS:
		config.add_property(NodePath(p[0]))
		config.property_set_replication_mode(NodePath(p[0]), p[1])
		config.property_set_spawn(NodePath(p[0]), p[2])
	var sync := MultiplayerSynchronizer.new()
	sync.name = "Sync"
	sync.replication_config = config
	unit.add_child(sync)
	sync.owner = unit
	var scene := PackedScene.new()
	scene.pack(unit)
	ResourceSaver.save(scene, "user://unit.tscn")
	unit.free()
	return "user://unit.tscn"

# The values of every replicated property of `unit`, in PROPS order, as hex.
func values_of(unit: Node) -> Array:
	var out := []
	for p in PROPS:
		out.append(unit.get(String(p[0]).substr(1)))
	return hexes(out)

func spawn(unit_name: String, props: Dictionary) -> void:
	var unit: Node2D = load("user://unit.tscn").instantiate()
	unit.name = unit_name
	for k in props:
		unit.set(k, props[k])
	unit.set_multiplayer_authority(get_multiplayer().get_unique_id())
	game.get_node("Spawned").add_child(unit)
	units[unit_name] = unit
	report({"event": "spawn", "name": unit_name, "values": values_of(unit)})

func change(unit_name: String, props: Dictionary) -> void:
	var unit: Node = units[unit_name]
	var changed := []  # setting a property to its value is no change
	for k in props:
		if unit.get(k) != props[k]:
			changed.append(k)
		unit.set(k, props[k])
	report({"event": "change", "name": unit_name, "changed": changed, "values": values_of(unit)})

func despawn(unit_name: String) -> void:
	var unit: Node = units[unit_name]
	units.erase(unit_name)
	unit.get_parent().remove_child(unit)
	unit.free()
	despawned += 1
	report({"event": "despawn", "name": unit_name})

# Values, not bytes: var_to_bytes leaves the padding after NodePath names uncleared. An
# object travels as its id (objects are not decoded): compare ids.
func decoded(hexes: Array) -> Array:
	var out := []
	for h in hexes:
		var v = bytes_to_var(h.hex_decode())
		out.append(v.get_object_id() if v is EncodedObjectAsID else v)
	return out

func call_server(method: String, args: Array) -> void:
	var hexes := []
	for a in args:
		hexes.append(var_to_bytes(a).hex_encode())
	sent.append([method, hexes])
	print("CALL ", method, " ", hexes)
	report({"event": "call", "method": method, "args": hexes})
	game.callv("rpc_id", [1, method] + args)

func _process(_delta: float) -> bool:
	frame += 1
	if status >= 0:
		quit(status)
		return false
	var t := frame - connected_at if connected_at >= 0 else -1
	match t:
		2:
			call_server("ping", [true, -2, 300, 70000, 1 << 40, 0.1, "héllo", Vector3(1, 2, 3)])
			# NodePath names 4, 8, ... bytes long: the engine leaves the padding after a name
			# uninitialised, which would make the capture differ between runs.
			call_server("many", [Color(1, 0.5, 0, 1), &"sn", NodePath("abcd/efgh:ijkl"), {"k": [1, 2.5]},
				[1, 2] as Array[int], PackedInt32Array([7, -7]), PackedStringArray(["x", "yz"]),
				Vector2i(3, -4), Transform2D(0.5, Vector2(10, 20)), null])
			call_server("hit", [5, Vector3(0.25, 0, -1)])  # unreliable, channel 2
			call_server("blob", [PackedByteArray([1, 2, 3])])  # byte-only, unreliable ordered, channel 1
			call_server("nothing", [])
			call_server("dyn", [42])  # rpc_config(): method id 0x8000
		20:
			# Later calls use the confirmed cache id instead of the path.
			call_server("relay_me", ["cached"])
			call_server("ping", [false, 127, -129, -70000, -(1 << 40), 0.5, "", Vector3.ZERO])
			call_server("many", [Vector2(1.5, -2), Rect2(1, 2, 3, 4), Rect2i(-1, 2, 3, 4),
				Vector3i(1, -2, 3), Vector4(1, 2, 3, 4.5), Vector4i(1, -2, 3, -4),
				Plane(0, 1, 0, 5), Quaternion(0.5, 0.5, 0.5, 0.5),
				AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), Basis(Vector3(1, 0, 0), Vector3(0, 2, 0), Vector3(0, 0, 3))])
			call_server("many", [Transform3D(Basis.IDENTITY, Vector3(1, 2, 3)),
				Projection(Vector4(1, 0, 0, 0), Vector4(0, 2, 0, 0), Vector4(0, 0, 3, 0), Vector4(4, 5, 6, 1)),
				rid_from_int64(5), token, Callable(), Signal(game, "ready"),
				PackedInt64Array([1 << 40, -1]), PackedFloat32Array([0.5, -1.25]),
				PackedFloat64Array([0.1, 1e300]), PackedVector2Array([Vector2(1, 2), Vector2(-3, 4)])])
			var typed: Dictionary[String, int] = {"a": 1, "b": -2}
			call_server("many", [PackedVector3Array([Vector3(1, 2, 3)]),
				PackedColorArray([Color(0, 0, 1, 0.5)]), PackedVector4Array([Vector4(1, 2, 3, 4)]),
				[[1, "x"], {}, [] as Array[String]], typed, 1e300, -9223372036854775807 - 1,
				&"", NodePath("/root/Game:posi:tion"), PackedByteArray([0, 255])])
		24:
			spawn("A", {"position": Vector2(1, 2), "label": "alpha", "hp": 10, "speed": 1.5,
				"tags": PackedStringArray(["a"]), "tint": Color(1, 0, 0), "cell": Vector2i(1, 1)})
			spawn("B", {"position": Vector2(-5, 0.25), "label": "beta", "hp": 70000,
				"alive": false, "tint": Color(0, 1, 0, 0.5)})
		30:
			change("A", {"position": Vector2(3, 4), "speed": 2.25})
		36:
			change("A", {"hp": 9})
		42:
			change("A", {"hp": 8, "alive": false, "tags": PackedStringArray(["a", "b"])})
			change("B", {"cell": Vector2i(5, -5)})
		48:
			change("B", {"alive": true, "position": Vector2(0.5, 0.5)})
		54:
			despawn("A")
		60:
			change("B", {"hp": 1 << 40, "tags": PackedStringArray()})  # tags: no change
		66:
			despawn("B")
	if (got.size() == sent.size() and despawned == 2 and t > 70) or frame > 1200:
		var ok := got.size() == sent.size()
		for i in min(got.size(), sent.size()):
			ok = ok and got[i][0] == sent[i][0] and decoded(got[i][1]) == decoded(sent[i][1])
		print("RESULT ", "ok" if ok else "mismatch", " ", got.size(), "/", sent.size())
		status = 0 if ok else 1
	return false
