# Engine truth for gdwire::text::parse in Godot 4 (str_to_var) and for gdwire::text in Godot 4
# (var_to_str), from the real Godot 4.6 engine. Run by tests/godot4/regenerate_str_to_var.sh.
#
# Prints one line per row: "ROW " + a JSON object
#   {"name": "...", "text": "...", "read": true|false, "hex": "<var_to_bytes(str_to_var(text))>",
#    "value_hex": "<var_to_bytes(value)>"}            (value rows only)
# Value rows: values built here, "text" = var_to_str(value). Probe rows: hand-written texts.
# "read": ConfigFile.parse("[s]\nk=" + text) == OK, the same parse_value with an error code
# (str_to_var itself returns null on a parse error).
extends SceneTree

var rows = 0
# Older Godot 4 engines run this script too (tests/godot4/older/): values of types they lack
# are left out, and typed dictionaries (4.4+) are read from their text, since older GDScript
# refuses to compile the seven-argument Dictionary constructor (and an Expression, an object,
# would change the object ids the engine hands out later).
var version = Engine.get_version_info().hex


func since(hex, text):
	return str_to_var(text) if version >= hex else null


func row(name, text, value_hex):
	var cf = ConfigFile.new()
	var read = cf.parse("[s]\nk=" + text + "\n") == OK
	var back = str_to_var(text)
	var back_bytes = var_to_bytes(back)
	if typeof(back) == TYPE_NODE_PATH:
		zero_nodepath_pads(back_bytes)
	var r = {"name": name, "text": text, "read": read, "hex": back_bytes.hex_encode()}
	if value_hex != null:
		r["value_hex"] = value_hex
	print("ROW ", JSON.stringify(r, "", false))
	rows += 1


func value(name, v):
	var bytes = var_to_bytes(v)
	if typeof(v) == TYPE_NODE_PATH:
		zero_nodepath_pads(bytes)
	row(name, var_to_str(v), bytes.hex_encode())


# The pad bytes of a NodePath's string blocks are not written by engines before 4.6.3
# (uninitialised memory): zeroed here, as generate.gd does, so that the rows do not depend on
# what the engine allocated before.
func zero_nodepath_pads(bytes: PackedByteArray):
	var total = (bytes.decode_u32(4) & 0x7FFFFFFF) + bytes.decode_u32(8)
	var p = 16
	for _i in total:
		var n = bytes.decode_u32(p)
		p += 4 + n
		while n % 4 != 0:
			bytes[p] = 0
			p += 1
			n += 1


