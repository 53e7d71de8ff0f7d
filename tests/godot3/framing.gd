# Framing truth from a real Godot 3.2.3 engine for gdwire (tests/framing.rs).
#
# Mode "generate" (GDWIRE_FRAMING_MODE=generate, run by tests/godot3/regenerate.sh):
#   writes GDWIRE_OUT_ROOT/tests/fixtures/godot3/framing.jsonl, one line per engine API:
#   {"api": "...", "prefix": "le"|"be", "hex": "<every byte the API produced>",
#    "values": [DESC, ...]}   (DESC: describe() of common.gd, README.md)
#   for File.store_var (endian_swap off/on), StreamPeerBuffer.put_var (big_endian off/on)
#   and PacketPeerStream.put_var over a StreamPeerBuffer (big_endian off/on: the packet
#   prefix stays little-endian).
# Mode "read" (GDWIRE_FRAMING_MODE=read, run live by tests/framing.rs):
#   reads GDWIRE_FRAMING_IN with File.get_var until the end (endian_swap on when
#   GDWIRE_FRAMING_PREFIX=be) and writes one JSON line {"desc": DESC} per value to
#   GDWIRE_FRAMING_OUT, then {"end": <position>, "len": <file length>}.
# Prints GDWIRE-FRAMING-OK on success; problems go to stderr as GDWIRE-FRAMING-FAILURE.
extends SceneTree

var common = preload("res://common.gd").new()
var failures = []


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1
	quit(code)


func fail(msg):
	failures.append(msg)
	printerr("GDWIRE-FRAMING-FAILURE: " + msg)


func sample_values():
	var blob = PoolByteArray()
	for i in range(5):
		blob.append(i * 51)
	return [1, -7, 4294967296, "h" + PoolByteArray([0xc3, 0xa9]).get_string_from_utf8() + "llo",
		Vector3(1, 2.5, -3), PoolIntArray([1, 2, 3]), {"a": [1.5, null]}, blob, "", true]


func file_bytes(path, swap, vals):
	var f = File.new()
	if f.open(path, File.WRITE) != OK:
		fail("cannot write " + path)
		return PoolByteArray()
	f.endian_swap = swap
	for v in vals:
		f.store_var(v)
	f.close()
	var r = File.new()
	r.open(path, File.READ)
	var bytes = r.get_buffer(r.get_len())
	r.close()
	return bytes


func stream_peer_bytes(big, vals):
	var b = StreamPeerBuffer.new()
	b.big_endian = big
	for v in vals:
		b.put_var(v)
	return b.data_array


func packet_peer_stream_bytes(big, vals):
	var b = StreamPeerBuffer.new()
	b.big_endian = big
	var p = PacketPeerStream.new()
	p.stream_peer = b
	for v in vals:
		if p.put_var(v) != OK:
			fail("PacketPeerStream.put_var failed")
	return b.data_array


func generate():
	var root = OS.get_environment("GDWIRE_OUT_ROOT")
	if root == "":
		fail("GDWIRE_OUT_ROOT not set")
		return
	var vals = sample_values()
	var descs = []
	for v in vals:
		descs.append(common.describe(v))
	var tmp = root.plus_file("framing_tmp.bin")
	var rows = [
		["File.store_var", "le", file_bytes(tmp, false, vals)],
		["File.store_var endian_swap", "be", file_bytes(tmp, true, vals)],
		["StreamPeerBuffer.put_var", "le", stream_peer_bytes(false, vals)],
		["StreamPeerBuffer.put_var big_endian", "be", stream_peer_bytes(true, vals)],
		["PacketPeerStream.put_var", "le", packet_peer_stream_bytes(false, vals)],
		["PacketPeerStream.put_var big_endian stream", "le", packet_peer_stream_bytes(true, vals)],
	]
	Directory.new().remove(tmp)
	var out = File.new()
	var path = root.plus_file("tests/fixtures/godot3/framing.jsonl")
	if out.open(path, File.WRITE) != OK:
		fail("cannot write " + path)
		return
	for row in rows:
		out.store_string(common.J({"api": row[0], "prefix": row[1], "hex": row[2].hex_encode(), "values": descs}) + "\n")
	out.close()


func read():
	var in_path = OS.get_environment("GDWIRE_FRAMING_IN")
	var out_path = OS.get_environment("GDWIRE_FRAMING_OUT")
	var f = File.new()
	if f.open(in_path, File.READ) != OK:
		fail("cannot read " + in_path)
		return
	f.endian_swap = OS.get_environment("GDWIRE_FRAMING_PREFIX") == "be"
	var out = File.new()
	if out.open(out_path, File.WRITE) != OK:
		fail("cannot write " + out_path)
		return
	var total = f.get_len()
	var guard = 0
	while f.get_position() < total and guard < 100000:
		var v = f.get_var(true)
		out.store_string(common.J({"desc": common.describe(v)}) + "\n")
		guard += 1
	out.store_string(common.J({"end": f.get_position(), "len": total}) + "\n")
	out.close()


func run():
	common.fail_target = funcref(self, "fail")
	var mode = OS.get_environment("GDWIRE_FRAMING_MODE")
	if mode == "generate":
		generate()
	elif mode == "read":
		read()
	else:
		fail("set GDWIRE_FRAMING_MODE to generate or read")
	if failures.size() > 0:
		return 1
	print("GDWIRE-FRAMING-OK")
	return 0
