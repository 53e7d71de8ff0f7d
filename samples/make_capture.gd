# Generator of samples/godot3_capture.bin and samples/godot3_capture.txt: 12 realistic
# values written by a real Godot 3 engine (3.2.3) with File.store_var (u32 little-endian
# length, then the var2bytes payload, repeated), and var2str of each value + "\n".
#
# Regenerate with samples/make_capture.sh (one command; needs godot3-server). It runs
#   LANG=en_US.UTF-8 GDWIRE_CAPTURE_OUT=<dir> godot3-server --path samples --script res://make_capture.gd
# The values are the same as in tests/godot3/generate.gd (capture_values), which also
# writes these files as part of the full fixture set; tests/cli_samples.rs checks that this
# script reproduces the committed bytes exactly.
#
# Deterministic: no NodePath (its pad bytes are uninitialised engine memory), no sin()/cos()
# (libm results could differ per host), no objects.
extends SceneTree


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1  # a GDScript runtime error aborted run()
	quit(code)


# A String from UTF-8 bytes given as hex (keeps this source file ASCII).
func U(h):
	var out = PoolByteArray()
	var i = 0
	while i < h.length():
		out.append(("0x" + h.substr(i, 2)).hex_to_int())
		i += 2
	return out.get_string_from_utf8()


func capture_values():
	var mesh = PoolVector3Array()
	for i in range(24):
		# no sin()/cos() anywhere in the capture: libm results could differ per host
		var a = i * 0.25
		mesh.append(Vector3(a, (i % 7) * 0.375 - 1.0, -a * 0.5))
	var indices = PoolIntArray()
	for i in range(0, 22, 2):
		indices.append_array(PoolIntArray([i, i + 1, i + 2]))
	var players = [
		{"name": "Alice", "id": 1, "score": 1200, "hp": 87.5, "pos": Vector3(1.5, 0, -3.25), "alive": true, "team": "red"},
		{"name": "Bj" + U("c3b6") + "rn", "id": 2, "score": -15, "hp": 0.0, "pos": Vector3(-10, 2.5, 7), "alive": false, "team": "blue"},
		{"name": U("e78ea9e5aeb6"), "id": 3, "score": 4294967296, "hp": 100.0, "pos": Vector3(0.1, 0.2, 0.3), "alive": true, "team": "red"},
	]
	var game_state = {
		"version": 3,
		"map": "de_dust",
		"tick": 48213,
		"time_left": 93.25,
		"gravity": 9.8,
		"players": players,
		"spawn": Transform(Basis(Vector3(0, 0, -1), Vector3(0, 1, 0), Vector3(1, 0, 0)), Vector3(4, 0, -2)),
		"scores": [[1, 1200], [2, -15], [3, 4294967296]],
		"paused": false,
		"winner": null,
	}
	var rpc = ["rpc", 42, "update_transform", [Vector3(12.5, 0, -4), Quat(0, 0.7071068, 0, 0.7071068), Vector2(0.5, -1)], 1.0 / 60.0]
	var chat = PoolStringArray(["[all] Alice: gg", "[team] Bj" + U("c3b6") + "rn: rush B", U("e4b8ade69687") + " " + U("f09f8eae"), ""])
	var inventory = {"gold": 3000000000, "items": [{"id": "sword", "qty": 1, "durability": 0.75}, {"id": "potion", "qty": 12}], "equipped": PoolIntArray([0, -1, 3])}
	var ui_layout = [Rect2(0, 0, 1920, 1080), Transform2D(Vector2(0.875, 0.5), Vector2(-0.5, 0.875), Vector2(100, 50)), Color(0.2, 0.4, 0.8, 0.9), PoolColorArray([Color(1, 0, 0), Color(0, 1, 0, 0.5)])]
	var heightmap = PoolRealArray([0.0, 0.125, 0.5, 1.75, -2.0, 0.1, 3.3])
	var blob = PoolByteArray()
	for i in range(37):
		blob.append((i * 37 + 11) % 256)
	var path2d = PoolVector2Array([Vector2(0, 0), Vector2(10, 0), Vector2(10, 10.5), Vector2(-3.25, 8)])
	return [game_state, rpc, chat, {"mesh_chunk": mesh, "indices": indices, "aabb": AABB(Vector3(0, -2, -3), Vector3(6, 4, 3))}, inventory, ui_layout, heightmap, blob, path2d, "gg wp " + U("f09f8eae"), 1234567890123, null]


func run():
	var out_dir = OS.get_environment("GDWIRE_CAPTURE_OUT")
	if out_dir == "":
		printerr("GDWIRE-CAPTURE-FAILURE: set GDWIRE_CAPTURE_OUT (use samples/make_capture.sh)")
		return 2
	var vals = capture_values()
	var bin_path = out_dir.plus_file("godot3_capture.bin")
	var txt_path = out_dir.plus_file("godot3_capture.txt")
	var f = File.new()
	if f.open(bin_path, File.WRITE) != OK:
		printerr("GDWIRE-CAPTURE-FAILURE: cannot write " + bin_path)
		return 1
	for v in vals:
		f.store_var(v)
	f.close()
	var t = File.new()
	if t.open(txt_path, File.WRITE) != OK:
		printerr("GDWIRE-CAPTURE-FAILURE: cannot write " + txt_path)
		return 1
	for v in vals:
		t.store_string(var2str(v) + "\n")
	t.close()
	# Read the file back with the engine's own File.get_var.
	var r = File.new()
	if r.open(bin_path, File.READ) != OK:
		printerr("GDWIRE-CAPTURE-FAILURE: cannot read back " + bin_path)
		return 1
	for v in vals:
		var got = r.get_var()
		if var2str(got) != var2str(v):
			printerr("GDWIRE-CAPTURE-FAILURE: File.get_var gave back " + var2str(got))
			return 1
	if r.get_position() != r.get_len():
		printerr("GDWIRE-CAPTURE-FAILURE: trailing bytes after the last value")
		return 1
	r.close()
	print("GDWIRE-CAPTURE-OK %d values" % vals.size())
	return 0
