# Engine truth for gdwire's Godot 3 text form (`gdwire::text`, var2str).
#
# Run through tests/godot3/regenerate_text.sh, which sets GDWIRE_TEXT_OUT to the
# output file. Writes one JSON object per line:
#   {"name": "...", "hex": "<bytes>", "text": "<var2str of bytes2var(bytes)>"}
# The text is always of the value the engine DECODED from `hex` (so duplicate keys
# in hand-built dictionaries are already merged the engine's way).
#
# Covers what values.jsonl does not: thousands of float32 and float64 values through
# var2str's float formatting (PRNG with a fixed seed), rounding ties of the 6-digit
# form, and dictionary key order (Variant `<` and the engine's sort) for every key
# type, including unordered types, NaN keys, arrays as keys and more than 16 keys
# (the sort's insertion-sort threshold), plus wire dictionaries with duplicate keys.
# All work happens in run(); _init() only calls it and quits.
extends SceneTree

var common = preload("res://common.gd").new()
var rng = RandomNumberGenerator.new()
var rows = []
var failures = 0


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1
	quit(code)


func fail(msg):
	failures += 1
	printerr("GDWIRE-TEXT-FAILURE: " + msg)


func u32hex(x):
	var b = StreamPeerBuffer.new()
	b.put_u32(x & 0xFFFFFFFF)
	return b.data_array.hex_encode()


func f32_from_bits(bits):
	var b = StreamPeerBuffer.new()
	b.put_u32(bits & 0xFFFFFFFF)
	b.seek(0)
	return b.get_float()


func f64_from_bits(hi, lo):
	var b = StreamPeerBuffer.new()
	b.put_u32(lo & 0xFFFFFFFF)
	b.put_u32(hi & 0xFFFFFFFF)
	b.seek(0)
	return b.get_double()


func add_bytes(name, bytes):
	if OS.get_environment("GDWIRE_TEXT_TRACE") != "":
		print("row ", name)
	var v = bytes2var(bytes)
	rows.append("{\"name\": " + common.jstr(name) + ", \"hex\": " + common.jstr(bytes.hex_encode()) \
		+ ", \"text\": " + common.jstr(var2str(v)) + "}")


func add(name, v):
	add_bytes(name, var2bytes(v))


# A Dictionary on the wire with the given [key, value] pairs in order, duplicates kept.
func wire_dict(pairs):
	var h = u32hex(18) + u32hex(pairs.size())
	for p in pairs:
		h += var2bytes(p[0]).hex_encode() + var2bytes(p[1]).hex_encode()
	return common_hex2bytes(h)


func common_hex2bytes(h):
	var out = PoolByteArray()
	var i = 0
	while i < h.length():
		out.append(("0x" + h.substr(i, 2)).hex_to_int())
		i += 2
	return out


func shuffled(a):
	var out = a.duplicate()
	for i in range(out.size() - 1, 0, -1):
		var j = rng.randi_range(0, i)
		var t = out[i]
		out[i] = out[j]
		out[j] = t
	return out


func dict_of(keys):
	var d = {}
	var i = 0
	for k in keys:
		d[k] = i
		i += 1
	return d


func floats():
	# float32 from uniformly random bit patterns (every exponent, NaN, inf, subnormals).
	for batch in range(32):
		var a = PoolRealArray()
		for i in range(64):
			a.append(f32_from_bits(rng.randi()))
		add("f32_bits_%02d" % batch, a)
	# float32 of ordinary magnitudes (exponent 2^-20 .. 2^30), where both %g forms occur.
	for batch in range(16):
		var a = PoolRealArray()
		for i in range(64):
			var exp_bits = rng.randi_range(127 - 20, 127 + 30)
			var bits = (rng.randi() & 0x807FFFFF) | (exp_bits << 23)
			a.append(f32_from_bits(bits))
		add("f32_ordinary_%02d" % batch, a)
	# Scalar floats are doubles: random bit patterns and ordinary magnitudes.
	for batch in range(16):
		var a = []
		for i in range(32):
			a.append(f64_from_bits(rng.randi(), rng.randi()))
		add("f64_bits_%02d" % batch, a)
	for batch in range(8):
		var a = []
		for i in range(32):
			var hi = (rng.randi() & 0x800FFFFF) | (rng.randi_range(1023 - 20, 1023 + 30) << 20)
			a.append(f64_from_bits(hi, rng.randi()))
		add("f64_ordinary_%02d" % batch, a)
	# Rounding ties and boundaries of the 6-significant-digit form.
	add("float_ties", [1000005.0, 1000015.0, 100000.5, 100001.5, 1234565.0, 999999.5, 9999995.0,
		0.0001, 0.00001, 0.000099999, 0.00009999995, 123456.5, 0.5, 2.5, 1e6, 1e-5, 1e15, 1e16,
		65536.5, 131072.25, 16777216.0, 16777217.0, 1048576.5, -1000005.0, -0.0001, 0.001, 1e-4])
	add("vector3_random", Vector3(f32_from_bits(rng.randi()), f32_from_bits(rng.randi()), 3.0))


