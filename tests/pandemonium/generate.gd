# Pandemonium fixture generator for gdwire (Pandemonium 5 numbering).
#
# Run through tests/pandemonium/regenerate.sh, which sets:
#   GDWIRE_OUT        the file of values to write (JSON lines, one value each)
#   GDWIRE_TEXTS_OUT  the file of parsed texts to write (JSON lines)
#
# For every value below, the engine writes var2bytes (with full objects where the value holds
# an object), var2str, what its parser makes of that text, and what its own decoder reads
# back from the bytes (var2str of it). For every text in texts(), what its parser makes of
# it. Nothing here is computed by gdwire. All work happens in run(); _init() only calls it
# and quits, because a script error directly inside _init() hangs the engine.
extends SceneTree

var failures = []
var lines = []
var text_lines = []
# The engine's type numbering (its dialect): "5", "3.8" or "3.5".
var numbering = ""


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1  # a runtime error aborted run()
	quit(code)


func fail(msg):
	failures.append(msg)
	printerr("GDWIRE-GENERATOR-FAILURE: " + msg)


# A TypedArray (or with `packed`, a PackedTypedArray) of `type_name` holding `items`. Made
# through the parser so that the script also compiles in engines without these types.
func typed(type_name, items, packed = false):
	var a = str2var("%s( %s )" % ["PackedTypedArray" if packed else "TypedArray", type_name])
	for x in items:
		if not a.push_back(x):
			fail("%s refused %s" % [var2str(a), var2str(x)])
	return a


# (4.9 has no GDScript constructor for Projection: made by the parser.)
func projection():
	return str2var("Projection(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)")


# The value `text` names, through the engine's parser: for the types that not every engine
# line has (a GDScript constructor of a missing type does not compile).
func P(text):
	var v = str2var(text)
	if typeof(v) == TYPE_STRING:
		fail("the engine did not parse " + text)
	return v


func resource(name):
	var r = Resource.new()
	r.resource_name = name
	return r


# The engine's decoder on `bytes`. Read as one packet of a PacketPeerStream: PacketPeer::get_var
# calls decode_variant exactly as bytes2var does, but a failed decode returns null (with an
# ERROR line) instead of raising a script error.
func engine_read(bytes, allow_objects):
	var framed = StreamPeerBuffer.new()
	framed.put_u32(bytes.size())
	framed.put_data(bytes)
	var stream = StreamPeerBuffer.new()
	stream.data_array = framed.data_array
	var packets = PacketPeerStream.new()
	packets.input_buffer_max_size = 1 << 20
	packets.stream_peer = stream
	packets.allow_object_decoding = allow_objects
	if packets.get_available_packet_count() != 1:
		fail("PacketPeerStream did not see exactly one packet")
	return packets.get_var(allow_objects)


# The engine's NodePath encoder leaves the 0-3 pad bytes after each name and subname
# uninitialised (they differ from run to run; its decoder ignores them). Zeroed here, for a
# NodePath at the top of `bytes` (the only place this script puts one with names), so that
# reruns are byte-identical: header, name count | 0x80000000, subname count, flags, then
# length-prefixed names and subnames, each padded to four bytes.
func zero_node_path_pads(bytes):
	var b = StreamPeerBuffer.new()
	b.data_array = bytes
	b.seek(4)
	var names = b.get_u32() & 0x7FFFFFFF
	var subnames = b.get_u32()
	b.seek(16)
	var out = bytes
	for _i in range(names + subnames):
		var n = b.get_u32()
		var at = b.get_position() + n
		for j in range((4 - n % 4) % 4):
			out[at + j] = 0
		b.seek(at + (4 - n % 4) % 4)
	return out


func add(name, v, full_objects = false):
	var bytes = var2bytes(v, full_objects)
	if typeof(v) == TYPE_NODE_PATH:
		bytes = zero_node_path_pads(bytes)
	var parsed = str2var(var2str(v))
	var parsed_bytes = var2bytes(parsed, full_objects)
	if typeof(parsed) == TYPE_NODE_PATH:
		parsed_bytes = zero_node_path_pads(parsed_bytes)
	var back = engine_read(bytes, full_objects)
	lines.append(to_json({
		"name": name,
		"type": typeof(v),
		"full_objects": full_objects,
		"hex": bytes.hex_encode(),
		"text": var2str(v),
		# the engine's str2var of that text, written back with var2bytes
		"text_read_hex": parsed_bytes.hex_encode(),
		# hex of its UTF-8: a misread value can hold control characters, which to_json
		# does not escape.
		"read_back_utf8": var2str(back).to_utf8().hex_encode(),
	}))


