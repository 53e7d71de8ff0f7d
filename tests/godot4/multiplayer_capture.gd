# Three SceneMultiplayer instances in one engine run (server S = peer 1, clients A = 2 and
# B = 3, B joining late; both authenticate), connected through LoopPeer, a GDScript
# MultiplayerPeerExtension that hands each packet to its target and records it. Prints one
# JSON line per packet ("MPJ {kind: packet, seq, from, to, channel, mode, hex}") and per thing
# a receiving side reported ("MPJ {kind: event, at, packet, ...}", `packet` = seq of the
# packet being processed when it happened, -1 outside packet processing).
# Run by multiplayer_capture.sh; see tests/godot4/README.md.
extends SceneTree

const GAME := preload("res://multiplayer_game.gd")
const ENEMY := preload("res://multiplayer_enemy.gd")
const MP := preload("res://multiplayer_shared.gd")
const NODES := 300  # > 255 cached nodes: 16-bit node ids

class LoopPeer extends MultiplayerPeerExtension:
	var hub
	var id := 0
	var target := 0
	var channel := 0
	var mode := MultiplayerPeer.TRANSFER_MODE_RELIABLE
	var inbox := []
	var status := MultiplayerPeer.CONNECTION_CONNECTED
	var refusing := false

	func _get_packet_script() -> PackedByteArray:
		var p = inbox.pop_front()
		hub.current[id] = p.seq
		return p.bytes
	func _put_packet_script(buffer: PackedByteArray) -> Error:
		hub.route(self, buffer)
		return OK
	func _get_available_packet_count() -> int:
		return inbox.size()
	func _get_max_packet_size() -> int:
		return 1 << 24
	func _set_transfer_channel(c: int) -> void:
		channel = c
	func _get_transfer_channel() -> int:
		return channel
	func _set_transfer_mode(m: MultiplayerPeer.TransferMode) -> void:
		mode = m
	func _get_transfer_mode() -> MultiplayerPeer.TransferMode:
		return mode
	func _set_target_peer(p: int) -> void:
		target = p
	func _get_packet_peer() -> int:
		return inbox[0].from
	func _get_packet_channel() -> int:
		return inbox[0].channel
	func _get_packet_mode() -> MultiplayerPeer.TransferMode:
		return inbox[0].mode
	func _is_server() -> bool:
		return id == 1
	func _poll() -> void:
		pass
	func _close() -> void:
		status = MultiplayerPeer.CONNECTION_DISCONNECTED
	func _disconnect_peer(_p: int, _force: bool) -> void:
		pass
	func _get_unique_id() -> int:
		return id
	func _set_refuse_new_connections(e: bool) -> void:
		refusing = e
	func _is_refusing_new_connections() -> bool:
		return refusing
	func _is_server_relay_supported() -> bool:
		return true
	func _get_connection_status() -> MultiplayerPeer.ConnectionStatus:
		return status

class Hub extends RefCounted:
	var peers := {}  # id -> LoopPeer
	var links := {}  # "a-b" -> true
	var current := {}  # id -> seq of the packet being processed
	var seq := 0

	func route(from: LoopPeer, bytes: PackedByteArray) -> void:
		var to: int = from.target
		var linked: bool = links.has(_key(from.id, to))
		print("MPJ ", JSON.stringify({"kind": "packet", "seq": seq, "from": from.id, "to": to,
			"channel": from.channel, "mode": from.mode, "hex": bytes.hex_encode(),
			"delivered": linked}))
		if linked:
			peers[to].inbox.append({"from": from.id, "bytes": bytes, "channel": from.channel,
				"mode": from.mode, "seq": seq})
		seq += 1

	func link(a: int, b: int) -> void:
		current[a] = -1  # what follows happens outside packet processing
		current[b] = -1
		links[_key(a, b)] = true
		links[_key(b, a)] = true
		peers[a].emit_signal("peer_connected", b)
		peers[b].emit_signal("peer_connected", a)

	func unlink(a: int, b: int) -> void:
		current[a] = -1
		current[b] = -1
		links.erase(_key(a, b))
		links.erase(_key(b, a))
		peers[a].emit_signal("peer_disconnected", b)
		peers[b].emit_signal("peer_disconnected", a)

	func _key(a: int, b: int) -> String:
		return "%d-%d" % [a, b]

var hub := Hub.new()
var mps := {}  # id -> SceneMultiplayer
var games := {}  # id -> Game node
var frame := 0
var failures := 0
var done_at := 0
var enemy_scene: PackedScene

func event(at: int, rec: Dictionary) -> void:
	rec["kind"] = "event"
	rec["at"] = at
	rec["packet"] = hub.current.get(at, -1)
	print("MPJ ", JSON.stringify(rec))

func check(ok: bool, what: String) -> void:
	if not ok:
		failures += 1
		printerr("FAILED: ", what)

func make_enemy_scene() -> PackedScene:
	check(MP.save_enemy_scene(ENEMY), "pack and save the enemy scene")
	return load("user://enemy.tscn")