func _initialize():
	var f32 = PackedFloat32Array([0.1, -2.5, 1e-40, 3.4028235e38, INF, -INF, NAN, -0.0])
	var values = {
		"nil": null, "true": true, "false": false, "int_0": 0, "int_neg": -17,
		"int_2p31": 2147483648, "int_min": -9223372036854775807 - 1, "int_max": 9223372036854775807,
		"float_half": 0.5, "float_tenth": 0.1, "float_neg_zero": -0.0, "float_third": 1.0 / 3.0,
		"float_1e300": 1e300, "float_1e-300": 1e-300, "float_big": 123456789.125,
		"float_1e15": 1e15, "float_1e16": 1e16, "float_1e-5": 0.00001, "float_f32_tenth": f32[0],
		"float_inf": INF, "float_neg_inf": -INF, "float_nan": NAN, "float_dbl_max": 1.7976931348623157e308,
		"float_min_normal": 2.2250738585072014e-308, "float_denormal": 5e-324,
		"string_empty": "", "string_escapes": "a\"b\\c\nd\te\r", "string_unicode": "é中😀",
		"string_control": "\u0001\u001f", "string_name": &"jump", "string_name_empty": &"",
		"node_path": NodePath("/root/a:b:c"), "node_path_empty": NodePath(""),
		"vector2": Vector2(1.5, -2), "vector2_tenth": Vector2(0.1, 1e-3), "vector2i": Vector2i(3, -4),
		"rect2": Rect2(1, 2, 3, 4), "rect2i": Rect2i(1, -2, 3, 4), "vector3": Vector3(1, 2, 3.25),
		"vector3i": Vector3i(-1, 0, 2147483647), "transform2d": Transform2D(0.5, Vector2(2, 3)),
		"vector4": Vector4(1, 2, 3, 4), "vector4i": Vector4i(1, 2, 3, -4),
		"plane": Plane(Vector3(0, 1, 0), 2.5), "quaternion": Quaternion(0.1, 0.2, 0.3, 0.9),
		"aabb": AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), "basis": Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
		"transform3d": Transform3D(Basis(Vector3(1, 0, 0), 0.5), Vector3(7, 8, 9)),
		"projection": Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)),
		"color": Color(1, 0.5, 0.25, 0.1), "rid_empty": RID(), "callable_empty": Callable(), "signal_empty": Signal(),
		"dict_empty": {}, "dict": {1: 2, "a": [1, "b"], Vector2(1, 2): null, &"n": {}},
		"dict_nested": {"a": {"b": {"c": [1, [2, [3]]]}}},
		"array_empty": [], "array": [1, "a", [2, [3, {}]], null, 2.5],
		"array_typed_int": Array([1, 2, 3], TYPE_INT, &"", null),
		"array_typed_string": Array(["a", "b"], TYPE_STRING, &"", null),
		"array_typed_node": Array([], TYPE_OBJECT, &"Node", null),
		"dict_typed": since(0x040400, "Dictionary[String, int]({\"a\": 1, \"b\": 2})"),
		"dict_typed_key": since(0x040400, "Dictionary[Vector2i, Variant]({Vector2i(1, 2): \"x\"})"),
		"packed_bytes": PackedByteArray([0, 1, 255]), "packed_bytes_empty": PackedByteArray(),
		"packed_int32": PackedInt32Array([1, -2, 2147483647]), "packed_int64": PackedInt64Array([1, -9223372036854775807 - 1]),
		"packed_float32": f32, "packed_float64": PackedFloat64Array([0.1, 1e300, -INF, NAN, 1.0 / 3.0]),
		"packed_strings": PackedStringArray(["a", "", "b\"c\\\n"]),
		"packed_vector2": PackedVector2Array([Vector2(1, 2), Vector2(0.1, -INF)]),
		"packed_vector3": PackedVector3Array([Vector3(1, 2, 3)]),
		"packed_vector4": since(0x040300, "PackedVector4Array(1, 2, 3, 4)"),
		"packed_color": PackedColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)]),
	}
	for k in values:
		if values[k] == null and k in ["dict_typed", "dict_typed_key", "packed_vector4"]:
			continue  # an older engine without the type (tests/godot4/older/)
		value(k, values[k])
	var probes = [
		"null", "nil", "true", "0", "-0", "-12", "007", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "-9223372036854775809", "99999999999999999999", "-99999999999999999999",
		"1.5", "1.", "1e5", "1E5", "1e+5", "1e-5", "1e", "2.5E-3", "0.1", "0.30000000000000004",
		"3.4028235e38", "1e-45", "1e300", "123456789012345678", "1234567890123456789012",
		"1.7976931348623157e308", "1.00001521611732e308", "1.0000152161173201e+308", "4.9e-324", "2.2250738585072014e-308", "0.333333333333333333333333",
		"-0.0", "inf", "-inf", "inf_neg", "nan", "-nan", "-inf.0", "-.5", ".5", "-", "-x", "0x10", "12abc",
		"\"\"", "\"a\\nb\\tc\\rd\\be\\ff\"", "\"\\u00e9\\u4e2d\"", "\"\\\"\\\\\\/\\q\\a\"", "\"\\U01F600\"",
		"\"\\uD83D\\uDE00\"", "\"\\uD800\"", "\"\\uDC00\"", "\"\\uD800x\"", "\"\\U110000\"", "\"\\u12\"",
		"\"multi\nline\"", "&\"a\"", "@\"a\"", "&a", "[]", "[1, 2, ]", "[,]", "[1 2]", "{}", "{1: 2, }", "{,}",
		"{\"a\": 1, \"a\": 2}", "{\"a\": 1, &\"a\": 2}", "{&\"a\": 1, \"a\": 2}", "{1: 1, 1.0: 2}",
		"{0.0: 1, -0.0: 2}", "{nan: 1, nan: 2}", "{[1]: 1, [1]: 2}", "{{}: 1, {}: 2}",
		"{Vector2(0, 0): 1, Vector2(-0.0, 0): 2}", "; c\n5", "[1 ; c\n, 2]",
		"Vector2(1, 2)", "Vector2( 1, 2 )", "Vector2(inf, -inf)", "Vector2(nan, inf_neg)", "Vector2(1)",
		"Vector2(1, 2,)", "Vector2()", "Vector2i(1.9, -1.9)", "Vector2i(2147483648, 1e20)",
		"Quat(1, 2, 3, 4)", "Quaternion(1, 2, 3, 4)", "Transform(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)",
		"Matrix32(1, 2, 3, 4, 5, 6)", "Rect3(1, 2, 3, 4, 5, 6)", "Matrix3(1, 2, 3, 4, 5, 6, 7, 8, 9)",
		"Color(1, 2, 3)", "Color(1, 2, 3, 4)", "#ff0000 ", "NodePath(\"a//b\")", "NodePath(\".:x\")",
		"RID()", "RID(5)", "RID(2.5)", "Callable()", "Signal()", "Signal(1)",
		"PackedByteArray()", "PackedByteArray(1, 2, 255, 256, -1, 2.7)", "PackedByteArray(\"AQID\")",
		"PackedByteArray(\"AQI=\")", "PackedByteArray(\"!!\")", "PackedByteArray(1,)",
		"PoolByteArray(1, 2)", "ByteArray(1)", "PackedInt32Array(1, 2147483648, 1.9)", "PoolIntArray(1)",
		"IntArray(1)", "PackedIntArray(1)", "PackedInt64Array(1, 9223372036854775807, 1e19)",
		"PackedFloat32Array(0.1, 1e39)", "PoolRealArray(1)", "PackedRealArray(1)", "FloatArray(1)",
		"PackedFloat64Array(0.1)", "PackedStringArray(\"a\", )", "PoolStringArray(\"a\")", "StringArray()",
		"PackedVector2Array(1, 2, 3)", "PoolVector2Array(1, 2)", "Vector2Array(1, 2)",
		"PackedVector3Array(1, 2, 3)", "PackedVector4Array(1, 2, 3, 4)", "PoolVector4Array(1, 2, 3, 4)",
		"PackedColorArray(1, 0, 0, 1)", "ColorArray(1, 0, 0, 1)",
		"Array[int]([1, 2])", "Array[int]([1.5])", "Array[String]([\"a\"])", "Array[Node]([])",
		"Array[Variant]([1])", "Array[Nope]([])", "Array[int]([1], )", "Array[int] ([1])",
		"Dictionary[String, int]({\"a\": 1})", "Dictionary[Variant, int]({1: 2})", "Dictionary[int, Variant]({})",
		"Dictionary[Variant, Variant]({})", "Dictionary[StringName, int]({\"a\": 1})",
		"Array", "Dictionary", "Object(RefCounted,\"script\":null)", "foo", "true false",
		"#ff000080 ", "#f00 ", "#f008 ", "#12345 ", "# ", "[#ff0000]", "#FF00007F ", "#abcdef ", "#ff0000",
		"PackedInt32Array(1e20, -1e20, nan)", "PackedByteArray(1e20, 300.5, -1.5)", "Vector2i(nan, -1e20)",
		"Array[float]([1, 2.5])", "Array[StringName]([\"a\", &\"b\"])", "Array[String]([&\"a\"])",
		"Dictionary[int, float]({1.5: 2, 2.7: 3.5})", "Dictionary[int, int]({1.2: 1, 1.7: 2})",
		"Array[int]([\"x\"])", "Array[Vector2]([1])",
		# Components a double-precision build keeps and a single one rounds (or overflows).
		"{Vector2(0.1, 0): 1, Vector2(0.1000000001, 0): 2}", "Vector3(0.1, 1e300, 1e-320)",
		"PackedVector2Array(0.1, 1e300)", "PackedFloat32Array(0.1, 1e300)", "Color(0.1, 1e300, 0)",
	]
	var i = 0
	for t in probes:
		row("probe_%03d" % i, t, null)
		i += 1
	print("GDWIRE-STR-TO-VAR-OK ", rows)


func _process(_delta):
	quit(0)
	return true
