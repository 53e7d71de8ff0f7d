# Godot 4.6 fixture generator for gdwire. Run by tests/godot4/regenerate.sh through
# tests/godot4/run.py, packed with common.gd and typed_item.gd.
#
# Prints one "GDWIRE-ROW:<file>:<json>" line per fixture row on stdout and brackets every decode
# with "GDWIRE-MARK:<n>:a|b|end" lines on stderr; assemble.py joins the two, reading the
# engine's verdict and error code from the ERROR lines between the markers (a release build
# reports decode errors nowhere else). See README.md.
extends SceneTree

var common = preload("res://common.gd").new()
var item_script = preload("res://typed_item.gd")
var status = 0
var kept = []  # objects that must stay alive until the end (their ids are in the bytes)


func _initialize():
	print("GDWIRE-ERRNAMES:" + common.J(common.error_names()))
	self_test()
	if common.failures.is_empty():
		build_values()
		write_values()
		build_malformed()
		write_malformed()
	print("values: %d, malformed: %d, failures: %d" % [values.size(), cases.size(), common.failures.size()])
	if common.failures.is_empty():
		print("GDWIRE-GENERATOR-OK")
	else:
		status = 1


func _process(_delta):
	quit(status)
	return true


func fail(msg):
	common.fail(msg)


func J(v):
	return common.J(v)


func D(h):
	return common.D(h)


func U(h):
	return common.U(h)


func hex2bytes(h):
	return common.hex2bytes(h)


# u32 little-endian hex (negative ints give their two's complement)
func u32(x: int) -> String:
	var b = PackedByteArray()
	b.resize(4)
	b.encode_u32(0, x & 0xFFFFFFFF)
	return b.hex_encode()


func u64(x: int) -> String:
	var b = PackedByteArray()
	b.resize(8)
	b.encode_s64(0, x)
	return b.hex_encode()


# String block: u32 length, bytes, zero pad to 4.
func sblock(bytes_hex: String) -> String:
	bytes_hex = bytes_hex.replace(" ", "")
	var n = bytes_hex.length() / 2
	return u32(n) + bytes_hex + "00".repeat((4 - n % 4) % 4)


func ascii_hex(s: String) -> String:
	return s.to_ascii_buffer().hex_encode()


# ---------------------------------------------------------------------------
# values.jsonl

var values = []  # [name, bytes, full]
var value_names = {}


func add_bytes(name, bytes, full):
	if value_names.has(name):
		fail("duplicate value name " + name)
	value_names[name] = true
	values.append([name, bytes, full])


func add(name, v, full = false):
	var bytes = var_to_bytes_with_objects(v) if full else var_to_bytes(v)
	# Godot 4.2 writes a scripted object's script as a full GDScript object (its source code
	# included) and then crashes decoding those bytes ("pure virtual method called"); 4.6
	# writes the script's res:// path. Such values get no row (GDWIRE-SKIPPED on stdout).
	var gdscript = ascii_hex("GDScript")
	var at = bytes.hex_encode().find(gdscript)
	if full and at != -1 and at % 2 == 0:
		print("GDWIRE-SKIPPED:%s:%s" % [name, bytes.hex_encode()])
		return
	add_bytes(name, bytes, full)


# Object ids and Signal ids are engine instance ids, which depend on everything the engine
# allocated before: each object's id in the bytes is replaced by a fixed one (keeping bit 63,
# the engine's RefCounted marker) before the engine decodes the bytes.
func add_with_ids(name, v, objs, full = false):
	var bytes = var_to_bytes_with_objects(v) if full else var_to_bytes(v)
	for i in objs.size():
		var id = objs[i].get_instance_id()
		var fixed = (id & (1 << 63)) | (0x1000 + i)
		var found = 0
		for off in range(0, bytes.size() - 7):
			if bytes.decode_s64(off) == id:
				bytes.encode_s64(off, fixed)
				found += 1
		if found == 0:
			fail(name + ": object id not found in the bytes")
		kept.append(objs[i])
	add_bytes(name, bytes, full)


# NodePath pad bytes are not written by the 4.6.0 encoder (uninitialised memory; fixed in
# 4.6.3): they are zeroed here. `off` is the NodePath header; returns the offset after it.
func zero_nodepath_pads(bytes: PackedByteArray, off: int) -> int:
	if bytes.decode_u32(off) & 0xFF != TYPE_NODE_PATH:
		fail("zero_nodepath_pads: no NodePath at %d" % off)
		return bytes.size()
	var total = (bytes.decode_u32(off + 4) & 0x7FFFFFFF) + bytes.decode_u32(off + 8)
	var p = off + 16
	for _i in total:
		var n = bytes.decode_u32(p)
		p += 4 + n
		while n % 4 != 0:
			bytes[p] = 0
			p += 1
			n += 1
	return p


func add_nodepath(name, np):
	var bytes = var_to_bytes(np)
	var end = zero_nodepath_pads(bytes, 0)
	if end != bytes.size():
		fail(name + ": NodePath length mismatch")
	add_bytes(name, bytes, false)


func add_nodepath_array(name, arr):
	var bytes = var_to_bytes(arr)
	var p = 8
	for _i in arr.size():
		p = zero_nodepath_pads(bytes, p)
	if p != bytes.size():
		fail(name + ": NodePath array length mismatch")
	add_bytes(name, bytes, false)


# n nested one-element arrays around leaf
func chain(n, leaf):
	var v = leaf
	for _i in n:
		v = [v]
	return v


func typed_array(builtin, cls, script, items):
	var a = Array([], builtin, cls, script)
	for e in items:
		a.append(e)
	return a


func typed_dict(kb, kc, ks, vb, vc, vs, pairs):
	return common.typed_dictionary(kb, kc, ks, vb, vc, vs, pairs)