func make_instance(id: int) -> void:
	var branch := Node.new()
	branch.name = "P%d" % id
	root.add_child(branch)
	var game := Node.new()
	game.name = "Game"
	game.set_script(GAME)
	game.report = func(rec): event(id, rec)
	branch.add_child(game)
	game.rpc_config("dyn", {"rpc_mode": MultiplayerAPI.RPC_MODE_ANY_PEER, "call_local": false,
		"transfer_mode": MultiplayerPeer.TRANSFER_MODE_RELIABLE, "channel": 0})
	for i in NODES:
		var n := Node.new()
		n.name = "N%d" % i
		n.set_script(GAME)
		n.report = func(rec): event(id, rec)
		game.add_child(n)
	var spawned := Node.new()
	spawned.name = "Spawned"
	game.add_child(spawned)
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	game.add_child(spawner)
	spawner.spawn_path = NodePath("../Spawned")
	spawner.add_spawnable_scene("user://enemy.tscn")
	spawner.spawn_function = func(data):
		event(id, {"event": "custom_data", "data": MP.hexes([data])})
		var e = enemy_scene.instantiate()
		e.label = data["kind"]
		e.hp = data["n"]
		return e
	spawner.spawned.connect(func(node):
		event(id, {"event": "spawned", "name": String(node.name),
			"state": MP.hexes([node.position, node.label, node.hp])})
		var sync: MultiplayerSynchronizer = node.get_node("Sync")
		sync.synchronized.connect(func(): event(id, {"event": "synchronized", "name": String(node.name), "values": MP.hexes([node.position])}))
		sync.delta_synchronized.connect(func(): event(id, {"event": "delta_synchronized", "name": String(node.name), "values": MP.hexes([node.hp])})))
	spawner.despawned.connect(func(node): event(id, {"event": "despawned", "name": String(node.name)}))

	var peer := LoopPeer.new()
	peer.id = id
	peer.hub = hub
	hub.peers[id] = peer
	var mp := SceneMultiplayer.new()
	mp.auth_callback = func(from: int, data: PackedByteArray):
		event(id, {"event": "auth", "from": from, "data": data.hex_encode()})
		if id == 1:
			mp.send_auth(from, ("welcome %d" % from).to_utf8_buffer())
		mp.complete_auth(from)
	mp.peer_authenticating.connect(func(from):
		if id != 1:
			mp.send_auth(from, ("hello from %d" % id).to_utf8_buffer()))
	mp.peer_connected.connect(func(p): event(id, {"event": "peer_connected", "peer": p}))
	mp.peer_disconnected.connect(func(p): event(id, {"event": "peer_disconnected", "peer": p}))
	mp.peer_packet.connect(func(p, bytes): event(id, {"event": "raw", "from": p, "data": bytes.hex_encode()}))
	set_multiplayer(mp, NodePath("/root/P%d" % id))
	mp.multiplayer_peer = peer
	mps[id] = mp
	games[id] = game

func _initialize() -> void:
	enemy_scene = make_enemy_scene()
	for id in [1, 2, 3]:
		make_instance(id)
	hub.link(1, 2)

func _process(_delta: float) -> bool:
	frame += 1
	var s: Node = games[1]
	var a: Node = games[2]
	match frame:
		6:
			hub.link(1, 3)  # B joins late
		14:
			check(mps[2].get_peers().has(3), "A sees B through the relay")
			s.rpc_id(2, "ping", true, -2, 300, 70000, 1 << 40, 0.1, "héllo", Vector3(1, 2, 3))
			# NodePath names 4 bytes long: the engine leaves the padding after a name
			# uninitialised, which would make the capture differ between runs.
			s.rpc_id(2, "many", Color(1, 0.5, 0, 1), &"sn", NodePath("abcd/efgh:ijkl"), {"k": [1, 2.5]},
				[1, 2] as Array[int], PackedInt32Array([7, -7]), PackedStringArray(["x", "yz"]),
				Vector2i(3, -4), Transform2D(0.5, Vector2(10, 20)), null)
			for i in NODES:
				s.get_node("N%d" % i).rpc_id(2, "nothing")
			a.rpc_id(1, "hit", 5, Vector3(0.25, 0, -1))
			a.rpc_id(1, "blob", PackedByteArray([1, 2, 3]))
			a.rpc_id(1, "blob", PackedByteArray())
			s.rpc("dyn", 42)
			a.rpc_id(3, "relay_me", "via server")
			a.rpc("relay_me", "to everyone")
			mps[2].send_bytes(PackedByteArray([9, 8, 7]), 1)
			mps[3].send_bytes(PackedByteArray([6, 5]), 2, MultiplayerPeer.TRANSFER_MODE_UNRELIABLE, 3)
		16:
			var e: Node2D = enemy_scene.instantiate()
			e.label = "boss"
			e.hp = 100
			e.position = Vector2(1.5, -2)
			s.get_node("Spawned").add_child(e, true)
			s.get_node("Spawner").spawn({"kind": "crate", "n": 3})
		20:
			for i in NODES:
				s.get_node("N%d" % i).rpc_id(2, "nothing")
			s.rpc_id(2, "ping", false, 127, -129, -70000, -(1 << 40), 0.5, "", Vector3.ZERO)
		22, 23, 24:
			s.get_node("Spawned/Enemy").position += Vector2(1, 1)
		26:
			s.get_node("Spawned/Enemy").hp = 90
		30:
			for n in s.get_node("Spawned").get_children():  # no more syncs after this
				n.queue_free()
		34:
			hub.unlink(1, 3)
		40:
			print("MPJ ", JSON.stringify({"kind": "done", "failures": failures}))
			done_at = Time.get_ticks_msec()
	# Quit a while after the last line, so that the page has posted all output.
	if done_at and Time.get_ticks_msec() > done_at + 1500:
		quit(1 if failures else 0)
	return false
