# Differential run for gdwire (driven by tests/godot3/differential.py): the engine decodes
# mutated fixtures and reports its verdict, error code and the decoded value.
#
# Environment (all required):
#   GDWIRE_DIFF_IN       input: one line per case, "<0|1 allow_objects> <hex>"
#   GDWIRE_DIFF_START    index of the first line to process (the driver restarts the engine
#                        after the case it crashed on)
#   GDWIRE_DIFF_OUT      output JSON Lines, appended: {"index", "verdict", "error", "desc"}
#   GDWIRE_STDERR_LOG    absolute path of the file the engine's stderr is redirected to;
#                        decode errors and their codes are read back from it exactly as
#                        generate.gd does (README.md, "Error codes")
#
# Each case is decoded through common.gd's two routes (PacketPeer.get_var and
# Marshalls.base64_to_variant, which must agree) and, on success, bytes2var. Unlike
# generate.gd, a disagreement between routes or an error without a marshalls.cpp code does
# not abort: it is recorded (error -1) for the Rust test to see. The output file is closed
# after every case, so a crash loses nothing before the crashing case.
# All work happens in run(): a script error directly inside _init() hangs the engine.
extends SceneTree

var common = preload("res://common.gd").new()
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
	common.log_path = OS.get_environment("GDWIRE_STDERR_LOG")
	common.fail_target = funcref(self, "note")
	var fin = File.new()
	if fin.open(env_in, File.READ) != OK:
		printerr("GDWIRE-DIFF-FAILURE: cannot read " + env_in)
		return 1
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
			bytes = common_hex(parts[1])
		problems.clear()
		var a = common.decode_pps(bytes, allow)
		var b = common.decode_b64(bytes, allow)
		var error = a.error
		if a.failed != b.failed or a.error != b.error:
			error = -1
			problems.append("routes disagree")
		var desc = null
		if not a.failed:
			desc = common.describe(a.value)
			if common.J(desc) != common.J(common.describe(b.value)):
				problems.append("routes decode differently")
			if bytes.size() > 0 and common.J(common.describe(bytes2var(bytes, allow))) != common.J(desc):
				problems.append("bytes2var decodes differently")
		var out = {
			"index": index,
			"verdict": "error" if a.failed else "ok",
			"error": error,
			"desc": desc,
			"problems": problems.duplicate(),
		}
		# 3.2.3's File has no flush(): reopen per case so a crash loses nothing written.
		var fout = File.new()
		if fout.open(env_out, File.READ_WRITE) != OK:
			printerr("GDWIRE-DIFF-FAILURE: cannot write " + env_out)
			return 1
		fout.seek_end()
		fout.store_string(common.J(out) + "\n")
		fout.close()
		index += 1
	print("GDWIRE-DIFF-OK")
	return 0


func common_hex(h):
	var out = PoolByteArray()
	var digits = "0123456789abcdef"
	for i in range(0, h.length(), 2):
		out.append(digits.find(h[i]) * 16 + digits.find(h[i + 1]))
	return out
