# Shared by the Godot 4 generator scripts: describe() (the DESC schema of README.md), the JSON
# writer J(), hex helpers, and decode_routes(), which decodes bytes the two ways the fixtures
# compare and brackets each with marker lines on stderr so that assemble.py can read the
# engine's verdict and error code from the ERROR lines in between.
# Loaded with  var common = preload("res://common.gd").new()
extends RefCounted

const CHAIN_MIN = 64  # describe() compresses chains of >= this many nested 1-element containers
# TYPE_PACKED_VECTOR4_ARRAY (Godot 4.3+), as a number so that this file compiles in 4.0-4.2 too.
const PACKED_VECTOR4_ARRAY = 38

# What this engine has: the same scripts run in older Godot 4 engines (tests/godot4/older/).
var version_hex = Engine.get_version_info().hex
var has_packed_vector4 = version_hex >= 0x040300
var has_typed_dictionaries = version_hex >= 0x040400
var has_json_from_native = version_hex >= 0x040400

var failures = []
var mark_no = 0
var f_buf = StreamPeerBuffer.new()


func fail(msg):
	failures.append(msg)
	printerr("GDWIRE-GENERATOR-FAILURE: " + msg)


# F encoding: IEEE-754 double bits, 16 lowercase hex digits, most significant first.
func F(x: float) -> String:
	f_buf.clear()
	f_buf.big_endian = true
	f_buf.put_double(x)
	return f_buf.data_array.hex_encode()


func shex(s) -> String:
	return String(s).to_utf8_buffer().hex_encode()


func hex2bytes(h: String) -> PackedByteArray:
	h = h.replace(" ", "")
	if h.length() % 2 != 0:
		fail("odd hex length: " + h)
		return PackedByteArray()
	# String.hex_decode() came with 4.1; by hand before (called on an untyped value so that
	# 4.0's GDScript compiles it).
	if version_hex >= 0x040100:
		var v: Variant = h
		return v.hex_decode()
	var out = PackedByteArray()
	out.resize(h.length() / 2)
	for i in out.size():
		out[i] = h.substr(i * 2, 2).hex_to_int()
	return out


# A double from its IEEE-754 bits given as 16 hex digits, most significant first.
func D(bits_hex: String) -> float:
	var b = StreamPeerBuffer.new()
	b.big_endian = true
	b.put_data(hex2bytes(bits_hex))
	b.seek(0)
	return b.get_double()


# A String from UTF-8 bytes given as hex (keeps the sources ASCII).
func U(h: String) -> String:
	return hex2bytes(h).get_string_from_utf8()


# ---------------------------------------------------------------------------
# describe(): exact, wire-format-independent description of a Variant (README.md, DESC)

func container_type(builtin, cls, script):
	if builtin == TYPE_NIL:
		return null
	var path = null
	if script != null:
		path = script.resource_path
	return {"builtin": builtin, "class": String(cls), "script": path}


