# Engine truth for gdwire::text::parse (Godot 3 str2var).
#
# Run through tests/godot3/regenerate_str2var.sh, which sets GDWIRE_STR2VAR_OUT. For every
# `text` of tests/fixtures/godot3/values.jsonl and text.jsonl, and for the probe texts
# below, writes one JSON object per line:
#   {"source": "values|text|probe", "name": "...", "text": "...", "read": true|false,
#    "hex": "<var2bytes(str2var(text)), full objects as the row says>"}
# "read" is false when str2var failed (it then returns the text itself as a String).
# Texts holding "Object(" get "hex": null: the engine instantiates a new object whose id
# (and so whose bytes) depends on the run.
extends SceneTree

var common = preload("res://common.gd").new()
var rows = []

const PROBES = [
	"null", "nil", "true", "false", "0", "-0", "-12", "007",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808",
	"-9223372036854775809", "99999999999999999999", "-99999999999999999999",
	"1.5", "-1.5", "1.", "-.5", "1e5", "1e+5", "1e-5", "1.5e3", "1e", "2.5e-3",
	"0.1", "0.30000000000000004", "3.4028235e38", "3.5e38", "1e-45", "1e-46", "1e300",
	"123456789012345678", "1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308",
	"1.00000001", "1.00001521611732e308", "1.0000152161173201e+308", "16777217.0", "0.333333333333333333333333", "-0.0", "-0",
	"inf", "nan", "inf_neg", "-inf", "-inf.0", "inf.0",
	"\"\"", "\"a\\nb\\tc\\rd\\be\\ff\"", "\"\\u00e9\\u4e2d\"", "\"\\\"\\\\\\/\\q\"",
	"\"multi\nline\"", "\"é中😀\"", "\"\\a\\v\\'\\?\"",
	"[]", "[ ]", "[1, 2, ]", "[[], [[]], {}]", "{}", "{\n}", "{1: 2, }", "{\"a\": 1, \"a\": 2}",
	"{1: \"int\", 1.0: \"float\", \"1\": \"str\"}", "{0.0: 1, -0.0: 2}", "{[1]: 1, [1]: 2}",
	"{{}: 1, {}: 2}", "{Vector2(0, 0): 1, Vector2(-0.0, 0): 2}",
	"{nan: 1, nan: 2}", "{NodePath(\"a\"): 1, NodePath(\"a\"): 2}",
	"; comment\n5", "  \t\n 5 ; c", "[1 ; c\n, 2]",
	"Vector2(1, 2)", "Vector2( 1.5, -2.25 )", "Vector2(0.1, 0.2)", "Vector2(1e39, -1e39)",
	"Rect2(1, 2, 3, 4)", "Vector3(1, 2, 3)", "Transform2D(1, 2, 3, 4, 5, 6)",
	"Matrix32(1, 2, 3, 4, 5, 6)", "Plane(1, 2, 3, 4)", "Quat(1, 2, 3, 4)",
	"AABB(1, 2, 3, 4, 5, 6)", "Rect3(1, 2, 3, 4, 5, 6)", "Basis(1, 2, 3, 4, 5, 6, 7, 8, 9)",
	"Matrix3(1, 2, 3, 4, 5, 6, 7, 8, 9)", "Transform(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)",
	"Color(1, 0.5, 0, 1)", "Color(0.1, 0.2, 0.3, 0.4)", "Color(2, -1, 1e10, 0)",
	"NodePath(\"\")", "NodePath(\"/root/a:b:c\")", "NodePath(\"a//b\")", "NodePath(\".:x\")",
	"RID(5)", "RID(2.5)",
	"PoolByteArray()", "PoolByteArray(1, 2, 255, 256, -1, 2.7)", "PoolIntArray(1, -2, 2147483648, 1.9)",
	"PoolRealArray(0.1, 1, 1e39)", "PoolStringArray(\"a\", \"\", \"b\\nc\")", "PoolStringArray()",
	"PoolVector2Array(1, 2, 3, 4)", "PoolVector2Array(1, 2, 3)", "PoolVector3Array(1, 2, 3)",
	"PoolColorArray(1, 0, 0, 1, 0, 1, 0, 0.5)",
	"PackedByteArray(1, 2)", "PackedInt32Array(1, 2)", "PackedFloat32Array(1.5)",
	"PackedStringArray(\"x\")", "PackedVector2Array(1, 2)", "PackedColorArray(1, 1, 1, 1)",
	"IntArray(1)", "FloatArray(1)", "StringArray(\"a\")", "ByteArray(1)",
	"Vector2Array(1, 2)", "Vector3Array(1, 2, 3)", "ColorArray(1, 2, 3, 4)",
	"PackedInt64Array(1, 2)", "PackedFloat64Array(0.1)",
	"[Vector2(1, 2), {\"k\": [PoolIntArray(1), NodePath(\"n\")]}, null]",
	"{\"a\": {\"b\": {\"c\": [1, [2, [3]]]}}}",
	# refused or misread by the engine
	"", ".5", "-", "-x", "0x10", "1E5", "12abc", "true false", "[1 2]", "[,]", "{,}",
	"{1}", "{1:}", "[", "{", "\"unterminated", "Vector2(1)", "Vector2(1, 2, 3)",
	"Vector2()", "Vector2(1, 2,)", "Vector2(inf, nan)", "Color(1, 2, 3)", "#ff0000",
	"#ff0000 ", "Vector2i(1, 2)", "&\"a\"", "@\"a\"", "Quaternion(1, 2, 3, 4)",
	"Transform3D(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)", "Array[int]([1])",
	"Callable()", "Signal()", "foo", "\"\\u12\"", "\"\\uD83D\\uDE00\"", "\"\\uD800\"",
	"\"\\U01F600\"", "PoolStringArray(\"a\",)", "PoolStringArray(1)",
	"Object(Reference,\"script\":null)",
	"#ff000080 ", "#f00 ", "#f008 ", "#12345 ", "# ", "[#ff0000]", "#FF00007F ", "#abcdef ",
	"PoolIntArray(1e20, -1e20, nan)", "PoolByteArray(1e20, 300.5, -1.5)",
]


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1
	quit(code)