func keys():
	var ints = []
	for i in range(40):
		ints.append(rng.randi_range(-1000, 1000))
	add("keys_ints_40", dict_of(shuffled(ints)))
	add("keys_floats", dict_of(shuffled([0.5, -1.5, 3.25, 1e10, -1e-3, 7.0, 0.1, 2.0, -INF, INF,
		1.0 / 3.0, 100.0, 0.25, -0.25, 5.5, 6.5, 9.75, 11.0, 12.5, 13.0])))
	add("keys_floats_nan", dict_of([3.0, NAN, 1.0, 2.0, -NAN, 0.5]))
	add("keys_floats_nan_many", dict_of([3.0, NAN, 1.0, 2.0, 7.0, 9.0, 4.0, 6.0, 5.0, 8.0, 11.0,
		10.0, 15.0, 13.0, 12.0, 14.0, 17.0, 16.0, 19.0, 18.0, 0.0]))
	add("keys_strings", dict_of(shuffled(["b", "a", "ab", "", "B", "Z", "aa", "a b", "é", "中",
		"🎮", "A", "z", "10", "9", "_", "~", "ba", "abc", "ab c", "zz", "é1"])))
	add("keys_bools_nil", dict_of([true, null, false]))
	add("keys_mixed_types", dict_of(shuffled([1, "1", 1.0, true, null, Vector2(1, 2), [1], {},
		Color(1, 0, 0), NodePath("a"), Rect2(), Vector3(), Transform2D(), Plane(), Quat(),
		AABB(), Basis(), Transform(), PoolByteArray(), PoolIntArray(), PoolRealArray(),
		PoolStringArray(), PoolVector2Array(), PoolVector3Array(), PoolColorArray()])))
	var v2 = []
	for i in range(24):
		v2.append(Vector2(rng.randi_range(0, 3), rng.randi_range(0, 3)))
	v2.append(Vector2(1.0, 5.0))
	v2.append(Vector2(1.0000001, 0.0))
	v2.append(Vector2(0.9999999, 9.0))
	add("keys_vector2", dict_of(v2))
	var v3 = []
	for i in range(20):
		v3.append(Vector3(rng.randi_range(0, 2), rng.randi_range(0, 2), rng.randi_range(0, 2)))
	v3.append(Vector3(1.0000001, 0.0, 0.0))
	add("keys_vector3", dict_of(v3))
	var colors = []
	for i in range(24):
		colors.append(Color(rng.randf(), rng.randf(), rng.randf(), 1.0))
	add("keys_colors_24", dict_of(colors))
	var rects = []
	for i in range(9):
		rects.append(Rect2(i, 9 - i, 1, 1))
	add("keys_rect2_9", dict_of(rects))
	var arrays = []
	for i in range(20):
		var a = []
		for j in range(rng.randi_range(0, 3)):
			a.append(rng.randi_range(0, 2))
		arrays.append(a)
	add("keys_arrays", dict_of(arrays))
	add("keys_arrays_small", dict_of([[2], [1, 5], [1], [], [0, 0], [3, 1]]))
	# Pool arrays as keys are left out: sorting two of them crashes 3.2.3 (SIGSEGV).
	add("keys_nodepaths", dict_of(shuffled([NodePath("b"), NodePath("a"), NodePath("/root"),
		NodePath("a:x"), NodePath("c/d"), NodePath("")])))
	add("keys_dictionaries", dict_of([{"b": 1}, {"a": 2}, {}, {"c": 3}]))
	var many_colors = []
	for i in range(40):
		many_colors.append(Color(i / 40.0, 0, 0))
	add("keys_colors_40", dict_of(shuffled(many_colors)))
	var mixed = []
	for i in range(30):
		mixed.append(rng.randi_range(0, 50))
		mixed.append(str(rng.randi_range(0, 50)))
		mixed.append(Color(rng.randf(), 0, 0))
	add("keys_mixed_90", dict_of(mixed))
	# Wire dictionaries with duplicate keys: the engine keeps the first position, last value.
	add_bytes("dup_strings", wire_dict([["a", 1], ["b", 2], ["a", 3]]))
	add_bytes("dup_ints_floats", wire_dict([[1, "i"], [1.0, "f"], [1, "i2"], [0.0, "z"], [-0.0, "nz"]]))
	add_bytes("dup_nan", wire_dict([[NAN, 1], [NAN, 2], [1.0, 3]]))
	add_bytes("dup_rid", wire_dict([[RID(), 1], [RID(), 2]]))
	add_bytes("dup_arrays", wire_dict([[[1, 2], "x"], [[1, 2], "y"], [[1], "z"]]))
	add_bytes("dup_colors", wire_dict([[Color(1, 0, 0), 1], [Color(0, 1, 0), 2], [Color(1, 0, 0), 3]]))
	add_bytes("dup_vector2_zero", wire_dict([[Vector2(0.0, 1), 1], [Vector2(-0.0, 1), 2]]))
	add_bytes("dup_nodepath", wire_dict([[NodePath("a:b"), 1], [NodePath("a:b"), 2]]))
	add_bytes("dup_dicts", wire_dict([[{}, 1], [{}, 2]]))


func strings():
	add("nodepath_escapes", NodePath("a\"b\\c'd?e"))
	add("pool_string_escapes", PoolStringArray(["a\"b", "c\\d", "e\nf\tg", "h'i?j", "\u0007\u0008\u000b\u000c\r"]))
	add("string_escapes_all", "a\"b\\c\nd\te'f?g\u0007\u0008\u000b\u000c\r")


func run():
	rng.seed = 20240531
	floats()
	keys()
	strings()
	var out_path = OS.get_environment("GDWIRE_TEXT_OUT")
	if out_path == "":
		fail("GDWIRE_TEXT_OUT not set")
		return 1
	var f = File.new()
	if f.open(out_path, File.WRITE) != OK:
		fail("cannot write " + out_path)
		return 1
	for r in rows:
		f.store_string(r + "\n")
	f.close()
	if failures > 0:
		return 1
	print("GDWIRE-TEXT-OK %d rows" % rows.size())
	return 0