func build_values():
	add("nil", null)
	add("bool_true", true)
	add("bool_false", false)

	for e in [["0", 0], ["1", 1], ["neg1", -1], ["255", 255], ["0x12345678", 0x12345678],
			["i32_max", 2147483647], ["2p31", 2147483648], ["i32_min", -2147483648],
			["i32_min_minus1", -2147483649], ["2p32", 4294967296], ["neg_2p32", -4294967296],
			["i64_max", 9223372036854775807], ["i64_min", -9223372036854775807 - 1],
			["0xf123456789abcdef", -1070935975390360081]]:
		add("int_" + e[0], e[1])

	for e in [["0", 0.0], ["neg0", D("8000000000000000")], ["1", 1.0], ["0_5", 0.5],
			["neg1_5", -1.5], ["0_15625", 0.15625], ["0_1", 0.1], ["1_3", D("3fd5555555555555")],
			["inf", INF], ["neg_inf", -INF], ["nan", NAN], ["nan_negative_payload", D("fff8000000000001")],
			["f32_min_subnormal", D("36a0000000000000")], ["f32_min_normal", D("3810000000000000")],
			["f64_min_subnormal", D("0000000000000001")], ["f64_subnormal_big", D("000fffffffffffff")],
			["1e39", 1e39], ["f32_max", D("47efffffe0000000")], ["f32_max_next_double", D("47efffffe0000001")],
			["f64_max", D("7fefffffffffffff")], ["2p24_plus1", 16777217.0], ["1e_45", 1e-45]]:
		add("float_" + e[0], e[1])

	var s = ""
	for n in 9:
		add("string_len%d" % n, s)
		s += "abcdefghi"[n]
	add("string_e_acute", U("c3a9"))
	add("string_zhong", U("e4b8ad"))
	add("string_gamepad_emoji", U("f09f8eae"))
	add("string_mixed_utf8", "h" + U("c3a9") + "llo " + U("e4b8ade69687") + " " + U("f09f8eae"))
	add("string_escapes", "line1\nline2\t\"quoted\" back\\slash")
	add("string_control_chars", "a" + String.chr(1) + String.chr(31) + String.chr(127) + "z")
	# String.chr(0) is not a NUL: the engine makes it U+FFFD (NUL on the wire: malformed.jsonl)
	add("string_chr0_is_replacement_char", "a" + String.chr(0) + "b")
	add("string_len370", "0123456789".repeat(37))
	add("string_name_empty", &"")
	add("string_name_a", &"a")
	add("string_name_abcd", &"abcd")
	add("string_name_utf8", StringName("h" + U("c3a9") + "llo " + U("f09f8eae")))

	add("vector2_zero", Vector2())
	add("vector2_1_2", Vector2(1, 2))
	add("vector2_frac_neg", Vector2(-1.5, 0.1))
	add("vector2_inf_nan", Vector2(INF, NAN))
	add("vector2i_1_neg2", Vector2i(1, -2))
	add("vector2i_extremes", Vector2i(2147483647, -2147483648))
	add("rect2_1_2_3_4", Rect2(1, 2, 3, 4))
	add("rect2_frac_neg", Rect2(-0.5, 2.25, 0.1, -100))
	add("rect2i_1_2_3_4", Rect2i(1, 2, 3, 4))
	add("rect2i_extremes", Rect2i(-2147483648, 2147483647, 0, -1))
	add("vector3_1_2_3", Vector3(1, 2, 3))
	add("vector3_frac_neg", Vector3(-0.5, 0.1, 1e10))
	add("vector3_inf_nan", Vector3(INF, -INF, NAN))
	add("vector3i_1_2_3", Vector3i(1, 2, 3))
	add("vector3i_extremes", Vector3i(-2147483648, 0, 2147483647))
	add("transform2d_1_to_6", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)))
	add("transform2d_identity", Transform2D())
	add("transform2d_frac_neg", Transform2D(Vector2(-0.5, 0.25), Vector2(0.1, -3), Vector2(-7.75, 100.5)))
	add("vector4_1_2_3_4", Vector4(1, 2, 3, 4))
	add("vector4_frac_inf", Vector4(-0.5, 0.1, INF, D("8000000000000000")))
	add("vector4i_1_2_3_4", Vector4i(1, 2, 3, 4))
	add("vector4i_extremes", Vector4i(-2147483648, 2147483647, -1, 0))
	add("plane_1_2_3_4", Plane(1, 2, 3, 4))
	add("plane_frac_neg", Plane(Vector3(0, -1, 0), -2.5))
	add("quaternion_1_2_3_4", Quaternion(1, 2, 3, 4))
	add("quaternion_identity", Quaternion())
	add("quaternion_frac_neg", Quaternion(0.1, -0.2, 0.3, -0.9))
	add("aabb_1_to_6", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	add("aabb_frac_neg", AABB(Vector3(-1.5, -2.5, 0.1), Vector3(0.5, 0.25, 1e-3)))
	add("basis_1_to_9", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)))
	add("basis_identity", Basis())
	add("basis_frac_neg", Basis(Vector3(-0.5, 0.1, 2), Vector3(0, -1, 0.25), Vector3(3.5, -7, 0.125)))
	add("transform3d_1_to_12", Transform3D(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12)))
	add("transform3d_identity", Transform3D())
	add("transform3d_frac_neg", Transform3D(Basis(Vector3(-0.5, 0.1, 2), Vector3(0, -1, 0.25), Vector3(3.5, -7, 0.125)), Vector3(-1.5, 0.1, 1000)))
	add("projection_identity", Projection())
	add("projection_1_to_16", Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)))
	add("projection_frac_neg", Projection(Vector4(-0.5, 0.1, 0, INF), Vector4(1e-3, -2, 3.25, 0), Vector4(0, 0, -1, -1), Vector4(0.125, 7, -8, 1e20)))
	add("color_0_1_to_0_4", Color(0.1, 0.2, 0.3, 0.4))
	add("color_red", Color(1, 0, 0, 1))
	add("color_out_of_range", Color(-1, 2.5, 0.5, 0))

	add_nodepath("nodepath_empty", NodePath(""))
	add_nodepath("nodepath_a", NodePath("a"))
	add_nodepath("nodepath_root_a_b", NodePath("/root/a:b"))
	add_nodepath("nodepath_a_b_c_d", NodePath("a/b:c:d"))
	add_nodepath("nodepath_parent_x", NodePath("../x"))
	add_nodepath("nodepath_parent", NodePath(".."))
	add_nodepath("nodepath_prop_only", NodePath(":prop"))
	add_nodepath("nodepath_slash", NodePath("/"))
	add_nodepath("nodepath_dot", NodePath("."))
	add_nodepath("nodepath_len4_names", NodePath("abcd/efgh:ijkl"))
	add_nodepath("nodepath_utf8", NodePath(U("c3a9") + "/" + U("e4b8ad") + ":" + U("f09f8eae")))
	add_nodepath_array("array_of_nodepaths", [NodePath("a:b"), NodePath("/root"), NodePath("")])

	add("rid_empty", RID())
	add("rid_13", rid_from_int64(13))
	add("rid_big", rid_from_int64(0x123456789abcdef0))
	add("rid_u64_max", rid_from_int64(-1))

	var obj_ref = RefCounted.new()
	var obj_node = Node.new()
	add_with_ids("object_id_refcounted", obj_ref, [obj_ref])
	add_with_ids("object_id_node", obj_node, [obj_node])
	add("object_null", obj_node.get_parent())
	add("object_null_full", obj_node.get_parent(), true)
	var freed = Node.new()
	freed.free()
	add("object_freed", freed)
	add("object_freed_full", freed, true)
	add("object_full_refcounted", RefCounted.new(), true)
	# ClassDB: Godot 4.0's GDScript refuses `Object.new()`
	add("object_full_object", ClassDB.instantiate("Object"), true)
	var meta_node = Node.new()
	meta_node.name = "Meta"
	meta_node.set_meta("answer", 42)
	meta_node.set_meta("label", "hi")
	kept.append(meta_node)
	add("object_full_node_meta", meta_node, true)
	var grad = Gradient.new()
	add("object_full_gradient", grad, true)
	var scripted = item_script.new()
	scripted.hp = 77
	scripted.title = "rogue"
	scripted.not_exported = 10
	add("object_full_scripted", scripted, true)
	add_with_ids("array_of_objects_id", [obj_ref, obj_node, null], [obj_ref, obj_node])
	add("dictionary_object_full", {"ref": RefCounted.new(), "n": 1}, true)
	add("array_no_objects_full_mode", [1, "a"], true)

	add("callable_empty", Callable())
	add("callable_bound", Callable(obj_node, "queue_free"))
	add("signal_empty", Signal())
	add_with_ids("signal_node_ready", Signal(obj_node, "ready"), [obj_node])

	add("dictionary_empty", {})
	add("dictionary_a_1", {"a": 1})
	var mixed = {}
	mixed[1] = "int one"
	mixed["1"] = "string one"
	mixed[&"1"] = "string name one"
	mixed[1.5] = "float"
	mixed[Vector2(1, 2)] = "vector2"
	mixed[Vector2i(1, 2)] = "vector2i"
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

	# typed dictionaries: Godot 4.4+
	if common.has_typed_dictionaries:
		add("typed_dictionary_string_int", typed_dict(TYPE_STRING, &"", null, TYPE_INT, &"", null, [["a", 1], ["b", -2]]))
		add("typed_dictionary_empty_string_int", typed_dict(TYPE_STRING, &"", null, TYPE_INT, &"", null, []))
		add("typed_dictionary_int_key_only", typed_dict(TYPE_INT, &"", null, TYPE_NIL, &"", null, [[1, "x"], [2, [3]]]))
		add("typed_dictionary_float_value_only", typed_dict(TYPE_NIL, &"", null, TYPE_FLOAT, &"", null, [["a", 0.5], [1, 0.1]]))
		add("typed_dictionary_vector3i_color", typed_dict(TYPE_VECTOR3I, &"", null, TYPE_COLOR, &"", null, [[Vector3i(1, 2, 3), Color(1, 0, 0)]]))
		var dn = Node.new()
		kept.append(dn)
		var d_class = typed_dict(TYPE_STRING_NAME, &"", null, TYPE_OBJECT, &"Node", null, [[&"n", dn], [&"none", null]])
		add_with_ids("typed_dictionary_class_value_ids", d_class, [dn])
		add("typed_dictionary_class_value_full", typed_dict(TYPE_STRING_NAME, &"", null, TYPE_OBJECT, &"RefCounted", null, [[&"r", RefCounted.new()]]), true)
		var d_item = item_script.new()
		var d_script = typed_dict(TYPE_INT, &"", null, TYPE_OBJECT, &"RefCounted", item_script, [[7, d_item]])
		add_with_ids("typed_dictionary_script_value_ids", d_script, [d_item])
		add("typed_dictionary_script_value_full", typed_dict(TYPE_INT, &"", null, TYPE_OBJECT, &"RefCounted", item_script, [[7, item_script.new()]]), true)
		add("typed_dictionary_script_key_full", typed_dict(TYPE_OBJECT, &"RefCounted", item_script, TYPE_BOOL, &"", null, [[item_script.new(), true]]), true)

	add("array_empty", [])
	add("array_1_a", [1, "a"])
	add("array_nested_3", [[[1]]])
	add("array_nested_empty_4", [[[[]]]])
	add("array_mixed", [null, true, 1, 1.5, 0.1, "s", &"sn", Vector2(1, 2), Vector2i(3, 4), Color(0, 0, 0, 1), [1], {"k": "v"}, PackedByteArray([1, 2, 3]), RID(), Callable(), Projection()])
	add("array_of_strings_pad", ["", "a", "ab", "abc", "abcd"])

	add("typed_array_int", typed_array(TYPE_INT, &"", null, [1, -2, 2147483648]))
	add("typed_array_int_empty", typed_array(TYPE_INT, &"", null, []))
	add("typed_array_float", typed_array(TYPE_FLOAT, &"", null, [0.5, 0.1, INF]))
	add("typed_array_string", typed_array(TYPE_STRING, &"", null, ["a", ""]))
	add("typed_array_string_name", typed_array(TYPE_STRING_NAME, &"", null, [&"a", &"bc"]))
	add("typed_array_vector3", typed_array(TYPE_VECTOR3, &"", null, [Vector3(1, 2, 3)]))
	add("typed_array_array", typed_array(TYPE_ARRAY, &"", null, [[1], []]))
	add("typed_array_dictionary", typed_array(TYPE_DICTIONARY, &"", null, [{"a": 1}]))
	add("typed_array_packed_byte_array", typed_array(TYPE_PACKED_BYTE_ARRAY, &"", null, [PackedByteArray([1])]))
	var an = Node.new()
	kept.append(an)
	add_with_ids("typed_array_class_ids", typed_array(TYPE_OBJECT, &"Node", null, [an, null]), [an])
	add("typed_array_class_full", typed_array(TYPE_OBJECT, &"RefCounted", null, [RefCounted.new(), null]), true)
	add("typed_array_class_empty_ids", typed_array(TYPE_OBJECT, &"Node", null, []))
	add("typed_array_class_empty_full", typed_array(TYPE_OBJECT, &"Node", null, []), true)
	var a_item = item_script.new()
	add_with_ids("typed_array_script_ids", typed_array(TYPE_OBJECT, &"RefCounted", item_script, [a_item]), [a_item])
	add("typed_array_script_full", typed_array(TYPE_OBJECT, &"RefCounted", item_script, [item_script.new()]), true)
	add("typed_array_script_empty_full", typed_array(TYPE_OBJECT, &"RefCounted", item_script, []), true)
	add("typed_array_object_builtin_full", typed_array(TYPE_OBJECT, &"Object", null, [null]), true)

	# deep values: var_to_str stops at 100 levels (containers deeper print empty, objects null)
	add("deep_array_101_around_int", chain(101, 5))
	add("deep_array_102_around_int", chain(102, 5))
	var dchain = 5
	for _i in 102:
		dchain = {0: dchain}
	add("deep_dictionary_102_around_int", dchain)
	add("deep_typed_array_at_101", chain(101, typed_array(TYPE_INT, &"", null, [1, 2])))
	if common.has_typed_dictionaries:
		add("deep_typed_dictionary_at_101", chain(101, typed_dict(TYPE_INT, &"", null, TYPE_INT, &"", null, [[1, 2]])))
	add("deep_dictionary_at_100_holding_array", chain(100, {"k": [1]}))
	add("deep_packed_array_at_101", chain(101, PackedInt32Array([1, 2])))
	var deep_obj = RefCounted.new()
	deep_obj.set_meta("m", [1])
	add("deep_object_at_100_full", chain(100, deep_obj), true)
	add("deep_object_at_101_full", chain(101, RefCounted.new()), true)

	# packed arrays of lengths 0-5 with edge elements, and large ones
	var bytes_edge = [0, 255, 128, 1, 127, 254, 2, 3, 4]
	for n in 10:
		var a = PackedByteArray()
		for i in n:
			a.append(bytes_edge[i])
		add("packed_byte_array_len%d" % n, a)
	var i32_edge = [0, -1, 2147483647, -2147483648, 1, 65536]
	var i64_edge = [0, -1, 9223372036854775807, -9223372036854775807 - 1, 2147483648, -2147483649]
	var f_edge = [0.5, 0.1, D("8000000000000000"), INF, NAN, D("36a0000000000000")]
	var f64_edge = [0.1, D("0000000000000001"), -INF, D("fff8000000000001"), 1e300, D("8000000000000000")]
	var s_edge = ["", "a", "ab", "abc", "abcd", U("e4b8ad") + U("f09f8eae")]
	var v2_edge = [Vector2(1, 2), Vector2(-0.5, 0.1), Vector2(INF, -INF), Vector2(), Vector2(3.25, -1e20)]
	var v3_edge = [Vector3(1, 2, 3), Vector3(-0.5, 0.1, 0), Vector3(INF, -INF, D("36a0000000000000")), Vector3(), Vector3(4, 5, 6)]
	var c_edge = [Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4), Color(-1, 2, 0.5, 0), Color(0, 0, 0, 0), Color(1, 1, 1, 1)]
	var v4_edge = [Vector4(1, 2, 3, 4), Vector4(-0.5, 0.1, 0, NAN), Vector4(INF, -INF, 1e-45, 0), Vector4(), Vector4(5, 6, 7, 8)]
	for n in 6:
		var a32 = PackedInt32Array()
		var a64 = PackedInt64Array()
		var f32 = PackedFloat32Array()
		var f64 = PackedFloat64Array()
		var sa = PackedStringArray()
		for i in n:
			a32.append(i32_edge[i])
			a64.append(i64_edge[i])
			f32.append(f_edge[i])
			f64.append(f64_edge[i])
			sa.append(s_edge[i])
		add("packed_int32_array_len%d" % n, a32)
		add("packed_int64_array_len%d" % n, a64)
		add("packed_float32_array_len%d" % n, f32)
		add("packed_float64_array_len%d" % n, f64)
		add("packed_string_array_len%d" % n, sa)
		var v2 = PackedVector2Array()
		var v3 = PackedVector3Array()
		var c = PackedColorArray()
		var v4 = common.packed_vector4_array()
		for i in min(n, 5):
			v2.append(v2_edge[i])
			v3.append(v3_edge[i])
			c.append(c_edge[i])
			if v4 != null:
				v4.append(v4_edge[i])
		add("packed_vector2_array_len%d" % n, v2)
		add("packed_vector3_array_len%d" % n, v3)
		add("packed_color_array_len%d" % n, c)
		if v4 != null:
			add("packed_vector4_array_len%d" % n, v4)
	add("packed_int32_array_truncated_int64", PackedInt32Array([2147483648, -2147483649, 4294967297]))
	add("packed_float32_array_f32_extremes", PackedFloat32Array([-INF, D("47efffffe0000000"), 1e39, D("3810000000000000"), 16777217.0]))

	# large: deterministic contents (no random numbers), sizes not multiples of 4
	var big = 257
	var lb = PackedByteArray()
	var l32 = PackedInt32Array()
	var l64 = PackedInt64Array()
	var lf32 = PackedFloat32Array()
	var lf64 = PackedFloat64Array()
	var ls = PackedStringArray()
	var lv2 = PackedVector2Array()
	var lv3 = PackedVector3Array()
	var lc = PackedColorArray()
	var lv4 = common.packed_vector4_array()
	for i in big:
		lb.append((i * 37 + 11) % 256)
		l32.append(i * 2654435 - 1000000)
		l64.append(i * 1234567890123 - 5)
		lf32.append(i * 0.25 - 7.5)
		lf64.append(i / 3.0)
		ls.append("s%d" % i + "x".repeat(i % 5))
		lv2.append(Vector2(i, -i * 0.5))
		lv3.append(Vector3(i, i * 0.125, -i))
		lc.append(Color(i / 1000.0, 0.5, 1.0 - i / 2000.0, 1))
		if lv4 != null:
			lv4.append(Vector4(i, -i, i * 0.5, 0.25))
	add("packed_byte_array_large", lb)
	add("packed_int32_array_large", l32)
	add("packed_int64_array_large", l64)
	add("packed_float32_array_large", lf32)
	add("packed_float64_array_large", lf64)
	add("packed_string_array_large", ls)
	add("packed_vector2_array_large", lv2)
	add("packed_vector3_array_large", lv3)
	add("packed_color_array_large", lc)
	if lv4 != null:
		add("packed_vector4_array_large", lv4)
	var lbig = PackedByteArray()
	lbig.resize(4099)
	for i in lbig.size():
		lbig[i] = (i * 7) % 251
	add("packed_byte_array_4099", lbig)


