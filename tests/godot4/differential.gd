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


func _initialize():
	var text = FileAccess.get_file_as_string("res://cases.txt")
	if text == "":
		printerr("GDWIRE-DIFF-FAILURE: no res://cases.txt")
		status = 1
		return
	var index = 0
	for line in text.split("\n", false):
		var bytes = line.hex_decode() if line != "-" else PackedByteArray()
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


func _process(_delta):
	quit(status)
	return true