func values():
	add("nil", null)
	add("bool_true", true)
	add("bool_false", false)
	add("int_zero", 0)
	add("int_small", 42)
	add("int_negative", -7)
	add("int_max_32", 2147483647)
	add("int_min_32", -2147483648)
	add("int_above_32", 2147483648)
	add("int_below_32", -2147483649)
	add("int_max_64", 9223372036854775807)
	add("float_half", 0.5)
	add("float_negative", -1.25)
	add("float_tenth", 0.1)
	add("float_large", 1e300)
	add("float_inf", INF)
	add("float_neg_inf", -INF)
	add("string_empty", "")
	add("string_ascii", "hello")
	add("string_three", "abc")
	add("string_unicode", "h\u00e9llo \u2713 " + char(0x1f3ae))
	add("rect2", Rect2(1.5, -2, 3.25, 4))
	# (4.9 has no GDScript constructor for Rect2i that compiles: made by the parser.)
	add("rect2i", str2var("Rect2i( 1, -2, 3, 2147483647 )"))
	add("vector2", Vector2(0.5, -3))
	add("vector2i", Vector2i(-1, 2))
	add("vector3", Vector3(1, 2.5, -3))
	add("vector3i", Vector3i(7, -8, 9))
	add("plane", Plane(0, 1, 0, 2.5))
	add("quaternion", P("%s( 0.1, 0.2, 0.3, 0.9 )" % ["Quaternion" if numbering != "3.5" else "Quat"]))
	add("aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	add("basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)))
	add("transform", Transform(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12)))
	add("transform2d", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)))
	add("color", Color(0.25, 0.5, 0.75, 1))
	add("node_path_empty", NodePath(""))
	add("node_path_relative", NodePath("a/b"))
	add("node_path_absolute", NodePath("/root/Main/Player"))
	add("node_path_subnames", NodePath("Sprite:position:x"))
	add("node_path_unicode", NodePath("n\u00f6de/\u2713:sub"))
	add("rid_empty", RID())
	var orphan = Node.new()
	add("object_null", orphan.get_parent())
	add("object_null_full", orphan.get_parent(), true)
	var meta_node = Node.new()
	meta_node.set_meta("answer", 42)
	add("object_full_node_meta", meta_node, true)
	add("object_full", resource("sword"), true)
	add("string_name", StringName("player_name"))
	add("string_name_empty", StringName(""))
	add("dictionary_empty", {})
	add("dictionary", {"hp": 100, "name": "Ada", 3: [1, 2], Vector2(1, 2): null})
	add("dictionary_nested", {"a": {"b": {"c": [1, {"d": "e"}]}}})
	add("array_empty", [])
	add("array_mixed", [1, "two", 3.5, null, true, Vector3(1, 2, 3), [4, [5]], {"k": "v"}])
	add("array_of_new_types", [Vector2i(1, 2), str2var("Rect2i( 1, 2, 3, 4 )"), Vector3i(5, 6, 7), StringName("sn"), PoolVector2iArray([Vector2i(1, 2)])])
	add("pool_byte_array", PoolByteArray([1, 2, 3, 255, 0]))
	add("pool_byte_array_aligned", PoolByteArray([1, 2, 3, 4]))
	add("pool_byte_array_empty", PoolByteArray())
	add("pool_byte_array_two", PoolByteArray([254, 255]))
	add("pool_int_array", PoolIntArray([1, -2, 2147483647]))
	add("pool_real_array", PoolRealArray([0.5, -1, 0.1]))
	add("pool_string_array", PoolStringArray(["a", "", "h\u00e9llo", "abcd"]))
	add("pool_string_array_empty", PoolStringArray())
	add("pool_vector2_array", PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]))
	add("pool_vector2i_array", PoolVector2iArray([Vector2i(1, 2), Vector2i(-3, 4)]))
	add("pool_vector3_array", PoolVector3Array([Vector3(1, 2, 3)]))
	add("pool_vector3i_array", PoolVector3iArray([Vector3i(1, 2, 3), Vector3i(-4, 5, -6)]))
	add("pool_color_array", PoolColorArray([Color(1, 0, 0, 1), Color(0, 0.5, 1, 0.25)]))
	add("pool_color_array_empty", PoolColorArray())


