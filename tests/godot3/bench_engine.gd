# Times the engine's own decoder and encoder (Godot 3.2.3 `bytes2var` / `var2bytes`, the C++
# `decode_variant` / `encode_variant`) on the benchmark datasets of benches/throughput.rs.
# Run it through bench_engine.sh, which writes the payload files first.
#
# Environment:
#   GDWIRE_BENCH_PAYLOADS  directory holding <name>.g3.bin: store_var frames (u32 LE length,
#                          var2bytes payload), as written by the throughput bench
#   GDWIRE_BENCH_DATASETS  space-separated dataset names
#   GDWIRE_BENCH_RUNS      timed runs per operation (default 5); the median is printed
#   GDWIRE_BENCH_SECONDS   minimum length of one run in seconds (default 0.5)
#
# Output (stdout), one line per dataset and operation, MB = 10^6 bytes of payload (frame
# prefixes excluded, the same bytes the Rust bench counts):
#   <dataset>\tdecode\t<median MB/s>      bytes2var over every frame
#   <dataset>\tencode\t<median MB/s>      var2bytes of every decoded value
#   <dataset>\tloop_ns_per_frame\t<ns>   the same loop without the call (interpreter cost)
# then GDWIRE-BENCH-OK. The per-frame GDScript loop overhead is included in the MB/s (it is
# small next to the decode itself except for tiny frames; see docs/performance.md).
extends SceneTree


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1
	quit(code)


func median(xs):
	xs.sort()
	return xs[xs.size() / 2]


func time_decode(frames, total, seconds):
	var reps = 0
	var start = OS.get_ticks_usec()
	var elapsed = 0
	while elapsed < seconds * 1000000.0:
		for f in frames:
			var v = bytes2var(f)
		reps += 1
		elapsed = OS.get_ticks_usec() - start
	return float(total) * reps / elapsed  # bytes per µs = MB/s


# The interpreter's own cost per frame (the same loop with a plain assignment instead of
# the decode), in ns per frame: reported so it can be judged against the decode times.
func time_loop(frames, seconds):
	var reps = 0
	var start = OS.get_ticks_usec()
	var elapsed = 0
	while elapsed < seconds * 1000000.0:
		for f in frames:
			var v = f
		reps += 1
		elapsed = OS.get_ticks_usec() - start
	return 1000.0 * elapsed / (reps * frames.size())


func time_encode(values, total, seconds):
	var reps = 0
	var start = OS.get_ticks_usec()
	var elapsed = 0
	while elapsed < seconds * 1000000.0:
		for v in values:
			var b = var2bytes(v)
		reps += 1
		elapsed = OS.get_ticks_usec() - start
	return float(total) * reps / elapsed


func run():
	var dir = OS.get_environment("GDWIRE_BENCH_PAYLOADS")
	var names = OS.get_environment("GDWIRE_BENCH_DATASETS").split(" ", false)
	var runs = 5
	if OS.get_environment("GDWIRE_BENCH_RUNS") != "":
		runs = int(OS.get_environment("GDWIRE_BENCH_RUNS"))
	var seconds = 0.5
	if OS.get_environment("GDWIRE_BENCH_SECONDS") != "":
		seconds = float(OS.get_environment("GDWIRE_BENCH_SECONDS"))
	for name in names:
		var f = File.new()
		if f.open(dir + "/" + name + ".g3.bin", File.READ) != OK:
			printerr("GDWIRE-BENCH-FAILURE: cannot open " + name)
			return 1
		var frames = []
		var values = []
		var total = 0
		while f.get_position() < f.get_len():
			var n = f.get_32()
			var bytes = f.get_buffer(n)
			frames.append(bytes)
			values.append(bytes2var(bytes))
			total += n
		f.close()
		# Check the engine re-encodes what it decoded byte for byte (same data as the bench).
		for i in range(frames.size()):
			if var2bytes(values[i]) != frames[i]:
				printerr("GDWIRE-BENCH-FAILURE: %s frame %d does not round-trip" % [name, i])
				return 1
		var dec = []
		var enc = []
		var loop = []
		for r in range(runs):
			dec.append(time_decode(frames, total, seconds))
			enc.append(time_encode(values, total, seconds))
			loop.append(time_loop(frames, seconds))
		print("%s\tdecode\t%.1f" % [name, median(dec)])
		print("%s\tencode\t%.1f" % [name, median(enc)])
		print("%s\tloop_ns_per_frame\t%.1f" % [name, median(loop)])
	print("GDWIRE-BENCH-OK")
	return 0
