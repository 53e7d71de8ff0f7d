# The engine reads gdwire's text back (driven by tests/godot3_interop.rs).
#
# Environment (both required):
#   GDWIRE_PARSE_IN    records of u32 little-endian length + UTF-8 text (gdwire::text of a value)
#   GDWIRE_PARSE_OUT   for each record, in order: u32 little-endian length +
#                      var2bytes(str2var(text))
# Prints GDWIRE-PARSE-BACK-OK on stdout when every record was processed.
# All work happens in run(): a script error directly inside _init() hangs the engine.
extends SceneTree


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1  # a GDScript runtime error aborted run()
	quit(code)


func run():
	var f = File.new()
	if f.open(OS.get_environment("GDWIRE_PARSE_IN"), File.READ) != OK:
		printerr("GDWIRE-PARSE-BACK-FAILURE: cannot read GDWIRE_PARSE_IN")
		return 1
	var out = File.new()
	if out.open(OS.get_environment("GDWIRE_PARSE_OUT"), File.WRITE) != OK:
		printerr("GDWIRE-PARSE-BACK-FAILURE: cannot write GDWIRE_PARSE_OUT")
		return 1
	var total = f.get_len()
	while f.get_position() < total:
		var text = f.get_buffer(f.get_32()).get_string_from_utf8()
		var bytes = var2bytes(str2var(text))
		out.store_32(bytes.size())
		out.store_buffer(bytes)
	f.close()
	out.close()
	print("GDWIRE-PARSE-BACK-OK")
	return 0
