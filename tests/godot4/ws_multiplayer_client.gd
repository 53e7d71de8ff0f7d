# A Godot 4.6 WebSocketMultiplayerPeer client of the Rust example server
# examples/tokio_ws_multiplayer.rs (port in res://port.txt). It calls RPCs on /root/Game
# (multiplayer_game.gd) with arguments of many types, reliable and unreliable, on channels
# 0, 1 and 2, byte-only and without arguments, and through rpc_config(); the server answers
# each by calling the same method with the same arguments back, after confirming the path.
# Every answer must arrive with exactly the arguments sent.
# Prints "CALL <method> <hex args>" per call made and "ECHO ..." per answer; exits 0 when all
# answers came back equal, 1 otherwise, 2 when the connection failed.
extends SceneTree

const GAME := preload("res://multiplayer_game.gd")

var game: Node
var sent := []  # [method, [hex args]]
var got := []
var frame := 0
var connected_at := -1
var status := -1

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
	get_multiplayer().multiplayer_peer = peer
	get_multiplayer().connected_to_server.connect(func(): connected_at = frame)
	get_multiplayer().connection_failed.connect(func(): status = 2)

# Values, not bytes: var_to_bytes leaves the padding after NodePath names uncleared.
func decoded(hexes: Array) -> Array:
	var out := []
	for h in hexes:
		out.append(bytes_to_var(h.hex_decode()))
	return out

func call_server(method: String, args: Array) -> void:
	var hexes := []
	for a in args:
		hexes.append(var_to_bytes(a).hex_encode())
	sent.append([method, hexes])
	print("CALL ", method, " ", hexes)
	game.callv("rpc_id", [1, method] + args)

func _process(_delta: float) -> bool:
	frame += 1
	if status >= 0:
		quit(status)
		return false
	if connected_at >= 0 and frame == connected_at + 2:
		call_server("ping", [true, -2, 300, 70000, 1 << 40, 0.1, "héllo", Vector3(1, 2, 3)])
		call_server("many", [Color(1, 0.5, 0, 1), &"sn", NodePath("a/b:c"), {"k": [1, 2.5]},
			[1, 2] as Array[int], PackedInt32Array([7, -7]), PackedStringArray(["x", "yz"]),
			Vector2i(3, -4), Transform2D(0.5, Vector2(10, 20)), null])
		call_server("hit", [5, Vector3(0.25, 0, -1)])  # unreliable, channel 2
		call_server("blob", [PackedByteArray([1, 2, 3])])  # byte-only, unreliable ordered, channel 1
		call_server("nothing", [])
		call_server("dyn", [42])  # rpc_config(): method id 0x8000
	if connected_at >= 0 and frame == connected_at + 12:
		# Later calls use the confirmed cache id instead of the path.
		call_server("relay_me", ["cached"])
		call_server("ping", [false, 127, -129, -70000, -(1 << 40), 0.5, "", Vector3.ZERO])
	if got.size() == 8 or frame > 600:
		var ok := got.size() == sent.size()
		for i in min(got.size(), sent.size()):
			ok = ok and got[i][0] == sent[i][0] and decoded(got[i][1]) == decoded(sent[i][1])
		print("RESULT ", "ok" if ok else "mismatch", " ", got.size(), "/", sent.size())
		status = 0 if ok else 1
	return false
