# Differential run for gdwire (driven by tests/pandemonium/differential.py): the engine decodes
# mutated fixtures and reports its verdict, error code and the decoded value's var2str.
#
# Environment (all required):
#   GDWIRE_DIFF_IN       input: one line per case, "<0|1 allow_objects> <hex>"
#   GDWIRE_DIFF_START    index of the first line to process (the driver restarts the engine
#                        after the case it crashed on)
#   GDWIRE_DIFF_OUT      output JSON Lines, appended: {"index", "verdict", "error", "desc"}
#   GDWIRE_STDERR_LOG    absolute path of the file the engine's stderr is redirected to
#
# Each case is decoded through verdict.gd's two routes (PacketPeer.get_var and
# Marshalls.base64_to_variant), which must agree; a disagreement or an error without a
# marshalls.cpp code is recorded (error -1) for the Rust test to see. "desc" is the var2str
# of the decoded value, hex-encoded UTF-8 (a mutated value can hold any text).
# All work happens in run(): a script error directly inside _init() hangs the engine.
extends SceneTree

var verdict = preload("res://verdict.gd").new()
var problems = []


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1
	quit(code)


func note(msg):
	problems.append(msg)


func run():
	var env_in = OS.get_environment("GDWIRE_DIFF_IN")
	var env_out = OS.get_environment("GDWIRE_DIFF_OUT")
	var start = int(OS.get_environment("GDWIRE_DIFF_START"))
	verdict.log_path = OS.get_environment("GDWIRE_STDERR_LOG")
	verdict.fail_target = funcref(self, "note")
	var fin = File.new()
	if fin.open(env_in, File.READ) != OK:
		printerr("GDWIRE-DIFF-FAILURE: cannot read " + env_in)
		return 1
	var fout = File.new()
	if fout.open(env_out, File.READ_WRITE) != OK:
		printerr("GDWIRE-DIFF-FAILURE: cannot write " + env_out)
		return 1
	fout.seek_end()
	var index = 0
	while not fin.eof_reached():
		var line = fin.get_line()
		if line == "":
			continue
		if index < start:
			index += 1
			continue
		var parts = line.split(" ", true)
		var allow = parts[0] == "1"
		var bytes = PoolByteArray()
		if parts.size() > 1 and parts[1] != "":
			bytes = hex2bytes(parts[1])
		problems.clear()
		var a = verdict.decode_pps(bytes, allow)
		var b = verdict.decode_b64(bytes, allow)
		var error = a.error
		if a.failed != b.failed or a.error != b.error:
			error = -1
			problems.append("routes disagree")
		var desc = null
		if not a.failed:
			desc = var2str(a.value)
			if var2str(b.value) != desc:
				problems.append("routes decode differently")
			desc = desc.to_utf8().hex_encode()
		var out = {
			"index": index,
			"verdict": "error" if a.failed else "ok",
			"error": error,
			"desc": desc,
			"problems": problems.duplicate(),
		}
		fout.store_string(to_json(out) + "\n")
		# flushed per case, so that a crash loses nothing written before it
		fout.flush()
		index += 1
	fout.close()
	print("GDWIRE-DIFF-OK")
	return 0


func hex2bytes(h):
	var out = PoolByteArray()
	var digits = "0123456789abcdef"
	for i in range(0, h.length(), 2):
		out.append(digits.find(h[i]) * 16 + digits.find(h[i + 1]))
	return out
