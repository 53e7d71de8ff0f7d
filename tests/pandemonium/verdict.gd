# The engine's verdict on one decode, read back from its own stderr: decode_variant()'s
# error code is not returned to scripts by any API of this engine line, so each decode is
# followed by reading the log from the offset it had before (stderr is unbuffered).
#
# The same routes as tests/godot3/common.gd's (which cannot be loaded here: its describe()
# names Godot 3 types, and splitting it would move the object ids its fixtures record).
# The host sets `log_path` (the file its stderr goes to) and `fail_target` (a FuncRef
# called with a message for every problem found).
extends Reference

var log_path = ""
var fail_target = null  # FuncRef(msg)

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
