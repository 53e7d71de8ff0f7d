# Shared by generate.gd (fixture generator) and interop.gd (live interop test):
# describe() (the DESC schema of README.md), the JSON writer J(), and the engine
# decode routes that read decode_variant()'s error code back from the engine's
# own stderr (README.md, "Error codes"). Loaded with
#   var common = preload("res://common.gd").new()
# The host sets `log_path` (file its stderr goes to) and `fail_target` (a
# FuncRef called with a message for every problem found here).
extends Reference

const CHAIN_MIN = 64  # describe() compresses chains of >= this many nested 1-element containers

var log_path = ""
var fail_target = null  # FuncRef(msg)

# One reusable buffer for F(): describe() of a large pool array calls F() hundreds
# of thousands of times.
var f_buf = StreamPeerBuffer.new()

# Godot `Error` names as printed in "Returned: X" of ERR_FAIL_* messages.
var ERR_NAMES = {
	"FAILED": FAILED,
	"ERR_UNAVAILABLE": ERR_UNAVAILABLE,
	"ERR_UNCONFIGURED": ERR_UNCONFIGURED,
	"ERR_UNAUTHORIZED": ERR_UNAUTHORIZED,
	"ERR_PARAMETER_RANGE_ERROR": ERR_PARAMETER_RANGE_ERROR,
	"ERR_OUT_OF_MEMORY": ERR_OUT_OF_MEMORY,
	"ERR_FILE_EOF": ERR_FILE_EOF,
	"ERR_FILE_CORRUPT": ERR_FILE_CORRUPT,
	"ERR_INVALID_DATA": ERR_INVALID_DATA,
	"ERR_INVALID_PARAMETER": ERR_INVALID_PARAMETER,
	"ERR_PARSE_ERROR": ERR_PARSE_ERROR,
	"ERR_BUG": ERR_BUG,
}


func fail(msg):
	if fail_target != null:
		fail_target.call_func(msg)
	else:
		printerr("GDWIRE-FAILURE: " + msg)


# F encoding: IEEE-754 double bits, 16 lowercase hex digits, big-endian.
func F(x):
	f_buf.clear()
	f_buf.big_endian = true
	f_buf.put_double(x)
	return f_buf.data_array.hex_encode()


func shex(s):
	return s.to_utf8().hex_encode()


# ---------------------------------------------------------------------------
# describe(): exact, wire-format-independent description of a Variant

