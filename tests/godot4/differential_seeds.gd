# Seed values for the Godot 4.6 differential run (driven by differential.py): the engine builds
# values of every type, with edge values, and prints `var_to_bytes` (or
# `var_to_bytes_with_objects` for objects) of each as "SEED <name> <full 0|1> <hex>".
# Kept small (packed arrays of a few elements, short strings) so that mutants stay small.
extends SceneTree

const Item = preload("res://typed_item.gd")
var status = 0


func put_seed(name: String, v, full := false):
	var b = var_to_bytes_with_objects(v) if full else var_to_bytes(v)
	if b.is_empty():
		printerr("GDWIRE-DIFF-FAILURE: cannot encode " + name)
		status = 1
	print("SEED ", name, " ", 1 if full else 0, " ", b.hex_encode())


func _initialize():
	put_seed("nil", null)
	put_seed("true", true)
	put_seed("false", false)
	for i in [0, 1, -1, 2147483647, -2147483648, 2147483648, -2147483649, 9223372036854775807, -9223372036854775808]:
		put_seed("int_%d" % i, i)
	var floats = [0.0, -0.0, 1.5, 0.1, 1e300, -1e-310, INF, -INF, NAN, 3.4028234663852886e38]
	for i in floats.size():
		put_seed("float_%d" % i, floats[i])
	var strings = ["", "a", "ab", "abc", "abcd", "h\u00e9llo", "\u65e5\u672c", "\U0001F600x", "tab\tnl\n"]
	for i in strings.size():
		put_seed("string_%d" % i, strings[i])
	put_seed("string_name", &"node_name")
	put_seed("string_name_empty", &"")
	put_seed("vector2", Vector2(1.5, -2.25))
	put_seed("vector2_nan", Vector2(NAN, INF))
	put_seed("vector2i", Vector2i(3, -4))
	put_seed("rect2", Rect2(1, 2, 3, 4))
	put_seed("rect2i", Rect2i(-1, -2, 3, 4))
	put_seed("vector3", Vector3(1, 2, 3))
	put_seed("vector3i", Vector3i(2147483647, -2147483648, 0))
	put_seed("transform2d", Transform2D(0.5, Vector2(1, 2)))
	put_seed("vector4", Vector4(1, 2, 3, 4))
	put_seed("vector4i", Vector4i(1, -2, 3, -4))
	put_seed("plane", Plane(Vector3(0, 1, 0), 5))
	put_seed("quaternion", Quaternion(0.1, 0.2, 0.3, 0.9))
	put_seed("aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	put_seed("basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)))
	put_seed("transform3d", Transform3D(Basis(Vector3(1, 0, 0), 0.5), Vector3(7, 8, 9)))
	put_seed("projection", Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)))
	put_seed("color", Color(0.25, 0.5, 1.0, 0.75))
	put_seed("node_path_empty", NodePath(""))
	put_seed("node_path_rel", NodePath("a/b"))
	put_seed("node_path_abs_sub", NodePath("/root/x:pos:x"))
	put_seed("node_path_up", NodePath("../c"))
	put_seed("node_path_sub_only", NodePath(":position"))
	put_seed("rid", rid_from_int64(13))
	put_seed("rid_zero", RID())
	put_seed("callable", Callable())
	put_seed("signal", Signal())
	put_seed("object_null", null, true)
	put_seed("object_refcounted", RefCounted.new(), true)
	var item = Item.new()
	item.hp = -7
	item.title = "x"
	put_seed("object_scripted", item, true)
	put_seed("array_empty", [])
	put_seed("array_mixed", [1, "two", 3.5, null, true, Vector2i(1, 2)])
	put_seed("array_nested", [[1, [2, [3]]], {"k": [4]}])
	var ta: Array[int] = [1, 2, 3]
	put_seed("array_typed_int", ta)
	var ts: Array[String] = ["a", "bc"]
	put_seed("array_typed_string", ts)
	var tn: Array[Node] = []
	put_seed("array_typed_class", tn, true)
	put_seed("array_typed_class_id", tn)
	var tr: Array[RefCounted] = [RefCounted.new()]
	put_seed("array_typed_class_item", tr, true)
	var ti: Array[Item] = [Item.new()]
	put_seed("array_typed_script", ti, true)
	put_seed("array_typed_script_id", Array([], TYPE_OBJECT, &"RefCounted", Item))
	put_seed("dict_empty", {})
	put_seed("dict_mixed", {"a": 1, 2: "b", Vector2(1, 2): [3], null: {}})
	put_seed("dict_nested", {"x": {"y": {"z": 1}}})
	var td: Dictionary[String, int] = {"a": 1, "b": 2}
	put_seed("dict_typed", td)
	var tdk: Dictionary[int, Variant] = {1: "x"}
	put_seed("dict_typed_key", tdk)
	var tdv: Dictionary[Variant, float] = {"f": 1.5}
	put_seed("dict_typed_value", tdv)
	var tdo: Dictionary[StringName, Node] = {}
	put_seed("dict_typed_class", tdo, true)
	put_seed("dict_typed_class_id", tdo)
	var tds: Dictionary[Item, int] = {}
	put_seed("dict_typed_script", tds, true)
	for n in [0, 1, 3, 5]:
		var pb = PackedByteArray()
		var pi = PackedInt32Array()
		var pl = PackedInt64Array()
		var pf = PackedFloat32Array()
		var pd = PackedFloat64Array()
		var ps = PackedStringArray()
		var p2 = PackedVector2Array()
		var p3 = PackedVector3Array()
		var pc = PackedColorArray()
		var p4 = PackedVector4Array()
		for i in n:
			pb.append(250 + i)
			pi.append(-2147483648 + i)
			pl.append(9223372036854775807 - i)
			pf.append(0.1 * i)
			pd.append(1e-300 * i)
			ps.append("s".repeat(i))
			p2.append(Vector2(i, -i))
			p3.append(Vector3(i, i + 0.5, -i))
			pc.append(Color(0.1 * i, 0.2, 0.3, 1))
			p4.append(Vector4(i, 2 * i, 3 * i, 4 * i))
		put_seed("packed_byte_%d" % n, pb)
		put_seed("packed_int32_%d" % n, pi)
		put_seed("packed_int64_%d" % n, pl)
		put_seed("packed_float32_%d" % n, pf)
		put_seed("packed_float64_%d" % n, pd)
		put_seed("packed_string_%d" % n, ps)
		put_seed("packed_vector2_%d" % n, p2)
		put_seed("packed_vector3_%d" % n, p3)
		put_seed("packed_color_%d" % n, pc)
		put_seed("packed_vector4_%d" % n, p4)
	# Nesting: a chain of 8 arrays and 8 dictionaries around an int.
	var chain = 7
	for i in 8:
		chain = [chain]
	put_seed("array_chain_8", chain)
	var dchain = "leaf"
	for i in 8:
		dchain = {i: dchain}
	put_seed("dict_chain_8", dchain)
	print("GDWIRE-SEEDS-OK")


func _process(_delta):
	quit(status)
	return true
