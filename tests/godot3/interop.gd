# Live interop check for gdwire (run by tests/godot3_interop.rs): the engine
# decodes values written by the crate and reports what it decoded.
#
# Environment (all required):
#   GDWIRE_INTEROP_IN    file of values written by gdwire, each a u32 little-endian
#                        length then the var2bytes payload (the File.store_var layout)
#   GDWIRE_INTEROP_OUT   JSON Lines output, one line per input value, in input order
#   GDWIRE_STDERR_LOG    absolute path of the file the engine's stderr is redirected
#                        to: decode errors and their codes are read back from it,
#                        exactly as generate.gd does (README.md, "Error codes")
#
# Output line (key order fixed, written by common.gd's J()):
#   {"index": i, "ok": bool, "error": <Godot Error, 0 when ok>,
#    "full_objects": bool, "reencoded_hex": "<hex>", "text": "<var2str>",
#    "desc": DESC, "object_ids": [["<encoded id>", "<wrapper instance id>"], ...]}
# * ok: decode_variant() succeeded: the value is decoded by PacketPeer.get_var()
#   (PacketPeerStream, error code read from stderr: common.decode_pps()) and, when
#   that succeeds, by bytes2var(bytes, true), which must give the same var2str.
#   Objects are allowed (allow_objects = true). The reported value is bytes2var's.
# * reencoded_hex: var2bytes(decoded, full_objects), where full_objects is true iff
#   the decoded value contains a real object (anything but EncodedObjectAsID).
# * text: var2str(decoded). desc: describe(decoded) (README.md, DESC).
# * object_ids: every EncodedObjectAsID in the decoded value, depth first (Array
#   order; Dictionary keys() order, key before value; object properties in
#   storage order): get_object_id() and get_instance_id(), both as signed decimal.
#   3.2.3's var2bytes writes an EncodedObjectAsID as an object id of the *wrapper*
#   (its own instance id), not the id it carries; the test maps them.
# On failure: ok false, the error code, and null for the other fields.
#
# The script prints GDWIRE-INTEROP-OK on stdout when every value was processed;
# any problem is printed to stderr as GDWIRE-INTEROP-FAILURE: ...
# All work happens in run(): a script error directly inside _init() hangs the engine.
extends SceneTree

var common = preload("res://common.gd").new()
var failures = []


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1  # a GDScript runtime error aborted run()
	quit(code)


func fail(msg):
	failures.append(msg)
	printerr("GDWIRE-INTEROP-FAILURE: " + msg)


func is_wrapper(o):
	return o.get_class() == "EncodedObjectAsID"


# True iff v contains an object that is not an EncodedObjectAsID.
func has_full_object(v):
	var t = typeof(v)
	if t == TYPE_OBJECT:
		if v == null:
			return false
		if not is_wrapper(v):
			return true
		return false
	elif t == TYPE_ARRAY:
		for e in v:
			if has_full_object(e):
				return true
	elif t == TYPE_DICTIONARY:
		for k in v.keys():
			if has_full_object(k) or has_full_object(v[k]):
				return true
	return false


func collect_ids(v, out):
	var t = typeof(v)
	if t == TYPE_OBJECT:
		if v == null:
			return
		if is_wrapper(v):
			out.append([str(v.get_object_id()), str(v.get_instance_id())])
			return
		for p in v.get_property_list():
			if p.usage & PROPERTY_USAGE_STORAGE:
				collect_ids(v.get(p.name), out)
	elif t == TYPE_ARRAY:
		for e in v:
			collect_ids(e, out)
	elif t == TYPE_DICTIONARY:
		for k in v.keys():
			collect_ids(k, out)
			collect_ids(v[k], out)


func run():
	var in_path = OS.get_environment("GDWIRE_INTEROP_IN")
	var out_path = OS.get_environment("GDWIRE_INTEROP_OUT")
	var log_path = OS.get_environment("GDWIRE_STDERR_LOG")
	if in_path == "" or out_path == "" or log_path == "":
		printerr("GDWIRE-INTEROP-FAILURE: GDWIRE_INTEROP_IN, GDWIRE_INTEROP_OUT and GDWIRE_STDERR_LOG must be set")
		return 2
	common.log_path = log_path
	common.fail_target = funcref(self, "fail")

	var f = File.new()
	if f.open(in_path, File.READ) != OK:
		fail("cannot read " + in_path)
		return 1
	var out = File.new()
	if out.open(out_path, File.WRITE) != OK:
		fail("cannot write " + out_path)
		return 1
	var total = f.get_len()
	var index = 0
	while f.get_position() < total:
		if total - f.get_position() < 4:
			fail("value %d: truncated length prefix" % index)
			break
		var n = f.get_32()
		if n > total - f.get_position():
			fail("value %d: length %d runs past the end of the input" % [index, n])
			break
		var bytes = f.get_buffer(n)
		# decode_variant() verdict and error code through the PacketPeer route
		var r = common.decode_pps(bytes, true)
		var line = {"index": index, "ok": not r.failed, "error": r.error}
		var decoded = null
		var text = null
		if not r.failed:
			# bytes2var is safe to call when the decode succeeds; both routes must
			# give the same value (compared through var2str: cheap for 100k items)
			decoded = bytes2var(bytes, true)
			text = var2str(decoded)
			if var2str(r.value) != text:
				fail("value %d: PacketPeer.get_var and bytes2var decode different values" % index)
		if r.failed:
			line["full_objects"] = null
			line["reencoded_hex"] = null
			line["text"] = null
			line["desc"] = null
			line["object_ids"] = null
		else:
			var full = has_full_object(decoded)
			var ids = []
			collect_ids(decoded, ids)
			line["full_objects"] = full
			line["reencoded_hex"] = var2bytes(decoded, full).hex_encode()
			line["text"] = text
			line["desc"] = common.describe(decoded)
			line["object_ids"] = ids
		out.store_string(common.J(line) + "\n")
		index += 1
	f.close()
	out.close()
	print("interop: %d values, failures: %d" % [index, failures.size()])
	if failures.size() > 0:
		return 1
	print("GDWIRE-INTEROP-OK")
	return 0