func write_values():
	for e in values:
		var name = e[0]
		var bytes = e[1]
		var full = e[2]
		var r = common.decode_routes(bytes, full)
		var decoded = r.value
		var text = var_to_str(decoded)
		var json = common.json_from_native(decoded, full)
		if typeof(decoded) == TYPE_OBJECT and decoded != null and decoded.get_class() != "EncodedObjectAsID":
			if var_to_bytes_with_objects(decoded) != bytes:
				fail(name + ": decoded full object does not re-encode identically")
		var line = {
			"name": name,
			"hex": bytes.hex_encode(),
			"full_objects": full,
			"mark": r.mark,
			"desc": r.desc,
			"text": text,
			"json": json,
		}
		print("GDWIRE-ROW:values:" + J(line))


# ---------------------------------------------------------------------------
# malformed.jsonl (every input decoded twice: objects disallowed, then allowed)

var cases = []
var case_names = {}


func bad(name, h):
	if case_names.has(name):
		fail("duplicate malformed name " + name)
	case_names[name] = true
	cases.append([name, h.replace(" ", "")])


func truncations(prefix, full_hex):
	full_hex = full_hex.replace(" ", "")
	var n = full_hex.length() / 2
	for i in n:
		bad("%s_trunc%d" % [prefix, i], full_hex.substr(0, i * 2))
	bad("%s_full%d" % [prefix, n], full_hex)


