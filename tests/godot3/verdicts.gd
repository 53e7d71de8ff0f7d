# The engine's verdict on each input (run by tests/godot3_versions.rs): whether decode_variant()
# accepts it, its Error code, and for a String its code points. Made for the rules that
# changed between Godot 3 releases (nesting limit, text), judged by whichever 3.x runs it.
#
# Environment (all required):
#   GDWIRE_VERDICTS_IN   inputs, each two u32 little-endian words (1 when objects are
#                        allowed, else 0; the length) then the bytes
#   GDWIRE_VERDICTS_OUT  JSON Lines output, one line per input, in input order:
#                        {"index": i, "ok": bool, "error": <Godot Error, 0 when ok,
#                         -1 when the engine's message names none>,
#                         "type": <typeof of the value>, "code_points": [..] (Strings),
#                         "desc": DESC of the value (README.md)}
#   GDWIRE_STDERR_LOG    the file the engine's stderr goes to (error codes are read back
#                        from it, as generate.gd does: README.md, "Error codes")
#   GDWIRE_VERDICTS_START  (optional) the index of the first input to judge: the lines are
#                        appended to the output, so a run can go on after an engine crash
# Decoding goes through PacketPeer.get_var() (common.decode_pps).
# Prints GDWIRE-VERDICTS-OK when every input was judged.
# All work happens in run(): a script error directly inside _init() hangs the engine.
extends SceneTree

var common = preload("res://common.gd").new()
var failures = []


func _init():
	var code = run()
	quit(code)


func fail(msg):
	# 3.4+ prints some refusals with a message instead of the failed condition and its
	# "Returned: CODE" (e.g. "Variant is too deep. Bailing."): the verdict stands, the code
	# is reported as -1.
	if msg.begins_with("decode failed without a marshalls.cpp error message"):
		return
	failures.append(msg)
	printerr("GDWIRE-VERDICTS-FAILURE: " + msg)


func run():
	var in_path = OS.get_environment("GDWIRE_VERDICTS_IN")
	var out_path = OS.get_environment("GDWIRE_VERDICTS_OUT")
	var log_path = OS.get_environment("GDWIRE_STDERR_LOG")
	if in_path == "" or out_path == "" or log_path == "":
		fail("GDWIRE_VERDICTS_IN, GDWIRE_VERDICTS_OUT and GDWIRE_STDERR_LOG must be set")
		return 2
	common.log_path = log_path
	common.fail_target = funcref(self, "fail")
	var f = File.new()
	if f.open(in_path, File.READ) != OK:
		fail("cannot read " + in_path)
		return 1
	var start = int(OS.get_environment("GDWIRE_VERDICTS_START"))
	var out = File.new()
	if start == 0:
		if out.open(out_path, File.WRITE) != OK:
			fail("cannot write " + out_path)
			return 1
		out.close()
	var total = f.get_len()
	var index = 0
	while f.get_position() + 8 <= total:
		var allow = f.get_32() == 1
		var bytes = f.get_buffer(f.get_32())
		if index < start:
			index += 1
			continue
		var r = common.decode_pps(bytes, allow)
		var line = {"index": index, "ok": not r.failed, "error": r.error, "type": null,
				"code_points": null, "desc": null}
		if not r.failed:
			line["type"] = typeof(r.value)
			line["desc"] = common.describe(r.value)
			if typeof(r.value) == TYPE_STRING:
				var points = []
				for i in range(r.value.length()):
					points.append(r.value.ord_at(i))
				line["code_points"] = points
		# Each line reaches the file before the next input is decoded: after a crash, the
		# lines written are exactly those of the inputs judged.
		if out.open(out_path, File.READ_WRITE) != OK:
			fail("cannot write " + out_path)
			return 1
		out.seek_end()
		out.store_string(common.J(line) + "\n")
		out.close()
		index += 1
	f.close()
	if failures.size() > 0:
		return 1
	print("GDWIRE-VERDICTS-OK")
	return 0
