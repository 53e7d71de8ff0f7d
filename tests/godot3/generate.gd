# Godot 3 (3.2.3) fixture generator for gdwire.
#
# Run through tests/godot3/regenerate.sh, which sets:
#   GDWIRE_OUT_ROOT     directory standing for the repository root: outputs are
#                       written to <it>/tests/fixtures/godot3/ (the sample capture has
#                       its own generator: samples/make_capture.gd)
#   GDWIRE_STDERR_LOG   absolute path of the file the engine's stderr is redirected to
#
# The engine's error code for a failed decode is not returned to GDScript by any
# 3.2.3 API, so this script reads it back from its own stderr: every decode is
# followed by reading the log from the offset it had before the decode (stderr is
# unbuffered, so the engine's ERROR lines are already there). See README.md.
#
# All work happens in run(); _init() only calls it and quits, because a script
# error directly inside _init() hangs the engine.
extends SceneTree

var repo_root = ""  # GDWIRE_OUT_ROOT
var log_path = ""
var failures = []


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1  # a GDScript runtime error aborted run()
	quit(code)


func fail(msg):
	failures.append(msg)
	printerr("GDWIRE-GENERATOR-FAILURE: " + msg)


# ---------------------------------------------------------------------------
# byte / hex helpers

func hex2bytes(h):
	h = h.replace(" ", "")
	var out = PoolByteArray()
	if h.length() % 2 != 0:
		fail("odd hex length: " + h)
		return out
	var i = 0
	var n = h.length()
	while i < n:
		out.append(("0x" + h.substr(i, 2)).hex_to_int())
		i += 2
	return out


# u32 little-endian hex (negative ints give their two's complement)
func u32(x):
	var b = StreamPeerBuffer.new()
	b.put_u32(x & 0xFFFFFFFF)
	return b.data_array.hex_encode()


# String block: u32 length, bytes, zero pad to 4.
func sblock(bytes_hex):
	bytes_hex = bytes_hex.replace(" ", "")
	var n = bytes_hex.length() / 2
	var pad = ""
	for _i in range((4 - n % 4) % 4):
		pad += "00"
	return u32(n) + bytes_hex + pad


func ascii_hex(s):
	return s.to_ascii().hex_encode()


# A double from its IEEE-754 bits given as 16 hex digits, most significant first.
func D(bits_hex):
	var b = StreamPeerBuffer.new()
	b.big_endian = true
	b.put_data(hex2bytes(bits_hex))
	b.seek(0)
	return b.get_double()


# A String from UTF-8 bytes given as hex (keeps this source file ASCII).
func U(h):
	return hex2bytes(h).get_string_from_utf8()


# Shared helpers (describe(), J(), the decode routes) live in common.gd.
var common = preload("res://common.gd").new()


func F(x):
	return common.F(x)


func shex(s):
	return common.shex(s)


func describe(v):
	return common.describe(v)


func J(v):
	return common.J(v)


func engine_decode(name, bytes, allow):
	return common.engine_decode(name, bytes, allow)


# ---------------------------------------------------------------------------
# values.jsonl

var values = []
var value_names = {}


func add(name, v, full = false):
	if value_names.has(name):
		fail("duplicate value name " + name)
	value_names[name] = true
	values.append([name, v, full])


