# The engine reads what gdwire writes (driven by tests/godot4_interop.rs). res://in.bin holds
# records: u8 mode (0: bytes_to_var, 1: bytes_to_var_with_objects), then u32 LE length +
# gdwire's bytes of a value, its JSON (gdwire::json) and its text form (gdwire::text). For each
# record the engine sends back (file out.bin, same order) u32 flags: bit 0 decoded, bit 1
# var_to_bytes[_with_objects] of the decoded value == gdwire's bytes, bit 2 var_to_str of it ==
# gdwire's text, bit 3 var_to_bytes[_with_objects] of JSON.to_native(JSON.parse_string(json),
# mode == 1) == gdwire's bytes (never set before 4.4: no JSON.to_native); then three u32 length + data blocks with what the engine made
# in those three cases, each empty when equal (so large values do not travel back).
extends SceneTree

var status = 0
# JSON.to_native came with 4.4; older engines (tests/godot4/older/) run this script too. It is
# called by name: their GDScript refuses to compile the unknown static call.
var has_json_to_native = Engine.get_version_info().hex >= 0x040400


func put_block(out: StreamPeerBuffer, bytes: PackedByteArray):
	out.put_u32(bytes.size())
	if bytes.size() > 0:
		out.put_data(bytes)


func _initialize():
	var input = StreamPeerBuffer.new()
	input.data_array = FileAccess.get_file_as_bytes("res://in.bin")
	var out = StreamPeerBuffer.new()
	var count = 0
	while input.get_position() < input.get_size():
		var mode = input.get_u8()
		var bytes = input.get_data(input.get_u32())[1]
		var json_text = input.get_data(input.get_u32())[1].get_string_from_utf8()
		var our_text = input.get_data(input.get_u32())[1]
		var full = mode == 1
		var v = bytes_to_var_with_objects(bytes) if full else bytes_to_var(bytes)
		var flags = 0
		if typeof(v) != TYPE_NIL or bytes.decode_u32(0) == 0:
			flags |= 1
		var reenc = var_to_bytes_with_objects(v) if full else var_to_bytes(v)
		var text = var_to_str(v).to_utf8_buffer()
		var jreenc = PackedByteArray()  # engines without JSON.to_native (before 4.4): empty
		if has_json_to_native:
			var native = JSON.new().call("to_native", JSON.parse_string(json_text), full)
			jreenc = var_to_bytes_with_objects(native) if full else var_to_bytes(native)
		var made = [reenc, text, jreenc]
		var ours = [bytes, our_text, bytes]
		for i in 3:
			if made[i] == ours[i]:
				flags |= 2 << i
		out.put_u32(flags)
		for i in 3:
			put_block(out, PackedByteArray() if flags & (2 << i) else made[i])
		count += 1
	var data = out.data_array
	var chunk = 48000
	for i in range(0, data.size(), chunk):
		print("GDWIRE-FILE:out.bin:", Marshalls.raw_to_base64(data.slice(i, min(i + chunk, data.size()))))
	print("GDWIRE-INTEROP-OK ", count)


func _process(_delta):
	quit(status)
	return true