func add(source, name, text, full_objects):
	var v = str2var(text)
	var read = not (typeof(v) == TYPE_STRING and v == text)
	var hex = "null"
	if text.find("Object(") == -1:
		hex = common.jstr(var2bytes(v, full_objects).hex_encode())
	rows.append("{\"source\": " + common.jstr(source) + ", \"name\": " + common.jstr(name) \
		+ ", \"text\": " + common.jstr(text) + ", \"read\": " + ("true" if read else "false") \
		+ ", \"hex\": " + hex + "}")


func fixture(source, path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		printerr("GDWIRE-STR2VAR-FAILURE: cannot open " + path)
		return false
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var row = parse_json(line)
		if typeof(row) != TYPE_DICTIONARY or not row.has("text"):
			continue
		add(source, row["name"], row["text"], row.get("full_objects", false))
	return true


func run():
	if not fixture("values", "res://../fixtures/godot3/values.jsonl"):
		return 1
	if not fixture("text", "res://../fixtures/godot3/text.jsonl"):
		return 1
	var i = 0
	for t in PROBES:
		add("probe", "probe_%03d" % i, t, false)
		i += 1
	var out = File.new()
	var path = OS.get_environment("GDWIRE_STR2VAR_OUT")
	if out.open(path, File.WRITE) != OK:
		printerr("GDWIRE-STR2VAR-FAILURE: cannot write " + path)
		return 1
	for r in rows:
		out.store_string(r + "\n")
	out.close()
	print("GDWIRE-STR2VAR-OK ", rows.size())
	return 0