func build_values():
	add("nil", null)
	add("bool_true", true)
	add("bool_false", false)

	add("int_0", 0)
	add("int_1", 1)
	add("int_neg1", -1)
	add("int_255", 255)
	add("int_0x12345678", 0x12345678)
	add("int_i32_max", 2147483647)
	add("int_2p31", 2147483648)
	add("int_i32_min", -2147483648)
	add("int_i32_min_minus1", -2147483649)
	add("int_2p32", 4294967296)
	add("int_neg_2p32", -4294967296)
	add("int_i64_max", 9223372036854775807)
	add("int_i64_min", -9223372036854775807 - 1)
	add("int_0xf123456789abcdef", -1070935975390360081)

	add("float_0", 0.0)
	add("float_neg0", D("8000000000000000"))
	add("float_1", 1.0)
	add("float_0_5", 0.5)
	add("float_neg1_5", -1.5)
	add("float_0_15625", 0.15625)
	add("float_0_1", 0.1)
	add("float_1_3", D("3fd5555555555555"))
	add("float_inf", INF)
	add("float_neg_inf", -INF)
	add("float_nan", NAN)
	add("float_nan_negative_payload", D("fff8000000000001"))
	add("float_f32_min_subnormal", D("36a0000000000000"))  # 2^-149
	add("float_f32_min_normal", D("3810000000000000"))  # 2^-126
	add("float_f64_min_subnormal", D("0000000000000001"))  # 2^-1074
	add("float_f64_subnormal_big", D("000fffffffffffff"))
	add("float_1e39", 1e39)
	add("float_f32_max", D("47efffffe0000000"))  # 3.4028234663852886e38
	add("float_f32_max_next_double", D("47efffffe0000001"))
	add("float_f64_max", D("7fefffffffffffff"))  # 1.7976931348623157e308
	add("float_2p24_plus1", 16777217.0)
	add("float_1e_45", 1e-45)

	add("string_empty", "")
	add("string_len1", "a")
	add("string_len2", "ab")
	add("string_len3", "abc")
	add("string_len4", "abcd")
	add("string_len5", "abcde")
	add("string_len6", "abcdef")
	add("string_len7", "abcdefg")
	add("string_len8", "abcdefgh")
	add("string_e_acute", U("c3a9"))
	add("string_zhong", U("e4b8ad"))
	add("string_gamepad_emoji", U("f09f8eae"))
	add("string_mixed_utf8", "h" + U("c3a9") + "llo " + U("e4b8ade69687") + " " + U("f09f8eae"))
	add("string_escapes", "line1\nline2\t\"quoted\" back\\slash")
	add("string_control_chars", "a" + char(1) + char(31) + char(127) + "z")
	var long_s = ""
	for i in range(37):
		long_s += "0123456789"
	add("string_len370", long_s)

	add("vector2_zero", Vector2())
	add("vector2_1_2", Vector2(1, 2))
	add("vector2_frac_neg", Vector2(-1.5, 0.1))
	add("rect2_1_2_3_4", Rect2(1, 2, 3, 4))
	add("rect2_frac_neg", Rect2(-0.5, 2.25, 0.1, -100))
	add("vector3_1_2_3", Vector3(1, 2, 3))
	add("vector3_frac_neg", Vector3(-0.5, 0.1, 1e10))
	add("vector3_inf_nan", Vector3(INF, -INF, NAN))
	add("transform2d_1_to_6", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)))
	add("transform2d_identity", Transform2D())
	add("transform2d_frac_neg", Transform2D(Vector2(-0.5, 0.25), Vector2(0.1, -3), Vector2(-7.75, 100.5)))
	add("plane_1_2_3_4", Plane(1, 2, 3, 4))
	add("plane_frac_neg", Plane(Vector3(0, -1, 0), -2.5))
	add("quat_1_2_3_4", Quat(1, 2, 3, 4))
	add("quat_identity", Quat())
	add("quat_frac_neg", Quat(0.1, -0.2, 0.3, -0.9))
	add("aabb_1_to_6", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	add("aabb_frac_neg", AABB(Vector3(-1.5, -2.5, 0.1), Vector3(0.5, 0.25, 1e-3)))
	add("basis_1_to_9", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)))
	add("basis_identity", Basis())
	add("basis_frac_neg", Basis(Vector3(-0.5, 0.1, 2), Vector3(0, -1, 0.25), Vector3(3.5, -7, 0.125)))
	add("transform_1_to_12", Transform(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12)))
	add("transform_identity", Transform())
	add("transform_frac_neg", Transform(Basis(Vector3(-0.5, 0.1, 2), Vector3(0, -1, 0.25), Vector3(3.5, -7, 0.125)), Vector3(-1.5, 0.1, 1000)))
	add("color_0_1_to_0_4", Color(0.1, 0.2, 0.3, 0.4))
	add("color_red", Color(1, 0, 0, 1))
	add("color_out_of_range", Color(-1, 2.5, 0.5, 0))

	add("nodepath_empty", NodePath(""))
	add("nodepath_a", NodePath("a"))
	add("nodepath_root_a_b", NodePath("/root/a:b"))
	add("nodepath_a_b_c_d", NodePath("a/b:c:d"))
	add("nodepath_parent_x", NodePath("../x"))
	add("nodepath_prop_only", NodePath(":prop"))
	add("nodepath_slash", NodePath("/"))
	add("nodepath_dot", NodePath("."))
	add("nodepath_len4_names", NodePath("abcd/efgh:ijkl"))
	add("nodepath_utf8", NodePath(U("c3a9") + "/" + U("e4b8ad") + ":" + U("f09f8eae")))

	add("rid_empty", RID())
	add("rid_live_texture", VisualServer.texture_create())

	var obj_ref = Reference.new()
	var obj_node = Node.new()
	add("object_id_reference", obj_ref)
	add("object_id_node", obj_node)
	add("object_null", obj_node.get_parent())
	add("object_null_full", obj_node.get_parent(), true)
	var freed = Node.new()
	freed.free()
	add("object_freed", freed)
	add("object_freed_full", freed, true)
	add("object_full_reference", Reference.new(), true)
	var meta_node = Node.new()
	meta_node.set_meta("answer", 42)
	meta_node.set_meta("label", "hi")
	add("object_full_node_meta", meta_node, true)
	var grad = Gradient.new()
	add("object_full_gradient", grad, true)
	var scr = GDScript.new()
	scr.source_code = "extends Reference\nexport var hp = 5\nexport var title = \"knight\"\nexport var pos = Vector3(1, 2, 3)\nexport var tags = [\"a\", 1]\nvar not_exported = 9\n"
	if scr.reload() != OK:
		fail("could not compile the inline GDScript")
	var scripted = scr.new()
	scripted.hp = 77
	scripted.tags = ["b", 2.5]
	scripted.not_exported = 10
	add("object_full_scripted_reference", scripted, true)
	add("array_of_objects_id", [obj_ref, obj_node, null])
	add("dictionary_object_full", {"ref": Reference.new(), "n": 1}, true)
	add("array_no_objects_full_mode", [1, "a"], true)

	add("dictionary_empty", {})
	add("dictionary_a_1", {"a": 1})
	var mixed = {}
	mixed[1] = "int one"
	mixed["1"] = "string one"
	mixed[1.0] = "float one"
	mixed[1.5] = "float"
	mixed[Vector2(1, 2)] = "vector2"
	mixed[null] = "nil key"
	mixed[true] = false
	mixed[[1, 2]] = "array key"
	add("dictionary_mixed_keys", mixed)
	var ordered = {}
	ordered["zebra"] = 1
	ordered["apple"] = 2
	ordered["mango"] = 3
	add("dictionary_insertion_order", ordered)
	add("dictionary_nested", {"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
	add("dictionary_int_keys", {0: "zero", -1: "minus one", 2147483648: "big"})

	add("array_empty", [])
	add("array_1_a", [1, "a"])
	add("array_nested_3", [[[1]]])
	add("array_nested_empty_4", [[[[]]]])
	add("array_mixed", [null, true, 1, 1.5, 0.1, "s", Vector2(1, 2), Color(0, 0, 0, 1), [1], {"k": "v"}, PoolByteArray([1, 2, 3]), NodePath("a:b"), RID()])
	add("array_of_strings_pad", ["", "a", "ab", "abc", "abcd"])

	var bytes_edge = [0, 255, 128, 1, 127, 254, 2, 3, 4]
	for n in range(10):
		var a = PoolByteArray()
		for i in range(n):
			a.append(bytes_edge[i])
		add("pool_byte_array_len%d" % n, a)
	var int_edge = [0, -1, 2147483647, -2147483648, 1, 65536]
	for n in range(6):
		var a = PoolIntArray()
		for i in range(n):
			a.append(int_edge[i])
		add("pool_int_array_len%d" % n, a)
	add("pool_int_array_truncated_int64", PoolIntArray([2147483648, -2147483649, 4294967297]))
	var real_edge = [0.5, 0.1, D("8000000000000000"), INF, NAN, D("36a0000000000000")]
	for n in range(6):
		var a = PoolRealArray()
		for i in range(n):
			a.append(real_edge[i])
		add("pool_real_array_len%d" % n, a)
	add("pool_real_array_f32_extremes", PoolRealArray([-INF, D("47efffffe0000000"), 1e39, D("3810000000000000"), 16777217.0]))
	var str_edge = ["", "a", "ab", "abc", "abcd", U("e4b8ad") + U("f09f8eae")]
	for n in range(6):
		var a = PoolStringArray()
		for i in range(n):
			a.append(str_edge[i])
		add("pool_string_array_len%d" % n, a)
	var v2_edge = [Vector2(1, 2), Vector2(-0.5, 0.1), Vector2(INF, -INF), Vector2(), Vector2(3.25, -1e20)]
	for n in range(6):
		var a = PoolVector2Array()
		for i in range(n):
			a.append(v2_edge[i])
		add("pool_vector2_array_len%d" % n, a)
	var v3_edge = [Vector3(1, 2, 3), Vector3(-0.5, 0.1, 0), Vector3(INF, -INF, D("36a0000000000000")), Vector3(), Vector3(4, 5, 6)]
	for n in range(6):
		var a = PoolVector3Array()
		for i in range(n):
			a.append(v3_edge[i])
		add("pool_vector3_array_len%d" % n, a)
	var c_edge = [Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4), Color(-1, 2, 0.5, 0), Color(0, 0, 0, 0), Color(1, 1, 1, 1)]
	for n in range(6):
		var a = PoolColorArray()
		for i in range(n):
			a.append(c_edge[i])
		add("pool_color_array_len%d" % n, a)


func write_values():
	var f = File.new()
	var path = repo_root.plus_file("tests/fixtures/godot3/values.jsonl")
	if f.open(path, File.WRITE) != OK:
		fail("cannot write " + path)
		return
	for e in values:
		var name = e[0]
		var v = e[1]
		var full = e[2]
		var bytes = var2bytes(v, full)
		var r = engine_decode(name, bytes, full)
		if r.failed:
			fail(name + ": the engine could not decode its own output: " + str(r.first))
			continue
		var decoded = r.value
		if typeof(decoded) == TYPE_OBJECT and decoded != null and decoded.get_class() != "EncodedObjectAsID":
			# the decoded object must re-encode to the same bytes
			if var2bytes(decoded, true) != bytes:
				fail(name + ": decoded full object does not re-encode identically")
		var line = {
			"name": name,
			"hex": bytes.hex_encode(),
			"full_objects": full,
			"desc": r.desc,
			"text": var2str(decoded),
		}
		f.store_string(J(line) + "\n")
	f.close()


# ---------------------------------------------------------------------------
# malformed.jsonl

var cases = []
var case_names = {}


func bad(name, h, allow = false):
	if case_names.has(name):
		fail("duplicate malformed name " + name)
	case_names[name] = true
	cases.append([name, h.replace(" ", ""), allow])


func truncations(prefix, full_hex):
	full_hex = full_hex.replace(" ", "")
	var n = full_hex.length() / 2
	for i in range(n):
		bad("%s_trunc%d" % [prefix, i], full_hex.substr(0, i * 2))
	bad("%s_full%d" % [prefix, n], full_hex)


func build_malformed():
	var INT = "02000000"
	var STR = "04000000"
	var ARR = "13000000"
	var DICT = "12000000"

	# header
	bad("empty", "")
	bad("header_1_byte", "00")
	bad("header_2_bytes", "0000")
	bad("header_3_bytes", "000000")
	bad("type_27_variant_max", "1b000000")
	bad("type_27_with_payload", "1b000000 01000000")
	bad("type_28", "1c000000")
	bad("type_255", "ff000000")
	bad("type_255_byte1_set", "ff010000")
	# every type id with the header only
	for t in range(27):
		bad("header_only_type%d" % t, u32(t))

	# garbage in unused header bits (byte 1, bits 17-31; bit 16 for types that do not use it)
	bad("nil_garbage_byte1", "00ff0000")
	bad("nil_garbage_bits16_31", "0000ffff")
	bad("bool_garbage_byte1", "01ab0000 01000000")
	bad("bool_garbage_bits16_31", "0100ffff 01000000")
	bad("int_garbage_byte1", "02ff0000 2a000000")
	bad("int_garbage_bits17_31", "0200feff 2a000000")
	bad("int64_garbage_bits17_31", "0200ffff 0000000001000000")
	bad("float_garbage_byte1", "03ff0000 0000003f")
	bad("float_garbage_bits17_31", "0300feff 0000003f")
	bad("string_garbage_header", "04ffffff " + sblock("616263"))
	bad("vector2_garbage_header", "05ffffff 0000803f 00000040")
	bad("color_garbage_header", "0eff0100 0000803f 00000000 00000000 0000803f")
	bad("nodepath_garbage_header", "0fffffff 01000080 00000000 00000000 " + sblock("61"))
	bad("rid_garbage_header", "10ffffff")
	bad("object_id_garbage_bits17_31", "1100ffff 0100000000000000")
	bad("object_id_bit16_clear_is_full_object", "11fffeff 0100000000000000")
	bad("dictionary_garbage_header", "12ffffff 00000000")
	bad("array_garbage_header", "13ffffff 01000000 " + INT + "07000000")
	bad("pool_byte_array_garbage_header", "14ffffff 02000000 01020000")
	bad("pool_vector3_array_garbage_header", "19ffffff 01000000 0000803f 00000040 00004040")

	# bool / int / float payload quirks
	bad("bool_value_2", "01000000 02000000")
	bad("bool_value_ffffffff", "01000000 ffffffff")
	bad("bool_value_0x100", "01000000 00010000")
	bad("int32_minus1_sign_extended", INT + "ffffffff")
	bad("int32_min_sign_extended", INT + "00000080")
	bad("int64_flag_small_value", "02000100 0100000000000000")
	bad("int64_flag_only_4_bytes", "02000100 01000000")
	bad("int64_flag_7_bytes", "02000100 01000000000000")
	bad("float64_flag_only_4_bytes", "03000100 0000803f")
	bad("float64_flag_exact_value", "03000100 000000000000f03f")
	bad("float32_signaling_nan", "03000000 0100807f")
	bad("float32_nan_payload", "03000000 5555c5ff")
	bad("float64_signaling_nan", "03000100 010000000000f07f")

	# strings
	bad("string_negative_length", STR + "ffffffff")
	bad("string_negative_length_with_data", STR + "fcffffff 61626364")
	bad("string_length_0x80000000", STR + "00000080 61626364")
	bad("string_length_0x7fffffff", STR + "ffffff7f 61626364")
	bad("string_length_beyond_data", STR + "64000000 61626364")
	bad("string_missing_padding", STR + "05000000 6162636465")
	bad("string_partial_padding", STR + "05000000 616263646500")
	bad("string_garbage_padding", STR + "05000000 6162636465 ffeedd")
	bad("string_nul_in_middle", STR + sblock("610062"))
	bad("string_nul_first", STR + sblock("006162"))
	bad("string_leading_bom", STR + sblock("efbbbf616263"))
	bad("string_only_bom", STR + sblock("efbbbf"))
	bad("string_double_bom", STR + sblock("efbbbfefbbbf61"))
	var utf8_cases = [
		["utf8_valid_2byte", "c3a9"],
		["utf8_valid_4byte", "f09f8eae"],
		["utf8_bad_continuation", "c328"],
		["utf8_bad_continuation_3byte", "e4b828"],
		["utf8_truncated_3byte_at_end", "61e4b8"],
		["utf8_overlong_2byte_c0af", "c0af"],
		["utf8_overlong_2byte_c180", "c180"],
		["utf8_overlong_3byte_e080af", "e080af"],
		["utf8_overlong_4byte_f08282ac", "f08282ac"],
		["utf8_lone_e9", "e9"],
		["utf8_lone_e9_in_text", "61e962"],
		["utf8_lone_continuation_80", "80"],
		["utf8_byte_ff", "ff"],
		["utf8_byte_fe", "fe"],
		["utf8_surrogate_d800", "eda080"],
		["utf8_surrogate_dfff", "edbfbf"],
		["utf8_codepoint_0x110000", "f4908080"],
		["utf8_5byte_sequence", "f888808080"],
		["utf8_6byte_sequence", "fc8480808080"],
		["utf8_encoded_nul_c080", "c080"],
	]
	for c in utf8_cases:
		bad("string_" + c[0], STR + sblock(c[1]))
	bad("nodepath_name_invalid_utf8", "0f000000 01000080 00000000 00000000 " + sblock("c328"))
	bad("dictionary_key_invalid_utf8", DICT + "01000000 " + STR + sblock("ff") + INT + "01000000")

	# truncations of multi-part values (hex built by hand, pads zero)
	truncations("int64", "02000100 efcdab8967452301")
	truncations("float64", "03000100 9a9999999999b93f")
	truncations("string_abcde", STR + sblock("6162636465"))
	truncations("vector3", "07000000 0000803f 00000040 00004040")
	truncations("transform", "0d000000 0000803f 00008040 0000e040 00000040 0000a040 00000041 00004040 0000c040 00001041 00002041 00003041 00004041")
	truncations("nodepath_root_a_b", "0f000000 02000080 01000000 01000000 " + sblock("726f6f74") + sblock("61") + sblock("62"))
	truncations("dictionary_a_1", DICT + "01000000 " + STR + sblock("61") + INT + "01000000")
	truncations("array_1_a", ARR + "02000000 " + INT + "01000000 " + STR + sblock("61"))
	truncations("pool_byte_array", "14000000 03000000 010203 00")
	truncations("pool_int_array", "15000000 02000000 01000000 feffffff")
	truncations("pool_real_array", "16000000 02000000 0000003f 0000803f")
	truncations("pool_string_array", "17000000 02000000 " + sblock("616200") + sblock("6300"))
	truncations("pool_vector2_array", "18000000 02000000 0000803f 00000040 00004040 00008040")
	truncations("pool_vector3_array", "19000000 02000000 0000803f 00000040 00004040 00008040 0000a040 0000c040")
	truncations("pool_color_array", "1a000000 02000000 0000803f 00000000 00000000 0000803f 00000000 0000803f 00000000 0000003f")
	# one short by a single byte for the remaining fixed-size types
	bad("vector2_short1", "05000000 0000803f 000000")
	bad("rect2_short1", "06000000 0000803f 00000040 00004040 000080")
	bad("transform2d_short1", "08000000 0000803f 00000040 00004040 00008040 0000a040 0000c0")
	bad("plane_short1", "09000000 0000803f 00000040 00004040 000080")
	bad("quat_short1", "0a000000 0000803f 00000040 00004040 000080")
	bad("aabb_short1", "0b000000 0000803f 00000040 00004040 00008040 0000a040 0000c0")
	bad("basis_short1", "0c000000 0000803f 00000040 00004040 00008040 0000a040 0000c040 0000e040 00000041 000010")
	bad("color_short1", "0e000000 0000803f 00000000 00000000 000080")
	bad("bool_short1", "01000000 010000")

	# NodePath
	bad("nodepath_old_format", "0f000000 03000000 61626300")
	bad("nodepath_old_format_zero", "0f000000 00000000 00000000 00000000")
	bad("nodepath_only_first_word", "0f000000 01000080")
	bad("nodepath_8_bytes", "0f000000 01000080 00000000")
	bad("nodepath_no_components", "0f000000 00000080 00000000 00000000")
	bad("nodepath_absolute_no_components", "0f000000 00000080 00000000 01000000")
	bad("nodepath_property_flag", "0f000000 01000080 00000000 02000000 " + sblock("61") + sblock("70726f70"))
	bad("nodepath_property_flag_absolute", "0f000000 01000080 01000000 03000000 " + sblock("61") + sblock("62") + sblock("70726f70"))
	bad("nodepath_property_flag_missing_string", "0f000000 01000080 00000000 02000000 " + sblock("61"))
	bad("nodepath_garbage_flags", "0f000000 01000080 00000000 fcffffff " + sblock("61"))
	bad("nodepath_garbage_pad", "0f000000 01000080 00000000 00000000 01000000 61ffeedd")
	bad("nodepath_count_too_large", "0f000000 05000080 00000000 00000000 " + sblock("61"))
	bad("nodepath_empty_name", "0f000000 01000080 00000000 00000000 00000000")

	# RID
	bad("rid_with_trailing_bytes", "10000000 0d00000000000000")

	# objects
	bad("object_id_0", "11000100 0000000000000000")
	bad("object_id_0_allow", "11000100 0000000000000000", true)
	bad("object_id_1", "11000100 0100000000000000")
	bad("object_id_u64_max", "11000100 ffffffffffffffff")
	bad("object_id_high_bit", "11000100 0807060504030201")
	bad("object_id_only_4_bytes", "11000100 01000000")
	var full_ref = "11000000 " + sblock(ascii_hex("Reference")) + "00000000"
	bad("object_full_reference_disallowed", full_ref)
	bad("object_full_reference_allowed", full_ref, true)
	bad("object_full_empty_class_disallowed", "11000000 00000000")
	bad("object_full_empty_class_allowed", "11000000 00000000", true)
	bad("object_full_unknown_class", "11000000 " + sblock(ascii_hex("NoSuchClassXyz")) + "00000000", true)
	bad("object_full_missing_prop_count", "11000000 " + sblock(ascii_hex("Reference")), true)
	bad("object_full_negative_prop_count", "11000000 " + sblock(ascii_hex("Reference")) + "ffffffff", true)
	bad("object_full_unknown_property", "11000000 " + sblock(ascii_hex("Reference")) + "01000000 " + sblock(ascii_hex("no_such_prop")) + INT + "05000000", true)
	bad("object_full_node_meta", "11000000 " + sblock(ascii_hex("Node")) + "01000000 " + sblock(ascii_hex("__meta__")) + DICT + "01000000 " + STR + sblock("6b") + INT + "07000000", true)
	bad("object_full_prop_count_too_large", "11000000 " + sblock(ascii_hex("Reference")) + "02000000 " + sblock(ascii_hex("script")) + "00000000", true)
	bad("object_full_inside_array_disallowed", ARR + "01000000 " + full_ref)
	bad("object_full_class_name_truncated", "11000000 09000000 5265666572", true)

	# dictionaries / arrays
	bad("array_count_bit31", ARR + "01000080 " + INT + "07000000")
	bad("array_count_0x80000000", ARR + "00000080")
	bad("array_count_0xffffffff", ARR + "ffffffff " + INT + "07000000")
	bad("dictionary_count_bit31", DICT + "01000080 " + STR + sblock("61") + INT + "01000000")
	bad("dictionary_count_0x80000000", DICT + "00000080")
	bad("dictionary_duplicate_keys", DICT + "02000000 " + STR + sblock("61") + INT + "01000000 " + STR + sblock("61") + INT + "02000000")
	bad("dictionary_missing_value", DICT + "01000000 " + STR + sblock("61"))
	bad("dictionary_count_too_large", DICT + "02000000 " + STR + sblock("61") + INT + "01000000")
	bad("dictionary_bad_key_type", DICT + "01000000 1b000000 " + INT + "01000000")
	bad("array_count_too_large", ARR + "03000000 " + INT + "01000000 " + INT + "02000000")
	bad("array_second_element_truncated_string", ARR + "02000000 " + INT + "01000000 " + STR + "05000000 616263")
	bad("array_element_unknown_type", ARR + "01000000 ff000000")
	bad("array_element_invalid_utf8", ARR + "01000000 " + STR + sblock("c0af"))

	# PoolByteArray padding
	bad("pool_byte_array_no_pad_top_level", "14000000 03000000 010203")
	bad("pool_byte_array_no_pad_last_in_array", ARR + "01000000 14000000 03000000 010203")
	bad("pool_byte_array_no_pad_not_last_in_array", ARR + "02000000 14000000 03000000 010203 " + INT + "05000000")
	bad("pool_byte_array_no_pad_1_not_last_in_array", ARR + "02000000 14000000 01000000 01 " + INT + "05000000")
	bad("pool_byte_array_no_pad_then_missing_element", ARR + "02000000 14000000 03000000 010203")
	bad("pool_byte_array_with_pad_not_last_in_array", ARR + "02000000 14000000 03000000 01020300 " + INT + "05000000")
	bad("pool_byte_array_garbage_pad", "14000000 01000000 01ffffff")
	bad("pool_byte_array_count_too_large", "14000000 05000000 01020304")
	bad("pool_byte_array_negative_count", "14000000 ffffffff 01020304")

	# PoolStringArray
	bad("pool_string_array_negative_count", "17000000 ffffffff")
	bad("pool_string_array_negative_count_with_data", "17000000 feffffff " + sblock("616200"))
	bad("pool_string_array_with_nul_terminator", "17000000 01000000 " + sblock("616200"))
	bad("pool_string_array_without_nul_terminator", "17000000 01000000 " + sblock("6162"))
	bad("pool_string_array_mixed_terminators", "17000000 03000000 " + sblock("616200") + sblock("6364") + sblock("00"))
	bad("pool_string_array_empty_entry_no_nul", "17000000 01000000 00000000")
	bad("pool_string_array_nul_in_middle", "17000000 01000000 " + sblock("61006200"))
	bad("pool_string_array_count_too_large", "17000000 03000000 " + sblock("616200"))
	bad("pool_string_array_invalid_utf8", "17000000 01000000 " + sblock("ff00"))

	# packed arrays: negative count, count*size overflow, count too large
	var packed = [["pool_int_array", "15000000", 4], ["pool_real_array", "16000000", 4], ["pool_vector2_array", "18000000", 8], ["pool_vector3_array", "19000000", 12], ["pool_color_array", "1a000000", 16]]
	for p in packed:
		var pre = p[0]
		var hdr = p[1]
		var size = p[2]
		var data16 = "0000803f 00000040 00004040 00008040"
		bad(pre + "_negative_count", hdr + "ffffffff " + data16)
		bad(pre + "_count_0x80000000", hdr + "00000080 " + data16)
		bad(pre + "_count_mul_overflow", hdr + u32((0x7FFFFFFF / size) + 1) + data16)
		bad(pre + "_count_max_no_overflow", hdr + u32(0x7FFFFFFF / size) + data16)
		bad(pre + "_count_one_too_many", hdr + u32(16 / size + 1) + data16)
		bad(pre + "_trailing_partial_element", hdr + u32(16 / size) + data16 + "000000")
		bad(pre + "_flag64_ignored", hdr.substr(0, 4) + "0100" + u32(16 / size) + data16)

	# trailing bytes
	bad("trailing_after_int", INT + "07000000 deadbeef")
	bad("trailing_after_nil", "00000000 00000000")
	bad("trailing_after_string", STR + sblock("6162") + "ffffffffffff")
	bad("trailing_after_array", ARR + "00000000 " + INT + "01000000")

	# nesting depth (3.2.3 has no decoder depth limit)
	for depth in [1024, 1025, 1026, 2000]:
		var h = ""
		for _i in range(depth - 1):
			h += ARR + "01000000"
		h += ARR + "00000000"
		bad("array_nesting_%d" % depth, h)
	var h2 = ""
	for _i in range(1025):
		h2 += ARR + "01000000"
	h2 += INT + "2a000000"
	bad("array_nesting_1025_int_leaf", h2)
	var h3 = ""
	for _i in range(1025):
		h3 += DICT + "01000000" + INT + "00000000"
	h3 += "00000000"
	bad("dictionary_nesting_1025", h3)


func write_malformed():
	var f = File.new()
	var path = repo_root.plus_file("tests/fixtures/godot3/malformed.jsonl")
	if f.open(path, File.WRITE) != OK:
		fail("cannot write " + path)
		return
	for c in cases:
		var name = c[0]
		var h = c[1]
		var allow = c[2]
		var bytes = hex2bytes(h)
		var r = engine_decode(name, bytes, allow)
		var line = {
			"name": name,
			"hex": h,
			"allow_objects": allow,
			"verdict": "error" if r.failed else "ok",
			"error": r.error,
			"desc": r.desc,
		}
		f.store_string(J(line) + "\n")
	f.close()


# ---------------------------------------------------------------------------
# route self-test: known-good and known-bad inputs with known answers

func self_test():
	var expect = [
		["00000000", false, OK, "{\"t\": \"nil\"}"],
		["0200000007000000", false, OK, "{\"t\": \"int\", \"v\": \"7\"}"],
		["0200000007000000ffff", false, OK, "{\"t\": \"int\", \"v\": \"7\"}"],
		["", false, ERR_INVALID_DATA, null],
		["02000000", false, ERR_INVALID_DATA, null],
		["1b000000", false, ERR_INVALID_DATA, null],
		["0400000005000000616263", false, ERR_FILE_EOF, null],
		["11000000" + sblock(ascii_hex("Reference")) + "00000000", false, ERR_UNAUTHORIZED, null],
		["11000000" + sblock(ascii_hex("NoSuchClassXyz")) + "00000000", true, ERR_UNAVAILABLE, null],
		["1300000001000000" + "0400000005000000616263", false, ERR_FILE_EOF, null],
	]
	for e in expect:
		var r = engine_decode("self_test_" + e[0], hex2bytes(e[0]), e[1])
		if r.error != e[2] or (r.error == OK and J(r.desc) != e[3]) or (r.error != OK) != r.failed:
			fail("route self-test failed for %s: got %s %s %s" % [e[0], r.failed, r.error, J(r.desc)])


# ---------------------------------------------------------------------------

func run():
	repo_root = OS.get_environment("GDWIRE_OUT_ROOT")
	log_path = OS.get_environment("GDWIRE_STDERR_LOG")
	common.log_path = log_path
	common.fail_target = funcref(self, "fail")
	if repo_root == "" or log_path == "":
		printerr("GDWIRE-GENERATOR-FAILURE: run this through tests/godot3/regenerate.sh (GDWIRE_OUT_ROOT / GDWIRE_STDERR_LOG not set)")
		return 2
	self_test()
	if failures.size() > 0:
		return 1
	build_values()
	write_values()
	build_malformed()
	write_malformed()
	print("values: %d, malformed: %d, failures: %d" % [values.size(), cases.size(), failures.size()])
	if failures.size() > 0:
		return 1
	print("GDWIRE-GENERATOR-OK")
	return 0