func describe(v):
	var t = typeof(v)
	match t:
		TYPE_NIL:
			return {"t": "nil"}
		TYPE_BOOL:
			return {"t": "bool", "v": v}
		TYPE_INT:
			return {"t": "int", "v": str(v)}
		TYPE_FLOAT:
			return {"t": "float", "v": F(v)}
		TYPE_STRING:
			return {"t": "String", "v": shex(v)}
		TYPE_STRING_NAME:
			return {"t": "StringName", "v": shex(v)}
		TYPE_VECTOR2:
			return {"t": "Vector2", "v": [F(v.x), F(v.y)]}
		TYPE_VECTOR2I:
			return {"t": "Vector2i", "v": [str(v.x), str(v.y)]}
		TYPE_RECT2:
			return {"t": "Rect2", "v": [F(v.position.x), F(v.position.y), F(v.size.x), F(v.size.y)]}
		TYPE_RECT2I:
			return {"t": "Rect2i", "v": [str(v.position.x), str(v.position.y), str(v.size.x), str(v.size.y)]}
		TYPE_VECTOR3:
			return {"t": "Vector3", "v": [F(v.x), F(v.y), F(v.z)]}
		TYPE_VECTOR3I:
			return {"t": "Vector3i", "v": [str(v.x), str(v.y), str(v.z)]}
		TYPE_TRANSFORM2D:
			return {"t": "Transform2D", "v": [F(v.x.x), F(v.x.y), F(v.y.x), F(v.y.y), F(v.origin.x), F(v.origin.y)]}
		TYPE_VECTOR4:
			return {"t": "Vector4", "v": [F(v.x), F(v.y), F(v.z), F(v.w)]}
		TYPE_VECTOR4I:
			return {"t": "Vector4i", "v": [str(v.x), str(v.y), str(v.z), str(v.w)]}
		TYPE_PLANE:
			return {"t": "Plane", "v": [F(v.normal.x), F(v.normal.y), F(v.normal.z), F(v.d)]}
		TYPE_QUATERNION:
			return {"t": "Quaternion", "v": [F(v.x), F(v.y), F(v.z), F(v.w)]}
		TYPE_AABB:
			return {"t": "AABB", "v": [F(v.position.x), F(v.position.y), F(v.position.z), F(v.size.x), F(v.size.y), F(v.size.z)]}
		TYPE_BASIS:
			return {"t": "Basis", "v": basis_list(v)}
		TYPE_TRANSFORM3D:
			var l = basis_list(v.basis)
			l.append_array([F(v.origin.x), F(v.origin.y), F(v.origin.z)])
			return {"t": "Transform3D", "v": l}
		TYPE_PROJECTION:
			var l = []
			for c in [v.x, v.y, v.z, v.w]:
				l.append_array([F(c.x), F(c.y), F(c.z), F(c.w)])
			return {"t": "Projection", "v": l}
		TYPE_COLOR:
			return {"t": "Color", "v": [F(v.r), F(v.g), F(v.b), F(v.a)]}
		TYPE_NODE_PATH:
			var names = []
			for i in v.get_name_count():
				names.append(shex(v.get_name(i)))
			var subnames = []
			for i in v.get_subname_count():
				subnames.append(shex(v.get_subname(i)))
			return {"t": "NodePath", "absolute": v.is_absolute(), "names": names, "subnames": subnames}
		TYPE_RID:
			return {"t": "RID", "id": str(v.get_id())}
		TYPE_OBJECT:
			return describe_object(v)
		TYPE_CALLABLE:
			return {"t": "Callable", "null": v.is_null()}
		TYPE_SIGNAL:
			return {"t": "Signal", "name": shex(v.get_name()), "id": str(v.get_object_id())}
		TYPE_DICTIONARY:
			return describe_dictionary(v)
		TYPE_ARRAY:
			return describe_array(v)
		TYPE_PACKED_BYTE_ARRAY:
			return {"t": "PackedByteArray", "v": v.hex_encode()}
		TYPE_PACKED_INT32_ARRAY:
			return {"t": "PackedInt32Array", "v": ints(v)}
		TYPE_PACKED_INT64_ARRAY:
			return {"t": "PackedInt64Array", "v": ints(v)}
		TYPE_PACKED_FLOAT32_ARRAY:
			return {"t": "PackedFloat32Array", "v": floats(v)}
		TYPE_PACKED_FLOAT64_ARRAY:
			return {"t": "PackedFloat64Array", "v": floats(v)}
		TYPE_PACKED_STRING_ARRAY:
			var items = []
			for e in v:
				items.append(shex(e))
			return {"t": "PackedStringArray", "v": items}
		TYPE_PACKED_VECTOR2_ARRAY:
			var items = []
			for e in v:
				items.append([F(e.x), F(e.y)])
			return {"t": "PackedVector2Array", "v": items}
		TYPE_PACKED_VECTOR3_ARRAY:
			var items = []
			for e in v:
				items.append([F(e.x), F(e.y), F(e.z)])
			return {"t": "PackedVector3Array", "v": items}
		TYPE_PACKED_COLOR_ARRAY:
			var items = []
			for e in v:
				items.append([F(e.r), F(e.g), F(e.b), F(e.a)])
			return {"t": "PackedColorArray", "v": items}
		PACKED_VECTOR4_ARRAY:
			var items = []
			for e in v:
				items.append([F(e.x), F(e.y), F(e.z), F(e.w)])
			return {"t": "PackedVector4Array", "v": items}
	fail("describe: unhandled type " + str(t))
	return null


func ints(v):
	var items = []
	for e in v:
		items.append(str(e))
	return items


func floats(v):
	var items = []
	for e in v:
		items.append(F(e))
	return items


# GDScript column vectors basis.x, basis.y, basis.z (NOT wire order).
func basis_list(b):
	return [F(b.x.x), F(b.x.y), F(b.x.z), F(b.y.x), F(b.y.y), F(b.y.z), F(b.z.x), F(b.z.y), F(b.z.z)]