func f32hex(x):
	var b = PackedByteArray()
	b.resize(4)
	b.encode_float(0, x)
	return b.hex_encode()


func f64hex(x):
	var b = PackedByteArray()
	b.resize(8)
	b.encode_double(0, x)
	return b.hex_encode()


# n consecutive float32 (or float64) values 1, 2, 3, ...
func reals(n, wide = false):
	var h = ""
	for i in n:
		h += f64hex(i + 1) if wide else f32hex(i + 1)
	return h


func build_malformed():
	var INT = "02000000"
	var STR = "04000000"
	var SN = "15000000"
	var NP = "16000000"
	var OBJ = "18000000"
	var DICT = "1b000000"
	var ARR = "1c000000"
	var REFC = ascii_hex("RefCounted")

	# header
	bad("empty", "")
	bad("header_1_byte", "00")
	bad("header_2_bytes", "0000")
	bad("header_3_bytes", "000000")
	bad("type_39_variant_max", "27000000")
	bad("type_39_with_payload", "27000000 01000000")
	bad("type_40", "28000000")
	bad("type_255", "ff000000")
	bad("type_255_byte1_set", "ff010000")
	for t in 39:
		bad("header_only_type%d" % t, u32(t))

	# unused header bits
	bad("nil_garbage_byte1", "00ff0000")
	bad("nil_garbage_bits16_31", "0000ffff")
	bad("bool_garbage_bits16_31", "0100ffff 01000000")
	bad("int_garbage_byte1", "02ff0000 2a000000")
	bad("int_garbage_bits17_31", "0200feff 2a000000")
	bad("int64_garbage_bits17_31", "0200ffff 0000000001000000")
	bad("float_garbage_bits17_31", "0300feff 0000003f")
	bad("string_garbage_header", "04ffffff " + sblock("616263"))
	bad("vector2_garbage_bits17_31", "0500feff 0000803f 00000040")
	bad("vector2i_bit16_ignored", "06000100 01000000 02000000")
	bad("color_bit16_ignored", "14000100 0000803f 00000000 00000000 0000803f")
	bad("rid_garbage_header", "17ffffff 0d00000000000000")
	bad("callable_garbage_header", "19ffffff")
	bad("packed_byte_array_bit16_ignored", "1d000100 02000000 01020000")
	bad("packed_float32_array_bit16_ignored", "20000100 01000000 0000803f")
	bad("packed_int64_array_bit16_ignored", "1f000100 01000000 0100000000000000")

	# bool / int / float payloads and widths
	bad("bool_value_2", "01000000 02000000")
	bad("bool_value_0x100", "01000000 00010000")
	bad("int32_minus1_sign_extended", INT + "ffffffff")
	bad("int64_flag_small_value", "02000100 0100000000000000")
	bad("int64_flag_only_4_bytes", "02000100 01000000")
	bad("float64_flag_only_4_bytes", "03000100 0000803f")
	bad("float64_flag_exact_value", "03000100 000000000000f03f")
	bad("float32_signaling_nan", "03000000 0100807f")
	bad("float64_signaling_nan", "03000100 010000000000f07f")
	# math types with 64-bit components (what double-precision builds send)
	bad("vector2_f64", "05000100 " + reals(2, true))
	bad("rect2_f64", "07000100 " + reals(4, true))
	bad("vector3_f64", "09000100 " + reals(3, true))
	bad("transform2d_f64", "0b000100 " + reals(6, true))
	bad("vector4_f64", "0c000100 " + reals(4, true))
	bad("plane_f64", "0e000100 " + reals(4, true))
	bad("quaternion_f64", "0f000100 " + reals(4, true))
	bad("aabb_f64", "10000100 " + reals(6, true))
	bad("basis_f64", "11000100 " + reals(9, true))
	bad("transform3d_f64", "12000100 " + reals(12, true))
	bad("projection_f64", "13000100 " + reals(16, true))
	bad("vector2_f64_short1", "05000100 " + reals(2, true).substr(0, 30))
	bad("projection_f64_short1", "13000100 " + reals(16, true).substr(0, 254))
	bad("packed_vector2_array_f64", "23000100 02000000 " + reals(4, true))
	bad("packed_vector3_array_f64", "24000100 01000000 " + reals(3, true))
	bad("packed_vector4_array_f64", "26000100 01000000 " + reals(4, true))
	bad("packed_vector3_array_f64_short", "24000100 01000000 " + reals(3, false))

	# strings
	for e in [["", STR], ["string_name_", SN]]:
		var p = e[0] if e[0] != "" else "string_"
		var H = e[1]
		bad(p + "negative_length", H + "ffffffff")
		bad(p + "length_0x80000000", H + "00000080 61626364")
		bad(p + "length_beyond_data", H + "64000000 61626364")
		bad(p + "missing_padding", H + "05000000 6162636465")
		bad(p + "garbage_padding", H + "05000000 6162636465 ffeedd")
		bad(p + "nul_in_middle", H + sblock("610062"))
		bad(p + "nul_first", H + sblock("006162"))
		bad(p + "leading_bom", H + sblock("efbbbf616263"))
	bad("string_length_0x7fffffff", STR + "ffffff7f 61626364")
	bad("string_partial_padding", STR + "05000000 616263646500")
	bad("string_only_bom", STR + sblock("efbbbf"))
	bad("string_double_bom", STR + sblock("efbbbfefbbbf61"))
	var utf8_cases = [
		["valid_2byte", "c3a9"], ["valid_3byte", "e4b8ad"], ["valid_4byte", "f09f8eae"],
		["max_codepoint_10ffff", "f48fbfbf"], ["bad_continuation", "c328"],
		["bad_continuation_3byte", "e4b828"], ["truncated_3byte_at_end", "61e4b8"],
		["truncated_4byte_at_end", "f09f8e"], ["overlong_2byte_c0af", "c0af"],
		["overlong_2byte_c180", "c180"], ["overlong_3byte_e080af", "e080af"],
		["overlong_3byte_e08080", "e08080"], ["overlong_4byte_f08282ac", "f08282ac"],
		["lone_e9", "e9"], ["lone_e9_in_text", "61e962"], ["lone_continuation_80", "80"],
		["byte_ff", "ff"], ["byte_fe", "fe"], ["surrogate_d800", "eda080"],
		["surrogate_dfff", "edbfbf"], ["surrogate_pair_cesu", "eda0bdedb8ae"],
		["codepoint_0x110000", "f4908080"], ["5byte_sequence", "f888808080"],
		["6byte_sequence", "fc8480808080"], ["encoded_nul_c080", "c080"], ["f5_lead", "f5808080"],
	]
	for c in utf8_cases:
		bad("string_utf8_" + c[0], STR + sblock(c[1]))
	bad("string_name_utf8_surrogate", SN + sblock("eda080"))
	bad("nodepath_name_invalid_utf8", NP + "01000080 00000000 00000000 " + sblock("c328"))
	bad("dictionary_key_invalid_utf8", DICT + "01000000 " + STR + sblock("ff") + INT + "01000000")
	bad("packed_string_array_invalid_utf8", "22000000 01000000 " + sblock("ff00"))
	bad("signal_name_invalid_utf8", "1a000000 " + sblock("c328") + "0100000000000000")

	# truncations of every type (a typical value of each)
	truncations("bool", "01000000 01000000")
	truncations("int32", INT + "2a000000")
	truncations("int64", "02000100 efcdab8967452301")
	truncations("float32", "03000000 0000c03f")
	truncations("float64", "03000100 9a9999999999b93f")
	truncations("string_abcde", STR + sblock("6162636465"))
	truncations("vector2", "05000000 " + reals(2))
	truncations("vector2i", "06000000 01000000 feffffff")
	truncations("rect2", "07000000 " + reals(4))
	truncations("rect2i", "08000000 01000000 02000000 03000000 04000000")
	truncations("vector3", "09000000 " + reals(3))
	truncations("vector3i", "0a000000 01000000 02000000 03000000")
	truncations("transform2d", "0b000000 " + reals(6))
	truncations("vector4", "0c000000 " + reals(4))
	truncations("vector4i", "0d000000 01000000 02000000 03000000 04000000")
	truncations("plane", "0e000000 " + reals(4))
	truncations("quaternion", "0f000000 " + reals(4))
	truncations("aabb", "10000000 " + reals(6))
	truncations("basis", "11000000 " + reals(9))
	truncations("transform3d", "12000000 " + reals(12))
	truncations("projection", "13000000 " + reals(16))
	truncations("color", "14000000 " + reals(4))
	truncations("string_name_ab", SN + sblock("6162"))
	truncations("nodepath_root_a_b", NP + "02000080 01000000 01000000 " + sblock("726f6f74") + sblock("61") + sblock("62"))
	truncations("rid", "17000000 0d00000000000000")
	truncations("object_id", "18000100 0100000000000000")
	truncations("object_full_refcounted", OBJ + sblock(REFC) + "00000000")
	truncations("signal", "1a000000 " + sblock("6162") + "0100000000000000")
	truncations("dictionary_a_1", DICT + "01000000 " + STR + sblock("61") + INT + "01000000")
	truncations("typed_dictionary_string_int", "1b000500 04000000 02000000 01000000 " + STR + sblock("61") + INT + "01000000")
	truncations("array_1_a", ARR + "02000000 " + INT + "01000000 " + STR + sblock("61"))
	truncations("typed_array_int", "1c000100 02000000 01000000 " + INT + "07000000")
	truncations("typed_array_class", "1c000200 " + sblock(ascii_hex("Node")) + "00000000")
	truncations("packed_byte_array", "1d000000 03000000 010203 00")
	truncations("packed_int32_array", "1e000000 02000000 01000000 feffffff")
	truncations("packed_int64_array", "1f000000 01000000 0100000000000080")
	truncations("packed_float32_array", "20000000 02000000 0000003f 0000803f")
	truncations("packed_float64_array", "21000000 01000000 9a9999999999b93f")
	truncations("packed_string_array", "22000000 02000000 " + sblock("616200") + sblock("6300"))
	truncations("packed_vector2_array", "23000000 01000000 " + reals(2))
	truncations("packed_vector3_array", "24000000 01000000 " + reals(3))
	truncations("packed_color_array", "25000000 01000000 " + reals(4))
	truncations("packed_vector4_array", "26000000 01000000 " + reals(4))

	# NodePath
	bad("nodepath_old_format", NP + "03000000 61626300")
	bad("nodepath_only_first_word", NP + "01000080")
	bad("nodepath_8_bytes", NP + "01000080 00000000")
	bad("nodepath_no_components", NP + "00000080 00000000 00000000")
	bad("nodepath_absolute_no_components", NP + "00000080 00000000 01000000")
	bad("nodepath_property_flag", NP + "01000080 00000000 02000000 " + sblock("61") + sblock("70726f70"))
	bad("nodepath_property_flag_missing_string", NP + "01000080 00000000 02000000 " + sblock("61"))
	bad("nodepath_garbage_flags", NP + "01000080 00000000 fcffffff " + sblock("61"))
	bad("nodepath_garbage_pad", NP + "01000080 00000000 00000000 01000000 61ffeedd")
	bad("nodepath_count_too_large", NP + "05000080 00000000 00000000 " + sblock("61"))
	bad("nodepath_empty_name", NP + "01000080 00000000 00000000 00000000")
	bad("nodepath_parent_names", NP + "02000080 00000000 00000000 " + sblock("2e2e") + sblock("2e"))

	# RID, Callable, Signal
	bad("rid_trailing_bytes", "17000000 0d00000000000000 ffffffff")
	bad("rid_zero", "17000000 0000000000000000")
	bad("callable_trailing_bytes", "19000000 01000000")
	bad("signal_empty_name_id_0", "1a000000 00000000 0000000000000000")
	bad("signal_name_only", "1a000000 " + sblock("6162"))
	bad("signal_negative_name_length", "1a000000 ffffffff 0100000000000000")

	# objects
	bad("object_id_0", "18000100 0000000000000000")
	bad("object_id_1", "18000100 0100000000000000")
	bad("object_id_u64_max", "18000100 ffffffffffffffff")
	bad("object_id_only_4_bytes", "18000100 01000000")
	bad("object_id_garbage_bits17_31", "1800ffff 0100000000000000")
	var full_ref = OBJ + sblock(REFC) + "00000000"
	bad("object_full_refcounted", full_ref)
	bad("object_full_header_only", OBJ)
	bad("object_full_empty_class", OBJ + "00000000")
	bad("object_full_empty_class_then_garbage", OBJ + "00000000 ffffffff")
	bad("object_full_unknown_class", OBJ + sblock(ascii_hex("NoSuchClassXyz")) + "00000000")
	bad("object_full_abstract_class", OBJ + sblock(ascii_hex("CanvasItem")) + "00000000")
	bad("object_full_singleton_class", OBJ + sblock(ascii_hex("Engine")) + "00000000")
	bad("object_full_missing_prop_count", OBJ + sblock(REFC))
	bad("object_full_negative_prop_count", OBJ + sblock(REFC) + "ffffffff")
	bad("object_full_prop_count_too_large", OBJ + sblock(REFC) + "02000000 " + sblock(ascii_hex("script")) + "00000000")
	bad("object_full_unknown_property", OBJ + sblock(REFC) + "01000000 " + sblock(ascii_hex("no_such_prop")) + INT + "05000000")
	bad("object_full_node_meta", OBJ + sblock(ascii_hex("Node")) + "01000000 " + sblock(ascii_hex("metadata/k")) + INT + "07000000")
	bad("object_full_script_path", OBJ + sblock(REFC) + "01000000 " + sblock(ascii_hex("script")) + STR + sblock(ascii_hex("res://typed_item.gd")))
	bad("object_full_script_missing", OBJ + sblock(REFC) + "01000000 " + sblock(ascii_hex("script")) + STR + sblock(ascii_hex("res://missing.gd")))
	bad("object_full_script_not_res", OBJ + sblock(REFC) + "01000000 " + sblock(ascii_hex("script")) + STR + sblock(ascii_hex("user://x.gd")))
	bad("object_full_script_not_a_script", OBJ + sblock(REFC) + "01000000 " + sblock(ascii_hex("script")) + STR + sblock(ascii_hex("res://project.godot")))
	bad("object_full_script_int", OBJ + sblock(REFC) + "01000000 " + sblock(ascii_hex("script")) + INT + "05000000")
	bad("object_full_script_nil", OBJ + sblock(REFC) + "01000000 " + sblock(ascii_hex("script")) + "00000000")
	bad("object_full_inside_array", ARR + "01000000 " + full_ref)
	bad("object_full_class_name_truncated", OBJ + "0a000000 52656643")
	bad("object_full_prop_value_truncated", OBJ + sblock(REFC) + "01000000 " + sblock(ascii_hex("x")) + INT)

	# dictionaries / arrays
	bad("array_count_bit31", ARR + "01000080 " + INT + "07000000")
	bad("array_count_0x80000000", ARR + "00000080")
	bad("array_count_0xffffffff", ARR + "ffffffff " + INT + "07000000")
	bad("array_count_too_large", ARR + "03000000 " + INT + "01000000 " + INT + "02000000")
	bad("array_element_unknown_type", ARR + "01000000 ff000000")
	bad("array_element_invalid_utf8", ARR + "01000000 " + STR + sblock("c0af"))
	bad("array_second_element_truncated_string", ARR + "02000000 " + INT + "01000000 " + STR + "05000000 616263")
	bad("dictionary_count_bit31", DICT + "01000080 " + STR + sblock("61") + INT + "01000000")
	bad("dictionary_count_0x80000000", DICT + "00000080")
	bad("dictionary_duplicate_keys", DICT + "02000000 " + STR + sblock("61") + INT + "01000000 " + STR + sblock("61") + INT + "02000000")
	bad("dictionary_string_and_string_name_keys", DICT + "02000000 " + STR + sblock("61") + INT + "01000000 " + SN + sblock("61") + INT + "02000000")
	bad("dictionary_missing_value", DICT + "01000000 " + STR + sblock("61"))
	bad("dictionary_count_too_large", DICT + "02000000 " + STR + sblock("61") + INT + "01000000")
	bad("dictionary_bad_key_type", DICT + "01000000 27000000 " + INT + "01000000")

	# container-type blocks (arrays: header bits 16-17; dictionaries: 16-17 keys, 18-19 values)
	bad("typed_array_builtin_int", "1c000100 02000000 01000000 " + INT + "07000000")
	bad("typed_array_builtin_nil", "1c000100 00000000 01000000 " + INT + "07000000")
	bad("typed_array_builtin_38", "1c000100 26000000 00000000")
	bad("typed_array_builtin_39", "1c000100 27000000 00000000")
	bad("typed_array_builtin_negative", "1c000100 ffffffff 00000000")
	bad("typed_array_builtin_missing", "1c000100")
	bad("typed_array_builtin_object", "1c000100 18000000 01000000 18000100 0100000000000000")
	bad("typed_array_builtin_object_null", "1c000100 18000000 01000000 00000000")
	bad("typed_array_int_with_string", "1c000100 02000000 02000000 " + INT + "07000000 " + STR + sblock("61"))
	bad("typed_array_float_with_int", "1c000100 03000000 02000000 " + INT + "07000000 03000000 0000c03f")
	bad("typed_array_float_with_big_int", "1c000100 03000000 01000000 02000100 0100000001000000")
	bad("typed_array_string_with_string_name", "1c000100 04000000 01000000 " + SN + sblock("61"))
	bad("typed_array_string_name_with_string", "1c000100 15000000 01000000 " + STR + sblock("61"))
	bad("typed_array_int_with_nil", "1c000100 02000000 01000000 00000000")
	bad("typed_array_class_node_ids", "1c000200 " + sblock(ascii_hex("Node")) + "01000000 18000100 0100000000000000")
	bad("typed_array_class_encoded_object_as_id", "1c000200 " + sblock(ascii_hex("EncodedObjectAsID")) + "01000000 18000100 0100000000000000")
	bad("typed_array_class_empty_name", "1c000200 00000000 00000000")
	bad("typed_array_class_unknown", "1c000200 " + sblock(ascii_hex("NoSuchClassXyz")) + "00000000")
	bad("typed_array_class_name_truncated", "1c000200 08000000 4e6f6465")
	bad("typed_array_class_invalid_utf8", "1c000200 " + sblock("c328") + "00000000")
	bad("typed_array_class_refcounted_full_element", "1c000200 " + sblock(REFC) + "01000000 " + full_ref)
	bad("typed_array_class_node_with_refcounted", "1c000200 " + sblock(ascii_hex("Node")) + "01000000 " + full_ref)
	bad("typed_array_class_with_int", "1c000200 " + sblock(ascii_hex("Node")) + "01000000 " + INT + "01000000")
	bad("typed_array_script", "1c000300 " + sblock(ascii_hex("res://typed_item.gd")) + "00000000")
	bad("typed_array_script_missing", "1c000300 " + sblock(ascii_hex("res://missing.gd")) + "00000000")
	bad("typed_array_script_not_res", "1c000300 " + sblock(ascii_hex("user://x.gd")) + "00000000")
	bad("typed_array_script_empty_path", "1c000300 00000000 00000000")
	bad("typed_array_script_not_a_script", "1c000300 " + sblock(ascii_hex("res://project.godot")) + "00000000")
	bad("typed_array_script_with_plain_refcounted", "1c000300 " + sblock(ascii_hex("res://typed_item.gd")) + "01000000 " + full_ref)
	bad("typed_array_kind_bits_18_19_ignored", "1c000d00 02000000 01000000 " + INT + "07000000")
	bad("typed_array_garbage_high_bits", "1c00f1ff 02000000 00000000")
	bad("typed_dictionary_string_int", "1b000500 04000000 02000000 01000000 " + STR + sblock("61") + INT + "01000000")
	bad("typed_dictionary_key_only", "1b000100 02000000 01000000 " + INT + "01000000 " + STR + sblock("61"))
	bad("typed_dictionary_value_only", "1b000400 02000000 01000000 " + STR + sblock("61") + INT + "01000000")
	bad("typed_dictionary_bad_key_dropped", "1b000500 04000000 02000000 02000000 " + INT + "01000000 " + INT + "02000000 " + STR + sblock("61") + INT + "03000000")
	bad("typed_dictionary_bad_value_kept", "1b000500 04000000 02000000 01000000 " + STR + sblock("61") + STR + sblock("62"))
	bad("typed_dictionary_key_builtin_39", "1b000100 27000000 00000000")
	bad("typed_dictionary_value_builtin_39", "1b000400 27000000 00000000")
	bad("typed_dictionary_value_builtin_missing", "1b000500 04000000")
	bad("typed_dictionary_class_value", "1b000900 04000000 " + sblock(ascii_hex("Node")) + "00000000")
	bad("typed_dictionary_script_key", "1b000300 " + sblock(ascii_hex("res://typed_item.gd")) + "00000000")
	bad("typed_dictionary_script_value_missing", "1b000c00 " + sblock(ascii_hex("res://missing.gd")) + "00000000")
	bad("typed_dictionary_garbage_high_bits", "1b00f0ff 00000000")

	# PackedByteArray padding
	bad("packed_byte_array_no_pad_top_level", "1d000000 03000000 010203")
	bad("packed_byte_array_no_pad_last_in_array", ARR + "01000000 1d000000 03000000 010203")
	bad("packed_byte_array_no_pad_not_last_in_array", ARR + "02000000 1d000000 03000000 010203 " + INT + "05000000")
	bad("packed_byte_array_garbage_pad", "1d000000 01000000 01ffffff")
	bad("packed_byte_array_count_too_large", "1d000000 05000000 01020304")
	bad("packed_byte_array_negative_count", "1d000000 ffffffff 01020304")

	# PackedStringArray
	bad("packed_string_array_negative_count", "22000000 ffffffff")
	bad("packed_string_array_with_nul_terminator", "22000000 01000000 " + sblock("616200"))
	bad("packed_string_array_without_nul_terminator", "22000000 01000000 " + sblock("6162"))
	bad("packed_string_array_empty_entry_no_nul", "22000000 01000000 00000000")
	bad("packed_string_array_nul_in_middle", "22000000 01000000 " + sblock("61006200"))
	bad("packed_string_array_count_too_large", "22000000 03000000 " + sblock("616200"))

	# packed arrays: negative count, count*size overflow, count too large, partial element
	var packed = [["packed_int32_array", "1e000000", 4], ["packed_int64_array", "1f000000", 8],
			["packed_float32_array", "20000000", 4], ["packed_float64_array", "21000000", 8],
			["packed_vector2_array", "23000000", 8], ["packed_vector3_array", "24000000", 12],
			["packed_color_array", "25000000", 16], ["packed_vector4_array", "26000000", 16]]
	for p in packed:
		var pre = p[0]
		var hdr = p[1]
		var size = p[2]
		var data16 = reals(4)
		bad(pre + "_negative_count", hdr + "ffffffff " + data16)
		bad(pre + "_count_0x80000000", hdr + "00000080 " + data16)
		bad(pre + "_count_mul_overflow", hdr + u32((0x7FFFFFFF / size) + 1) + data16)
		bad(pre + "_count_max_no_overflow", hdr + u32(0x7FFFFFFF / size) + data16)
		bad(pre + "_count_one_too_many", hdr + u32(16 / size + 1) + data16)
		bad(pre + "_trailing_partial_element", hdr + u32(16 / size) + data16 + "000000")

	# trailing bytes
	bad("trailing_after_int", INT + "07000000 deadbeef")
	bad("trailing_after_nil", "00000000 00000000")
	bad("trailing_after_string", STR + sblock("6162") + "ffffffffffff")
	bad("trailing_after_array", ARR + "00000000 " + INT + "01000000")
	bad("trailing_partial_header", INT + "07000000 0000")

	# nesting depth: the top-level value is depth 0; depth 1025 is refused
	for depth in [1023, 1024, 1025, 1026]:
		bad("array_nesting_%d" % depth, (ARR + "01000000").repeat(depth - 1) + ARR + "00000000")
	bad("array_nesting_1024_int_leaf", (ARR + "01000000").repeat(1024) + INT + "2a000000")
	bad("array_nesting_1025_int_leaf", (ARR + "01000000").repeat(1025) + INT + "2a000000")
	bad("dictionary_nesting_1024", (DICT + "01000000" + INT + "00000000").repeat(1024) + "00000000")
	bad("dictionary_nesting_1025", (DICT + "01000000" + INT + "00000000").repeat(1025) + "00000000")
	bad("typed_array_nesting_1025", ("1c000100 1c000000 01000000").repeat(1025).replace(" ", "") + ARR + "00000000")
	bad("object_property_nesting_1025", (OBJ + sblock(REFC) + "01000000" + sblock(ascii_hex("x"))).repeat(1025) + "00000000")


