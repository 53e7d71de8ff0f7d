# The engine reads gdwire's text back (driven by tests/godot4_interop.rs). res://in.bin holds
# records of u32 LE length + UTF-8 text (gdwire::text of a value); for each the engine writes
# to out.bin (same order) u32 LE length + var_to_bytes(str_to_var(text)), and prints
# GDWIRE-PARSE-BACK-OK <count> at the end.
extends SceneTree


func _initialize():
	var input = StreamPeerBuffer.new()
	input.data_array = FileAccess.get_file_as_bytes("res://in.bin")
	var out = StreamPeerBuffer.new()
	var count = 0
	while input.get_position() < input.get_size():
		var text = input.get_data(input.get_u32())[1].get_string_from_utf8()
		var bytes = var_to_bytes(str_to_var(text))
		out.put_u32(bytes.size())
		out.put_data(bytes)
		count += 1
	var data = out.data_array
	var chunk = 48000
	for i in range(0, data.size(), chunk):
		print("GDWIRE-FILE:out.bin:", Marshalls.raw_to_base64(data.slice(i, min(i + chunk, data.size()))))
	print("GDWIRE-PARSE-BACK-OK ", count)


func _process(_delta):
	quit(0)
	return true