# Types of the 3.8 numbering on (Pandemonium 3.8+).
func vector4_values():
	add("vector4", P("Vector4( 1, 2, 3, 4.5 )"))
	add("vector4i", P("Vector4i( -1, 2, -3, 4 )"))
	add("projection", projection())
	add("array_of_vector4", [P("Vector4( 1, 2, 3, 4 )"), 5])
	add("array_of_vector4i", [P("Vector4i( 1, 2, 3, 4 )"), 5])
	add("array_of_projection", [projection(), 5])
	add("pool_vector4_array", P("PoolVector4Array( 1, 2, 3, 4, 5, 6, 7, 8 )"))
	add("pool_vector4i_array", P("PoolVector4iArray( 1, 2, 3, 4, 5, 6, 7, 8 )"))


func typed_values():
	add("typed_array_int", typed("int", [1, 2, 3]))
	add("typed_array_int_empty", typed("int", []))
	add("typed_array_nil", typed("Nil", [null, null]))
	add("typed_array_of_typed_arrays", typed("TypedArray", [typed("float", [0.5]), typed("String", [])]))
	add("typed_array_string", typed("String", ["a", "bc"]))
	add("typed_array_vector3", typed("Vector3", [Vector3(1, 2, 3)]))
	add("typed_array_object_empty", typed("Resource", []))
	add("typed_array_object_empty_full", typed("Resource", []), true)
	add("packed_typed_array_object_full", typed("Resource", [resource("c")], true), true)
	add("typed_array_object", typed("Resource", [resource("a"), resource("b")]), true)
	add("packed_typed_array_int", typed("int", [4, 5], true))
	add("packed_typed_array_float", typed("float", [0.5, 1.5], true))
	add("packed_typed_array_empty", typed("int", [], true))


# Texts that no value above prints: other spellings, and texts the parser refuses (str2var
# then returns its argument, the text as a String).
func texts(typed_arrays):
	var all = [
		"PoolByteArray( \"AQID\" )",
		"PoolByteArray( \"AQI=\" )",
		"PoolByteArray( \"AQ==\" )",
		"PoolByteArray( \"\" )",
		"PoolByteArray(  )",
		"PoolByteArray( 1, 2, 255 )",
		"PoolByteArray( \"A*ID\" )",
		"Rect2i( 16777217, 2.7, -2.7, 2147483647 )",
		"Rect2i( -16777217, 0, 0, 0 )",
		"Vector2i( 16777217, 2.7 )",
		"Quat( 0, 0, 0, 1 )",
		"Quaternion( 0, 0, 0, 1 )",
	]
	var typed = [
		"TypedArray()",
		"TypedArray( int )",
		"TypedArray( int , )",
		"TypedArray( int , 1, 2 )",
		"TypedArray( int , 1.5 )",
		"TypedArray( int , null )",
		"TypedArray( float , 1 )",
		"TypedArray( Node , null )",
		"TypedArray( Object )",
		"TypedArray( String , @\"sn\" )",
		"PackedTypedArray( float , 0.5, 1.5 )",
		"PackedTypedArray( float , 1 )",
		"PackedTypedArray( Vector2 , Vector2( 1, 2 ) )",
		"TypedArray( int , 1 2 )",
	]
	if typed_arrays:
		all += typed
	for t in all:
		text_lines.append(to_json({
			"text": t,
			"read_hex": var2bytes(str2var(t)).hex_encode(),
		}))


func write_lines(env, rows):
	var path = OS.get_environment(env)
	if path == "":
		fail(env + " is not set (run tests/pandemonium/regenerate.sh)")
		return false
	var f = File.new()
	if f.open(path, File.WRITE) != OK:
		fail("cannot write " + path)
		return false
	for line in rows:
		f.store_string(line + "\n")
	f.close()
	return true


func run():
	var version = Engine.get_version_info()
	if version["major"] >= 5:
		numbering = "5"
	elif version["major"] == 4 or version["minor"] >= 8:
		numbering = "3.8"
	else:
		numbering = "3.5"
	values()
	if numbering != "3.5":
		vector4_values()
	if numbering == "5":
		typed_values()
	texts(numbering == "5")
	if not write_lines("GDWIRE_OUT", lines) or not write_lines("GDWIRE_TEXTS_OUT", text_lines):
		return 1
	if failures.size() > 0:
		return 1
	print("GDWIRE-GENERATOR-OK %d values, %d texts" % [lines.size(), text_lines.size()])
	return 0