func describe(v):
	var t = typeof(v)
	if t == TYPE_NIL:
		return {"t": "nil"}
	elif t == TYPE_BOOL:
		return {"t": "bool", "v": v}
	elif t == TYPE_INT:
		return {"t": "int", "v": str(v)}
	elif t == TYPE_REAL:
		return {"t": "float", "v": F(v)}
	elif t == TYPE_STRING:
		return {"t": "String", "v": shex(v)}
	elif t == TYPE_VECTOR2:
		return {"t": "Vector2", "v": [F(v.x), F(v.y)]}
	elif t == TYPE_RECT2:
		return {"t": "Rect2", "v": [F(v.position.x), F(v.position.y), F(v.size.x), F(v.size.y)]}
	elif t == TYPE_VECTOR3:
		return {"t": "Vector3", "v": [F(v.x), F(v.y), F(v.z)]}
	elif t == TYPE_TRANSFORM2D:
		return {"t": "Transform2D", "v": [F(v.x.x), F(v.x.y), F(v.y.x), F(v.y.y), F(v.origin.x), F(v.origin.y)]}
	elif t == TYPE_PLANE:
		return {"t": "Plane", "v": [F(v.normal.x), F(v.normal.y), F(v.normal.z), F(v.d)]}
	elif t == TYPE_QUAT:
		return {"t": "Quat", "v": [F(v.x), F(v.y), F(v.z), F(v.w)]}
	elif t == TYPE_AABB:
		return {"t": "AABB", "v": [F(v.position.x), F(v.position.y), F(v.position.z), F(v.size.x), F(v.size.y), F(v.size.z)]}
	elif t == TYPE_BASIS:
		return {"t": "Basis", "v": basis_list(v)}
	elif t == TYPE_TRANSFORM:
		var l = basis_list(v.basis)
		l.append(F(v.origin.x))
		l.append(F(v.origin.y))
		l.append(F(v.origin.z))
		return {"t": "Transform", "v": l}
	elif t == TYPE_COLOR:
		return {"t": "Color", "v": [F(v.r), F(v.g), F(v.b), F(v.a)]}
	elif t == TYPE_NODE_PATH:
		var names = []
		for i in range(v.get_name_count()):
			names.append(shex(v.get_name(i)))
		var subnames = []
		for i in range(v.get_subname_count()):
			subnames.append(shex(v.get_subname(i)))
		return {"t": "NodePath", "absolute": v.is_absolute(), "names": names, "subnames": subnames}
	elif t == TYPE_RID:
		return {"t": "RID", "id": str(v.get_id())}
	elif t == TYPE_OBJECT:
		if v == null:
			return {"t": "ObjectNull"}
		if v.get_class() == "EncodedObjectAsID":
			return {"t": "EncodedObjectAsID", "id": str(v.get_object_id())}
		var props = []
		for p in v.get_property_list():
			if p.usage & PROPERTY_USAGE_STORAGE:
				var pv = v.get(p.name)
				if typeof(pv) == TYPE_OBJECT and pv == null:
					# e.g. `script` when there is none: get() returns a null Object,
					# which encode_variant writes as NIL (see README.md)
					props.append([shex(p.name), {"t": "nil"}])
				else:
					props.append([shex(p.name), describe(pv)])
		return {"t": "Object", "class": v.get_class(), "props": props}
	elif t == TYPE_DICTIONARY:
		# same compression for chains of single-entry dictionaries with one key
		if v.size() == 1:
			var key_j = J(describe(v.keys()[0]))
			var ddepth = 0
			var dcur = v
			while typeof(dcur) == TYPE_DICTIONARY and dcur.size() == 1 and J(describe(dcur.keys()[0])) == key_j:
				ddepth += 1
				dcur = dcur[dcur.keys()[0]]
			if ddepth >= CHAIN_MIN:
				return {"t": "DictionaryChain", "depth": ddepth, "key": describe(v.keys()[0]), "leaf": describe(dcur)}
		var pairs = []
		for k in v.keys():
			pairs.append([describe(k), describe(v[k])])
		return {"t": "Dictionary", "v": pairs}
	elif t == TYPE_ARRAY:
		# Long chains of single-element arrays (nesting-depth fixtures) are
		# compressed so that the JSON stays shallow (serde_json's default
		# recursion limit is 128). See README.md ("ArrayChain").
		var depth = 0
		var cur = v
		while typeof(cur) == TYPE_ARRAY and cur.size() == 1:
			depth += 1
			cur = cur[0]
		if depth >= CHAIN_MIN:
			return {"t": "ArrayChain", "depth": depth, "leaf": describe(cur)}
		var items = []
		for e in v:
			items.append(describe(e))
		return {"t": "Array", "v": items}
	elif t == TYPE_RAW_ARRAY:
		return {"t": "PoolByteArray", "v": v.hex_encode()}
	elif t == TYPE_INT_ARRAY:
		var items = []
		for e in v:
			items.append(str(e))
		return {"t": "PoolIntArray", "v": items}
	elif t == TYPE_REAL_ARRAY:
		var items = []
		for e in v:
			items.append(F(e))
		return {"t": "PoolRealArray", "v": items}
	elif t == TYPE_STRING_ARRAY:
		var items = []
		for e in v:
			items.append(shex(e))
		return {"t": "PoolStringArray", "v": items}
	elif t == TYPE_VECTOR2_ARRAY:
		var items = []
		for e in v:
			items.append([F(e.x), F(e.y)])
		return {"t": "PoolVector2Array", "v": items}
	elif t == TYPE_VECTOR3_ARRAY:
		var items = []
		for e in v:
			items.append([F(e.x), F(e.y), F(e.z)])
		return {"t": "PoolVector3Array", "v": items}
	elif t == TYPE_COLOR_ARRAY:
		var items = []
		for e in v:
			items.append([F(e.r), F(e.g), F(e.b), F(e.a)])
		return {"t": "PoolColorArray", "v": items}
	fail("describe: unhandled type " + str(t))
	return null


# GDScript column vectors basis.x, basis.y, basis.z (NOT wire order).
func basis_list(b):
	return [F(b.x.x), F(b.x.y), F(b.x.z), F(b.y.x), F(b.y.y), F(b.y.z), F(b.z.x), F(b.z.y), F(b.z.z)]


# ---------------------------------------------------------------------------
# JSON writer (own implementation: fixed key order, ", " / ": " separators,
# every control character escaped, output always valid UTF-8)

func jstr(s):
	# Fast paths (C++ string functions; same output as the loop below) for the
	# large strings of big values: hex and decimal digits (optional leading
	# sign), and long ASCII text without control character, quote or backslash.
	if s.is_valid_hex_number(false):
		return "\"" + s + "\""
	if s.length() > 64 and s.find("\"") == -1 and s.find("\\") == -1 \
			and s.to_utf8().size() == s.length() and s.strip_escapes().length() == s.length():
		return "\"" + s + "\""
	var out = "\""
	var n = s.length()
	var start = 0
	for i in range(n):
		var c = s.ord_at(i)
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
		elif c < 0x20:
			rep = "\\u%04x" % c
		elif (c >= 0xD800 and c <= 0xDFFF) or c > 0x10FFFF:
			rep = "\\ufffd"  # not a Unicode scalar value: cannot be stored as UTF-8
		if rep != null:
			out += s.substr(start, i - start) + rep
			start = i + 1
	out += s.substr(start, n - start) + "\""
	return out


