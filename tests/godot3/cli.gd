# Engine truth for the gdwire CLI (tests/cli.rs): what Godot 3.2.3's bytes2var accepts
# (validate's default verdict) and the bytes var2str writes for text that is not valid
# Unicode (dump's text output).
#
# Run through tests/godot3/regenerate_cli.sh, which sets GDWIRE_CLI_OUT. One JSON object per
# line: {"name", "hex" (the input), "verdict" ("ok" when bytes2var returned a value of the
# expected type), "type" (typeof of the result), "text_hex" (the UTF-8 bytes the engine
# stores for var2str of the result, via File.store_string; omitted for the deep chains)}.
extends SceneTree

var rows = []


func _init():
	run()
	var f = File.new()
	if f.open(OS.get_environment("GDWIRE_CLI_OUT"), File.WRITE) != OK:
		printerr("GDWIRE-CLI-FAILURE: cannot write the output")
		quit(1)
		return
	for r in rows:
		f.store_string(r + "\n")
	f.close()
	print("GDWIRE-CLI-OK ", rows.size())
	quit(0)


func u32(x):
	var b = StreamPeerBuffer.new()
	b.put_u32(x)
	return b.data_array


func string_bytes(utf8):
	var b = u32(4) + u32(utf8.size()) + utf8
	while b.size() % 4 != 0:
		b.append(0)
	return b


func text_hex(v):
	var path = "user://gdwire_cli_text.txt"
	var f = File.new()
	f.open(path, File.WRITE)
	f.store_string(var2str(v))
	f.close()
	f.open(path, File.READ)
	var out = f.get_buffer(f.get_len())
	f.close()
	return out.hex_encode()


func add(name, bytes, with_text):
	var v = bytes2var(bytes)
	var verdict = "ok" if v != null else "rejected"
	var row = "{\"name\": \"" + name + "\", \"hex\": \"" + bytes.hex_encode() + "\", \"verdict\": \"" \
		+ verdict + "\", \"type\": " + str(typeof(v))
	if with_text:
		row += ", \"text_hex\": \"" + text_hex(v) + "\""
	rows.append(row + "}")


func run():
	# Strings whose code points are not valid Unicode scalar values.
	var lone_high = PoolByteArray([0xED, 0xA0, 0x80])
	var lone_low = PoolByteArray([0xED, 0xBF, 0xBF])
	var pair = PoolByteArray([0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80])  # U+D83D U+DE00 (CESU-8)
	var above = PoolByteArray([0xF4, 0x90, 0x80, 0x80])  # U+110000
	var mixed = PoolByteArray([0x61, 0xED, 0xA0, 0x80, 0x22, 0x5C, 0x0A, 0x62])  # a, U+D800, ", \, LF, b
	add("string_lone_high_surrogate", string_bytes(lone_high), true)
	add("string_lone_low_surrogate", string_bytes(lone_low), true)
	add("string_surrogate_pair_cesu8", string_bytes(pair), true)
	add("string_above_u10ffff", string_bytes(above), true)
	add("string_surrogate_escaped_neighbours", string_bytes(mixed), true)
	# In an array, as a dictionary key, in a PoolStringArray, in a NodePath.
	add("array_with_surrogate", u32(19) + u32(1) + string_bytes(lone_high), true)
	add("dictionary_key_surrogate", u32(18) + u32(1) + string_bytes(lone_high) + u32(2) + u32(7), true)
	add("pool_string_array_surrogate", u32(23) + u32(1) + u32(4) + lone_high + PoolByteArray([0]), true)
	# Depth: 3.2.3 has no nesting limit. A chain of 10,000 one-element arrays ending in [].
	var deep = PoolByteArray()
	for i in range(10000):
		deep += u32(19) + u32(1)
	deep += u32(19) + u32(0)
	add("array_chain_10000", deep, false)
	# A RID sent with an 8-byte payload (Godot 4 layout): 3.2.3's RID has none, the rest is
	# ignored.
	add("rid_with_payload", u32(16) + u32(5) + u32(0), false)