func describe_object(v):
	if v == null or not is_instance_valid(v):
		return {"t": "ObjectNull"}
	if v.get_class() == "EncodedObjectAsID":
		return {"t": "EncodedObjectAsID", "id": str(v.get_object_id())}
	var props = []
	for p in v.get_property_list():
		if not (p.usage & PROPERTY_USAGE_STORAGE):
			continue
		if p.name == "script":
			# encode_variant writes the script as its res:// path (NIL without a script)
			var s = v.get_script()
			if s == null:
				props.append([shex(p.name), {"t": "nil"}])
			elif typeof(s) != TYPE_OBJECT:
				# Godot 4.0-4.3 keep whatever value the bytes set as the script (4.4+ refuse
				# anything but a res:// path)
				props.append([shex(p.name), describe(s)])
			else:
				props.append([shex(p.name), {"t": "String", "v": shex(s.resource_path)}])
			continue
		var pv = v.get(p.name)
		if typeof(pv) == TYPE_OBJECT and (pv == null or not is_instance_valid(pv)):
			props.append([shex(p.name), {"t": "nil"}])  # a null Object is written as NIL
		else:
			props.append([shex(p.name), describe(pv)])
	return {"t": "Object", "class": v.get_class(), "props": props}


func is_typed_dictionary(v):
	return has_typed_dictionaries and v.is_typed()


func describe_dictionary(v):
	var out = {}
	if v.size() == 1 and not is_typed_dictionary(v):
		# chains of single-entry dictionaries with one key (nesting-depth fixtures)
		var key_j = J(describe(v.keys()[0]))
		var depth = 0
		var cur = v
		while typeof(cur) == TYPE_DICTIONARY and cur.size() == 1 and not is_typed_dictionary(cur) and J(describe(cur.keys()[0])) == key_j:
			depth += 1
			cur = cur[cur.keys()[0]]
		if depth >= CHAIN_MIN:
			return {"t": "DictionaryChain", "depth": depth, "key": describe(v.keys()[0]), "leaf": describe(cur)}
	var pairs = []
	for k in v.keys():
		pairs.append([describe(k), describe(v[k])])
	out["t"] = "Dictionary"
	out["v"] = pairs
	if not has_typed_dictionaries:
		return out
	var kt = container_type(v.get_typed_key_builtin(), v.get_typed_key_class_name(), v.get_typed_key_script())
	var vt = container_type(v.get_typed_value_builtin(), v.get_typed_value_class_name(), v.get_typed_value_script())
	if kt != null:
		out["key_type"] = kt
	if vt != null:
		out["value_type"] = vt
	return out


func describe_array(v):
	if not v.is_typed():
		# long chains of single-element arrays are compressed (README.md, ArrayChain)
		var depth = 0
		var cur = v
		while typeof(cur) == TYPE_ARRAY and cur.size() == 1 and not cur.is_typed():
			depth += 1
			cur = cur[0]
		if depth >= CHAIN_MIN:
			return {"t": "ArrayChain", "depth": depth, "leaf": describe(cur)}
	var items = []
	for e in v:
		items.append(describe(e))
	var out = {"t": "Array", "v": items}
	var et = container_type(v.get_typed_builtin(), v.get_typed_class_name(), v.get_typed_script())
	if et != null:
		out["type"] = et
	return out


# ---------------------------------------------------------------------------
# JSON writer (fixed key order, ", " / ": " separators, control characters escaped)

func jstr(s: String) -> String:
	if s.is_valid_hex_number(false):
		return "\"" + s + "\""
	var out = "\""
	var n = s.length()
	var start = 0
	for i in n:
		var c = s.unicode_at(i)
		var rep = null
		if c == 34:
			rep = "\\\""
		elif c == 92:
			rep = "\\\\"
		elif c == 10:
			rep = "\\n"
		elif c == 9:
			rep = "\\t"
		elif c == 13:
			rep = "\\r"
		elif c < 0x20 or c == 0x7f:
			rep = "\\u%04x" % c
		elif (c >= 0xD800 and c <= 0xDFFF) or c > 0x10FFFF:
			rep = "\\ufffd"
		if rep != null:
			out += s.substr(start, i - start) + rep
			start = i + 1
	out += s.substr(start, n - start) + "\""
	return out