func write_malformed():
	for c in cases:
		var name = c[0]
		var h = c[1]
		var bytes = hex2bytes(h)
		for allow in [false, true]:
			var r = common.decode_routes(bytes, allow)
			var line = {
				"name": name,
				"hex": h,
				"allow_objects": allow,
				"mark": r.mark,
				"desc": r.desc,
				"text": var_to_str(r.value) if r.desc != null else null,
			}
			print("GDWIRE-ROW:malformed:" + J(line))


# ---------------------------------------------------------------------------
# self-test of the decode routes: rows whose verdict and code assemble.py checks
# against the values the 4.x source gives (README.md)

func self_test():
	var expect = [
		["00000000", false, "ok"],
		["0200000007000000", false, "ok"],
		["0200000007000000ffff", false, "ok"],
		["", false, "ERR_INVALID_DATA"],
		["02000000", false, "ERR_INVALID_DATA"],
		["27000000", false, "ERR_INVALID_DATA"],
		["0400000005000000616263", false, "ERR_FILE_EOF"],
		["18000000" + sblock(ascii_hex("RefCounted")) + "00000000", false, "ERR_UNAUTHORIZED"],
		["1c00000001000000" + "0400000005000000616263", false, "ERR_FILE_EOF"],
	]
	for e in expect:
		var r = common.decode_routes(hex2bytes(e[0]), e[1])
		print("GDWIRE-ROW:self_test:" + J({"hex": e[0], "mark": r.mark, "expect": e[2], "desc": r.desc}))