func J(v):
	var t = typeof(v)
	if t == TYPE_NIL:
		return "null"
	elif t == TYPE_BOOL:
		return "true" if v else "false"
	elif t == TYPE_INT:
		return str(v)
	elif t == TYPE_STRING:
		return jstr(v)
	elif t == TYPE_ARRAY:
		var parts = PoolStringArray()
		for e in v:
			parts.append(J(e))
		return "[" + parts.join(", ") + "]"
	elif t == TYPE_DICTIONARY:
		var parts = PoolStringArray()
		for k in v.keys():
			parts.append(jstr(k) + ": " + J(v[k]))
		return "{" + parts.join(", ") + "}"
	fail("J: unsupported type " + str(t))
	return "null"


# ---------------------------------------------------------------------------
# decoding with the engine's verdict

func log_len():
	var f = File.new()
	if f.open(log_path, File.READ) != OK:
		fail("cannot open stderr log " + log_path)
		return 0
	var n = f.get_len()
	f.close()
	return n


func log_since(off):
	var f = File.new()
	if f.open(log_path, File.READ) != OK:
		fail("cannot open stderr log " + log_path)
		return ""
	var n = f.get_len()
	f.seek(off)
	var buf = f.get_buffer(n - off)
	f.close()
	return buf.get_string_from_utf8()


# Parses the stderr produced by one decode. `wrapper` identifies the line the
# public API prints when decode_variant() returned an error. The error code is
# the one named in the first ERR_FAIL_* message raised inside
# core/io/marshalls.cpp ("... Returned: ERR_X" / "Method failed. Returning: ERR_X"):
# decode_variant() propagates the innermost error unchanged (its own
# "Error when trying to decode Variant." messages name no code).
# Returns {"failed": bool, "error": int, "first": that ERROR line or null}.
func classify(text, wrapper):
	var failed = false
	var first = null
	var code = OK
	var lines = text.split("\n")
	for i in range(lines.size()):
		var l = lines[i]
		if not l.begins_with("ERROR: "):
			continue
		var at = lines[i + 1] if i + 1 < lines.size() else ""
		# 3.2.3 names the function in the ERROR line ("ERROR: f: ..."); 3.4+ on the next
		# line ("   at: f (file:line)").
		if l.find(wrapper) != -1 or at.find(" " + wrapper.trim_suffix(":") + " (") != -1:
			failed = true
		if first != null:
			continue
		if at.find("core/io/marshalls.cpp") == -1:
			continue
		var name = ""
		var p = l.rfind("Returned: ")
		if p != -1:
			name = l.substr(p + 10, l.length()).strip_edges()
		else:
			p = l.rfind("Returning: ")
			if p != -1:
				name = l.substr(p + 11, l.length()).strip_edges()
		if name == "":
			continue
		first = l
		if ERR_NAMES.has(name):
			code = ERR_NAMES[name]
		else:
			fail("unknown error name in: " + l)
			code = -1
	if not failed:
		code = OK
	elif first == null:
		fail("decode failed without a marshalls.cpp error message: " + text)
		code = -1
	return {"failed": failed, "error": code, "first": first}


# Route 1 (primary): one packet in a PacketPeerStream -> PacketPeer.get_var().
# PacketPeer::get_var() calls decode_variant() over the whole packet exactly like
# bytes2var() (trailing bytes ignored).
func decode_pps(bytes, allow):
	var pre = StreamPeerBuffer.new()
	pre.put_u32(bytes.size())
	if bytes.size() > 0:
		pre.put_data(bytes)
	var spb = StreamPeerBuffer.new()
	spb.data_array = pre.data_array
	var pps = PacketPeerStream.new()
	# 1 MiB, or enough for a larger packet (rounded up to a power of 2 by the engine)
	pps.input_buffer_max_size = max(1 << 20, bytes.size() + 4)
	pps.stream_peer = spb
	pps.allow_object_decoding = allow
	if pps.get_available_packet_count() != 1:
		fail("PacketPeerStream did not see exactly one packet")
	var off = log_len()
	var v = pps.get_var(allow)
	var res = classify(log_since(off), "_bnd_get_var:")
	res["value"] = v
	return res


# Route 2 (cross-check): Marshalls.base64_to_variant().
func decode_b64(bytes, allow):
	var b64 = Marshalls.raw_to_base64(bytes)
	var off = log_len()
	var v = Marshalls.base64_to_variant(b64, allow)
	var res = classify(log_since(off), "base64_to_variant:")
	res["value"] = v
	return res


# Decodes with both routes, checks they agree, returns the PacketPeer result
# plus "desc" (null on error).
func engine_decode(name, bytes, allow):
	var a = decode_pps(bytes, allow)
	var b = decode_b64(bytes, allow)
	if a.failed != b.failed or a.error != b.error:
		fail("%s: routes disagree: packetpeer=%s/%s base64=%s/%s" % [name, a.failed, a.error, b.failed, b.error])
	var desc = null
	if not a.failed:
		desc = describe(a.value)
		var desc_b = describe(b.value)
		if J(desc) != J(desc_b):
			fail(name + ": routes decode to different values")
		if bytes.size() > 0 and not a.failed:
			# bytes2var is safe to call when the decode succeeds
			var c = bytes2var(bytes, allow)
			if J(describe(c)) != J(desc):
				fail(name + ": bytes2var decodes to a different value")
	a["desc"] = desc
	return a
