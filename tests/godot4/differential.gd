# Decoding half of the Godot 4.6 differential run (driven by differential.py): every line of
# res://cases.txt is a hex input, decoded with bytes_to_var (mode 0) and
# bytes_to_var_with_objects (mode 1). A release build shows a decode error only as `ERROR:`
# lines on stderr, so each decode is bracketed by marker lines there
# ("GDWIRE-MARK:<case>:<mode>" and "GDWIRE-MARK:<case>:<mode>:end") and differential.py reads
# the error code from the lines in between. On stdout, per decode:
#   R <case> <mode> <typeof> <var_to_bytes_with_objects of the result, hex, or "-">
# The re-encoding uses full objects so that nothing is lost: an EncodedObjectAsID comes back
# as that class with its object_id property, a typed container keeps its class name.
extends SceneTree

var status = 0
var has_hex_decode = Engine.get_version_info().hex >= 0x040100


func _initialize():
	var text = FileAccess.get_file_as_string("res://cases.txt")
	if text == "":
		printerr("GDWIRE-DIFF-FAILURE: no res://cases.txt")
		status = 1
		return
	var index = 0
	for line in text.split("\n", false):
		var bytes = hex2bytes(line) if line != "-" else PackedByteArray()
		for mode in [0, 1]:
			printerr("GDWIRE-MARK:%d:%d" % [index, mode])
			var v = bytes_to_var_with_objects(bytes) if mode == 1 else bytes_to_var(bytes)
			printerr("GDWIRE-MARK:%d:%d:end" % [index, mode])
			var reenc = "-"
			if typeof(v) != TYPE_NIL:
				reenc = var_to_bytes_with_objects(v).hex_encode()
			print("R %d %d %d %s" % [index, mode, typeof(v), reenc])
		index += 1
	print("GDWIRE-DIFF-OK %d" % index)


# String.hex_decode() where the engine has it (4.1+), by hand in 4.0. Called on an untyped
# value so that 4.0's GDScript compiles the call; the same allocations as before in newer
# engines keep the (uninitialised, pre-4.6.3) NodePath pad bytes of the committed 4.6 run.
func hex2bytes(h: String) -> PackedByteArray:
	if has_hex_decode:
		var v: Variant = h
		return v.hex_decode()
	var out = PackedByteArray()
	out.resize(h.length() / 2)
	for i in out.size():
		out[i] = h.substr(i * 2, 2).hex_to_int()
	return out


func _process(_delta):
	quit(status)
	return true
