# Live WebSocket traffic against examples/ws_server.rs (driven by tests/godot4_ws.rs): two
# WebSocketPeer clients on ws://127.0.0.1:<res://port.txt>. Client A sends one value of every
# type, a 1.5 MB PackedByteArray, a 1 MB PackedFloat32Array, then a malformed message, then a
# value again; client B sends its values while A's bad message is being answered. Every reply
# is checked here (echo equal to what was sent, the error reply for the bad message) and
# summarised as "WS <client> <index> ok|error <details>" lines; "WS-DONE <failures>" at the end.
extends SceneTree

var port = 0
var peers = []
var sent = [[], []]
var replies = [[], []]
var failures = 0
var started = false
var frames = 0


func values_a():
	var big = PackedByteArray()
	big.resize(1500000)
	for i in big.size():
		big[i] = i % 251
	var floats = PackedFloat32Array()
	floats.resize(262144)
	for i in floats.size():
		floats[i] = i * 0.5
	return [null, true, -7, 9223372036854775807, 0.1, "h\u00e9llo \U0001F600", &"sn", Vector2(1.5, -2),
		Vector2i(1, 2), Rect2(1, 2, 3, 4), Rect2i(1, 2, 3, 4), Vector3(1, 2, 3), Vector3i(-1, 0, 1),
		Transform2D(0.5, Vector2(1, 2)), Vector4(1, 2, 3, 4), Vector4i(4, 3, 2, 1),
		Plane(Vector3(0, 1, 0), 5), Quaternion(0, 0, 0, 1), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)),
		Transform3D(Basis(), Vector3(7, 8, 9)), Projection.IDENTITY, Color(0.25, 0.5, 1, 1),
		NodePath("/root/a:b"), rid_from_int64(13), Callable(), Signal(),
		{"k": [1, 2], 3: {}}, [1, "two", [3.5]], Array([1, 2], TYPE_INT, &"", null),
		PackedByteArray([1, 2, 3]), PackedInt32Array([1, -2]), PackedInt64Array([1 << 40]),
		PackedFloat32Array([0.5]), PackedFloat64Array([0.1]), PackedStringArray(["a", ""]),
		PackedVector2Array([Vector2(1, 2)]), PackedVector3Array([Vector3(1, 2, 3)]),
		PackedColorArray([Color(1, 0, 0)]), PackedVector4Array([Vector4(1, 2, 3, 4)]),
		big, floats]


func _initialize():
	port = int(FileAccess.get_file_as_string("res://port.txt"))
	for i in 2:
		var ws = WebSocketPeer.new()
		ws.inbound_buffer_size = 8 << 20
		ws.outbound_buffer_size = 8 << 20
		ws.max_queued_packets = 4096
		var err = ws.connect_to_url("ws://127.0.0.1:%d" % port)
		if err != OK:
			print("WS-FAIL connect ", err)
			failures += 1
		peers.append(ws)


func send(c, v):
	sent[c].append(v)
	var err = peers[c].put_var(v)
	if err != OK:
		print("WS-FAIL put_var ", c, " ", err)
		failures += 1


func send_bad(c, bytes):
	sent[c].append("BAD")
	peers[c].put_packet(bytes)


func check(c, i, reply):
	var want = sent[c][i]
	if typeof(want) == TYPE_STRING and want == "BAD":
		var ok = typeof(reply) == TYPE_DICTIONARY and reply.has("error") and reply["code"] == ERR_INVALID_DATA and reply["index"] == i
		print("WS %d %d %s bad message: %s" % [c, i, "ok" if ok else "FAIL", str(reply)])
		return ok
	if typeof(reply) != TYPE_DICTIONARY or not reply.has("echo"):
		print("WS %d %d FAIL no echo: %s" % [c, i, str(reply).left(200)])
		return false
	var echo = reply["echo"]
	var same = typeof(echo) == typeof(want) and (echo == want or var_to_bytes(echo) == var_to_bytes(want))
	var ok = same and reply["index"] == i and reply["type"] == typeof(want)
	print("WS %d %d %s type %d size %d" % [c, i, "ok" if ok else "FAIL", typeof(want), reply["size"]])
	return ok


func _process(_delta):
	frames += 1
	var open = 0
	for ws in peers:
		ws.poll()
		if ws.get_ready_state() == WebSocketPeer.STATE_OPEN:
			open += 1
	if not started and open == 2:
		started = true
		for v in values_a():
			send(0, v)
		send_bad(0, PackedByteArray([0xff, 0, 0, 0]))    # unknown type id
		send(1, "from b")
		send_bad(1, PackedByteArray([4, 0, 0, 0, 2, 0, 0, 0, 0xc3, 0x28, 0, 0]))   # bad UTF-8
		send(1, [1, 2, 3])
		send(0, "after the bad one")
	for c in 2:
		var ws = peers[c]
		while ws.get_available_packet_count() > 0:
			var i = replies[c].size()
			var reply = ws.get_var()
			replies[c].append(reply)
			if i >= sent[c].size() or not check(c, i, reply):
				failures += 1
	var done = started and replies[0].size() == sent[0].size() and replies[1].size() == sent[1].size()
	if done or frames > 20000:
		if not done:
			print("WS-FAIL incomplete: ", replies[0].size(), "/", sent[0].size(), " ", replies[1].size(), "/", sent[1].size(), " states ", peers[0].get_ready_state(), peers[1].get_ready_state())
			failures += 1
		for ws in peers:
			ws.close()
		print("WS-DONE ", failures, " ", sent[0].size() + sent[1].size())
		quit(0 if failures == 0 else 1)
	return false