func J(v) -> String:
	match typeof(v):
		TYPE_NIL:
			return "null"
		TYPE_BOOL:
			return "true" if v else "false"
		TYPE_INT:
			return str(v)
		TYPE_STRING, TYPE_STRING_NAME:
			return jstr(String(v))
		TYPE_ARRAY:
			var parts = PackedStringArray()
			for e in v:
				parts.append(J(e))
			return "[" + ", ".join(parts) + "]"
		TYPE_DICTIONARY:
			var parts = PackedStringArray()
			for k in v.keys():
				parts.append(jstr(String(k)) + ": " + J(v[k]))
			return "{" + ", ".join(parts) + "}"
	fail("J: unsupported type " + str(typeof(v)))
	return "null"


# ---------------------------------------------------------------------------
# Decoding with the engine's verdict. The verdict and error code are not visible to a script
# in a release build: assemble.py reads them from the stderr lines between the markers.
# Route a: bytes_to_var / bytes_to_var_with_objects (the public API of the fixtures).
# Route b: StreamPeerBuffer.get_var(allow) over u32 length + bytes, which prints
#          "Error when trying to decode Variant." (at get_var, stream_peer.cpp) on failure.

func decode_routes(bytes: PackedByteArray, allow: bool) -> Dictionary:
	mark_no += 1
	printerr("GDWIRE-MARK:%d:a" % mark_no)
	var a = bytes_to_var_with_objects(bytes) if allow else bytes_to_var(bytes)
	printerr("GDWIRE-MARK:%d:b" % mark_no)
	var s = StreamPeerBuffer.new()
	s.put_u32(bytes.size())
	if bytes.size() > 0:
		s.put_data(bytes)
	s.seek(0)
	var b = s.get_var(allow)
	printerr("GDWIRE-MARK:%d:end" % mark_no)
	var da = describe(a)
	var db = describe(b)
	if J(da) != J(db):
		# assemble.py accepts this only when the decode failed (both are then null)
		da = null
	return {"mark": mark_no, "value": a, "desc": da}


# PackedVector4Array() where the engine has the type (4.3+), else null.
func packed_vector4_array():
	return str_to_var("PackedVector4Array()") if has_packed_vector4 else null


# Dictionary({}, kb, kc, ks, vb, vc, vs) with `pairs` in it, where the engine has typed
# dictionaries (4.4+; else null). Built by an Expression: older GDScript refuses to compile
# a seven-argument Dictionary constructor.
func typed_dictionary(kb, kc, ks, vb, vc, vs, pairs):
	if not has_typed_dictionaries:
		return null
	var e = Expression.new()
	if e.parse("Dictionary({}, kb, kc, ks, vb, vc, vs)", ["kb", "kc", "ks", "vb", "vc", "vs"]) != OK:
		fail("typed_dictionary: " + e.get_error_text())
		return null
	var d = e.execute([kb, kc, ks, vb, vc, vs])
	if e.has_execute_failed():
		fail("typed_dictionary: " + e.get_error_text())
		return null
	for p in pairs:
		d[p[0]] = p[1]
	return d


# JSON.from_native(v, full) stringified at full precision where the engine has it (4.4+),
# else null. Called by name: older GDScript refuses to compile the unknown static call.
func json_from_native(v, full):
	if not has_json_from_native:
		return null
	return JSON.stringify(JSON.new().call("from_native", v, full), "", false, true)


# Godot `Error` names as printed in "Returning: X" of ERR_FAIL_* messages, with their values
# in this engine (printed once for assemble.py).
func error_names():
	return {
		"FAILED": FAILED, "ERR_UNAVAILABLE": ERR_UNAVAILABLE, "ERR_UNCONFIGURED": ERR_UNCONFIGURED,
		"ERR_UNAUTHORIZED": ERR_UNAUTHORIZED, "ERR_PARAMETER_RANGE_ERROR": ERR_PARAMETER_RANGE_ERROR,
		"ERR_OUT_OF_MEMORY": ERR_OUT_OF_MEMORY, "ERR_FILE_EOF": ERR_FILE_EOF,
		"ERR_FILE_CORRUPT": ERR_FILE_CORRUPT, "ERR_INVALID_DATA": ERR_INVALID_DATA,
		"ERR_INVALID_PARAMETER": ERR_INVALID_PARAMETER, "ERR_PARSE_ERROR": ERR_PARSE_ERROR,
		"ERR_CANT_CREATE": ERR_CANT_CREATE, "ERR_BUG": ERR_BUG, "ERR_FILE_NOT_FOUND": ERR_FILE_NOT_FOUND,
		"ERR_CANT_OPEN": ERR_CANT_OPEN, "ERR_FILE_CANT_OPEN": ERR_FILE_CANT_OPEN,
	}
