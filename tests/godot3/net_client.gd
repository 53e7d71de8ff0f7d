# Network client for gdwire's example servers (run by tests/net_interop.rs).
#
# Environment:
#   GDWIRE_NET_MODE   "tcp" (StreamPeerTCP.put_var / get_var, u32 length prefix),
#                     "udp" (PacketPeerUDP.put_var / get_var, one raw value per datagram), or
#                     "framing" (no network: reports the bytes each API writes, see the end)
#   GDWIRE_NET_PORT   the server's port on 127.0.0.1 (tcp, udp)
#   GDWIRE_NET_TMP    a file the script may write (framing)
#
# Sends every Godot 3 type and more, receives one reply per value and checks it against
# what this script computes itself from the value it sent (examples/common/reply.rs):
#   {"index", "type" (= typeof), "name", "size", "sum", "echo" (the value sent back)}
# or, for a value the server must refuse (a full object, the server does not allow
# objects), {"index", "error", "code" (= ERR_UNAUTHORIZED), "offset"}.
#
# TCP also sends frames cut into several put_data() calls with pauses in between (so that
# they cross TCP segments and server reads), several frames in one put_data(), and packed
# arrays of more than 1 MB. UDP also checks what the engine does with a value too large
# for a datagram, and a reply the server cannot fit in one.
#
# Prints one report line on stdout:
#   GDWIRE-NET-REPORT {"mode": ..., "sent": n, "replies": n, "passed": n, "failed": n, ...}
# and every problem on stderr as GDWIRE-NET-FAILURE: ...
# All work happens in run(): a script error directly inside _init() hangs the engine.
extends SceneTree

const REPLY_TIMEOUT_MS = 15000
const CONNECT_TIMEOUT_MS = 5000

var common = preload("res://common.gd").new()
var failures = []
var sent = 0  # values put on the wire (= replies expected)
var replies = 0
var passed = 0
var report = {}
var keep_alive = []  # objects sent by id stay alive until the end

# The Godot 3 type names (Variant::get_type_name) by typeof().
const TYPE_NAMES = ["Nil", "bool", "int", "float", "String", "Vector2", "Rect2", "Vector3",
	"Transform2D", "Plane", "Quat", "AABB", "Basis", "Transform", "Color", "NodePath", "RID",
	"Object", "Dictionary", "Array", "PoolByteArray", "PoolIntArray", "PoolRealArray",
	"PoolStringArray", "PoolVector2Array", "PoolVector3Array", "PoolColorArray"]


func _init():
	var code = run()
	if typeof(code) != TYPE_INT:
		code = 1  # a GDScript runtime error aborted run()
	quit(code)


func fail(msg):
	failures.append(msg)
	printerr("GDWIRE-NET-FAILURE: " + msg)


# ---------------------------------------------------------------------------
# the values

# One of every Godot 3 type, with components chosen so that every float sum is exact
# whatever the order of the additions (small multiples of 1/8).
func small_values():
	var node = Node.new()
	keep_alive.append(node)
	var names = {}
	var v = [
		null, true, false, 0, -7, 2147483647, -2147483648, 4294967296, -9223372036854775807 - 1,
		0.5, -0.0, 1.0 / 3.0, 1e300, INF, -INF, NAN,
		"", "hello", "héllo 中文 🎮", "quit?",
		"0123456789".repeat(100),
		Vector2(1.5, -2.25),
		Rect2(1, 2, 3.5, -4),
		Vector3(0.125, 2, -3),
		Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5.5, -6)),
		Plane(Vector3(0, 1, 0), -2.5),
		Quat(0.5, -0.5, 0.25, 1),
		AABB(Vector3(1, 2, 3), Vector3(4, 5, 6.5)),
		Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9.5)),
		Transform(Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)), Vector3(10, -11, 12.25)),
		Color(0.25, 0.5, 0.75, 1),
		NodePath("/root/a:b"), NodePath("../x/y:prop:sub"), NodePath(""),
		RID(),
		node,
		{}, {"hp": 100, 1: [1, 2], Vector2(1, 2): {"nested": null}},
		[], [1, "a", [2.5, [null, {"k": PoolIntArray([1, 2])}]], Color(1, 0, 0)],
		PoolByteArray(), PoolByteArray([0, 1, 254, 255, 7]),
		PoolIntArray([1, -2, 2147483647, -2147483648]),
		PoolRealArray([0.5, -1.25, 1024.0]),
		PoolStringArray(["a", "", "é", "🎮 x"]),
		PoolVector2Array([Vector2(1, 2), Vector2(-0.5, 0.25)]),
		PoolVector3Array([Vector3(1, 2, 3), Vector3(-4, 5.5, 0)]),
		PoolColorArray([Color(0, 0.5, 1, 1), Color(0.25, 0.25, 0.25, 0.5)]),
	]
	return v


# Packed arrays of more than 1 MB each (TCP only: a datagram holds 65,507 bytes).
func big_values():
	var bytes = PoolByteArray()
	bytes.resize(1500000)
	for i in range(bytes.size()):
		bytes[i] = (i * 31 + 7) % 256
	var ints = PoolIntArray()
	ints.resize(300000)
	for i in range(ints.size()):
		ints[i] = i * 7919 - 1000000
	var reals = PoolRealArray()
	reals.resize(300000)
	for i in range(reals.size()):
		reals[i] = (i % 1000) * 0.25 - 100.0
	var v3 = PoolVector3Array()
	v3.resize(100000)
	for i in range(v3.size()):
		v3[i] = Vector3(i % 100, -(i % 7), (i % 16) * 0.125)
	var text = "gdwire ".repeat(200000)  # 1.4 MB String
	return [bytes, ints, reals, v3, text]


# ---------------------------------------------------------------------------
# what the reply must say

func expected_size(v):
	var t = typeof(v)
	if t == TYPE_STRING:
		return v.length()
	if t == TYPE_NODE_PATH:
		return v.get_name_count() + v.get_subname_count()
	if t == TYPE_DICTIONARY or t == TYPE_ARRAY or t >= TYPE_RAW_ARRAY:
		return v.size()
	return 0


func code_point_sum(s):
	var n = 0
	for i in range(s.length()):
		n += s.ord_at(i)
	return n


func expected_sum(v):
	var t = typeof(v)
	var s = 0
	match t:
		TYPE_NIL, TYPE_RID:
			return 0
		TYPE_BOOL:
			return 1 if v else 0
		TYPE_INT, TYPE_REAL:
			return v
		TYPE_STRING:
			return code_point_sum(v)
		TYPE_NODE_PATH:
			for i in range(v.get_name_count()):
				s += code_point_sum(v.get_name(i))
			for i in range(v.get_subname_count()):
				s += code_point_sum(v.get_subname(i))
			return s
		TYPE_OBJECT:
			return v.get_instance_id()
		TYPE_VECTOR2:
			return v.x + v.y
		TYPE_RECT2:
			return v.position.x + v.position.y + v.size.x + v.size.y
		TYPE_VECTOR3:
			return v.x + v.y + v.z
		TYPE_TRANSFORM2D:
			return v.x.x + v.x.y + v.y.x + v.y.y + v.origin.x + v.origin.y
		TYPE_PLANE:
			return v.normal.x + v.normal.y + v.normal.z + v.d
		TYPE_QUAT:
			return v.x + v.y + v.z + v.w
		TYPE_AABB:
			return v.position.x + v.position.y + v.position.z + v.size.x + v.size.y + v.size.z
		TYPE_BASIS:
			return basis_sum(v)
		TYPE_TRANSFORM:
			return basis_sum(v.basis) + v.origin.x + v.origin.y + v.origin.z
		TYPE_COLOR:
			return v.r + v.g + v.b + v.a
		TYPE_DICTIONARY:
			for k in v.keys():
				s += typeof(k) + typeof(v[k])
			return s
		TYPE_ARRAY:
			for e in v:
				s += typeof(e)
			return s
		TYPE_RAW_ARRAY, TYPE_INT_ARRAY:
			for e in v:
				s += e
			return s
		TYPE_REAL_ARRAY:
			s = 0.0
			for e in v:
				s += e
			return s
		TYPE_STRING_ARRAY:
			for e in v:
				s += code_point_sum(e)
			return s
		TYPE_VECTOR2_ARRAY:
			s = 0.0
			for e in v:
				s += e.x + e.y
			return s
		TYPE_VECTOR3_ARRAY:
			s = 0.0
			for e in v:
				s += e.x + e.y + e.z
			return s
		TYPE_COLOR_ARRAY:
			s = 0.0
			for e in v:
				s += e.r + e.g + e.b + e.a
			return s
	fail("expected_sum: unhandled type %d" % t)
	return null


func basis_sum(b):
	return b.x.x + b.x.y + b.x.z + b.y.x + b.y.y + b.y.z + b.z.x + b.z.y + b.z.z


func same_number(a, b):
	if typeof(a) != typeof(b):
		return false
	if typeof(a) == TYPE_REAL:
		return common.F(a) == common.F(b)  # bit-exact, NaN included
	return a == b


# The echo must be the value sent: exact DESC comparison (floats bit for bit). An object
# sent by id comes back as an EncodedObjectAsID carrying that id. Big packed arrays are
# compared with == (element-wise for pool arrays; they hold no NaN).
func echo_matches(echo, v):
	if typeof(v) == TYPE_OBJECT:
		return typeof(echo) == TYPE_OBJECT and echo != null \
			and echo.get_class() == "EncodedObjectAsID" and echo.get_object_id() == v.get_instance_id()
	if typeof(v) >= TYPE_RAW_ARRAY and v.size() > 1000:
		return typeof(echo) == typeof(v) and echo == v
	if typeof(v) == TYPE_STRING and v.length() > 1000:
		return typeof(echo) == TYPE_STRING and echo == v
	return common.J(common.describe(echo)) == common.J(common.describe(v))


func label(v):
	var t = typeof(v)
	var s = TYPE_NAMES[t] if t < TYPE_NAMES.size() else str(t)
	if t == TYPE_STRING:
		s += "[%d]" % v.length()
	elif t == TYPE_ARRAY or t == TYPE_DICTIONARY or t >= TYPE_RAW_ARRAY:
		s += "[%d]" % v.size()
	return s


func check_reply(r, v, index):
	replies += 1
	var what = "reply %d (%s)" % [index, label(v)]
	if typeof(r) != TYPE_DICTIONARY:
		fail(what + ": not a Dictionary: " + str(typeof(r)))
		return
	var keys = ["index", "type", "name", "size", "sum", "echo"]
	if r.keys() != keys:
		fail(what + ": keys " + str(r.keys()) + (" error: " + str(r.get("error")) if r.has("error") else ""))
		return
	var ok = true
	if not same_number(r.index, index):
		fail(what + ": index " + str(r.index))
		ok = false
	if not same_number(r.type, typeof(v)):
		fail(what + ": type " + str(r.type))
		ok = false
	if r.name != TYPE_NAMES[typeof(v)]:
		fail(what + ": name " + str(r.name))
		ok = false
	if not same_number(r.size, expected_size(v)):
		fail(what + ": size %s, expected %s" % [r.size, expected_size(v)])
		ok = false
	var sum = expected_sum(v)
	if not same_number(r.sum, sum):
		fail(what + ": sum %s (%s), expected %s (%s)" % [r.sum, typeof(r.sum), sum, typeof(sum)])
		ok = false
	if not echo_matches(r.echo, v):
		fail(what + ": echo differs")
		ok = false
	if ok:
		passed += 1


# A value the server refuses: objects are not allowed there, as in the engine's default.
func check_refusal(r, index):
	replies += 1
	var what = "reply %d (full object)" % index
	if typeof(r) != TYPE_DICTIONARY or r.keys() != ["index", "error", "code", "offset"]:
		fail(what + ": not an error reply: " + str(r))
		return
	if r.index == index and r.code == ERR_UNAUTHORIZED and typeof(r.error) == TYPE_STRING \
			and r.error.find("allow_objects") != -1 and typeof(r.offset) == TYPE_INT:
		passed += 1
	else:
		fail(what + ": " + str(r))


# ---------------------------------------------------------------------------
# TCP

func wait_bytes(peer, n):
	var t0 = OS.get_ticks_msec()
	while peer.get_available_bytes() < n:
		if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			return false
		if OS.get_ticks_msec() - t0 > REPLY_TIMEOUT_MS:
			return false
		OS.delay_msec(1)
	return true


func tcp_reply(peer, what):
	# get_var() blocks until the whole frame is there; wait for its prefix first so that a
	# dead server fails the check instead of hanging.
	if not wait_bytes(peer, 4):
		fail("no reply for %s within %d ms (status %d)" % [what, REPLY_TIMEOUT_MS, peer.get_status()])
		return null
	return peer.get_var()


func frame_of(v):
	var b = StreamPeerBuffer.new()
	b.put_var(v)
	return b.data_array


func run_tcp(port):
	var peer = StreamPeerTCP.new()
	if peer.connect_to_host("127.0.0.1", port) != OK:
		fail("connect_to_host failed")
		return
	var t0 = OS.get_ticks_msec()
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING:
		if OS.get_ticks_msec() - t0 > CONNECT_TIMEOUT_MS:
			break
		OS.delay_msec(1)
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		fail("not connected (status %d)" % peer.get_status())
		return
	peer.set_no_delay(true)  # each put_data goes out at once: split frames really split

	var values = small_values()
	# 1. one put_var per value, reply read before the next
	for v in values:
		peer.put_var(v)  # returns nothing in 3.2 (StreamPeer::put_var is void)
		sent += 1
		check_reply(tcp_reply(peer, label(v)), v, sent - 1)

	# 2. frames cut into pieces: inside the prefix, just after it, inside the payload
	var split_count = 0
	for v in [12345, "héllo 中文 🎮", PoolIntArray([1, 2, 3, 4, 5, 6, 7, 8]), [1, "a", Vector3(1, 2, 3)]]:
		var f = frame_of(v)
		var cuts = [0, 2, 4, 9, f.size()]
		for c in range(cuts.size() - 1):
			if cuts[c + 1] > cuts[c]:
				peer.put_data(f.subarray(cuts[c], min(cuts[c + 1], f.size()) - 1))
				OS.delay_msec(40)
		sent += 1
		split_count += 1
		check_reply(tcp_reply(peer, "split " + label(v)), v, sent - 1)

	# 3. several frames in one write: the server gets them in one read
	var batch = [1, "two", Vector2(3, 4), [5], {"six": 6}, PoolByteArray([7, 8]), null]
	var coalesced = StreamPeerBuffer.new()
	for v in batch:
		coalesced.put_var(v)
	peer.put_data(coalesced.data_array)
	var first = sent
	sent += batch.size()
	for i in range(batch.size()):
		check_reply(tcp_reply(peer, "coalesced " + label(batch[i])), batch[i], first + i)

	# 4. big packed arrays (> 1 MB each), the last one also cut in two writes
	var bigs = big_values()
	for v in bigs:
		peer.put_var(v)
		sent += 1
		check_reply(tcp_reply(peer, label(v)), v, sent - 1)
	var big = bigs[0]
	var f = frame_of(big)
	peer.put_data(f.subarray(0, 700000))
	OS.delay_msec(50)
	peer.put_data(f.subarray(700001, f.size() - 1))
	sent += 1
	split_count += 1
	check_reply(tcp_reply(peer, "split " + label(big)), big, sent - 1)

	# 5. a full object: the server refuses the value but keeps the connection
	peer.put_var(Reference.new(), true)
	sent += 1
	check_refusal(tcp_reply(peer, "full object"), sent - 1)
	peer.put_var("still there")
	sent += 1
	check_reply(tcp_reply(peer, "after refusal"), "still there", sent - 1)

	# 6. "quit" stops the server after its reply
	peer.put_var("quit")
	sent += 1
	check_reply(tcp_reply(peer, "quit"), "quit", sent - 1)
	peer.disconnect_from_host()
	report["split"] = split_count
	report["coalesced"] = batch.size()
	report["largest"] = f.size()


# ---------------------------------------------------------------------------
# UDP

func udp_reply(udp, what):
	var t0 = OS.get_ticks_msec()
	while udp.get_available_packet_count() <= 0:
		if OS.get_ticks_msec() - t0 > REPLY_TIMEOUT_MS:
			fail("no reply datagram for %s within %d ms" % [what, REPLY_TIMEOUT_MS])
			return null
		OS.delay_msec(1)
	return udp.get_var()


func run_udp(port):
	var udp = PacketPeerUDP.new()
	if udp.connect_to_host("127.0.0.1", port) != OK:
		fail("connect_to_host failed")
		return
	var values = small_values()
	# A String of 30,000 bytes and a PoolIntArray of 32,000 bytes: big but one datagram each
	# (the reply, value included, must also fit the client's 64 KiB receive ring buffer).
	var ints = PoolIntArray()
	for i in range(8000):
		ints.append(i * 3 - 4000)
	values.append("abcdefghij".repeat(3000))
	values.append(ints)
	for v in values:
		if udp.put_var(v) != OK:
			fail("put_var failed for " + label(v))
			return
		sent += 1
		check_reply(udp_reply(udp, label(v)), v, sent - 1)

	# A value larger than a datagram: the engine refuses to send it (the OS does, EMSGSIZE).
	var too_big = PoolByteArray()
	too_big.resize(70000)
	var err = udp.put_var(too_big)
	report["too_big_put_var"] = err
	if err == OK:
		fail("put_var of a 70,008-byte value returned OK")

	# A value that fits in a datagram (65,448 bytes) but whose reply (the value echoed plus
	# the other fields) would not: the server answers with an error instead.
	var near = PoolByteArray()
	near.resize(65440)
	if udp.put_var(near) != OK:
		fail("put_var of a 65,448-byte value failed")
	sent += 1
	var r = udp_reply(udp, "near-limit value")
	replies += 1
	if typeof(r) == TYPE_DICTIONARY and r.keys() == ["index", "error", "code", "offset"] \
			and r.index == sent - 1 and r.error.find("65507") != -1:
		passed += 1
	else:
		fail("near-limit value: expected a reply-too-large error, got " + str(r))

	# a full object: refused, and the server goes on
	udp.put_var(Reference.new(), true)
	sent += 1
	check_refusal(udp_reply(udp, "full object"), sent - 1)

	udp.put_var("quit")
	sent += 1
	check_reply(udp_reply(udp, "quit"), "quit", sent - 1)
	udp.close()


# ---------------------------------------------------------------------------
# framing facts (no network): the bytes each API writes, for docs/framing.md

func framing_facts():
	var v = {"hp": 100, "pos": Vector2(1, 2), "name": "Björn"}
	report["var2bytes"] = var2bytes(v).hex_encode()
	report["base64_is_var2bytes"] = Marshalls.variant_to_base64(v) == Marshalls.raw_to_base64(var2bytes(v))
	var b = StreamPeerBuffer.new()
	b.put_var(v)
	b.put_var(7)
	report["stream_put_var"] = b.data_array.hex_encode()
	b = StreamPeerBuffer.new()
	b.big_endian = true
	b.put_var(v)
	b.put_var(7)
	report["stream_put_var_big_endian"] = b.data_array.hex_encode()
	# PacketPeerStream over a big-endian stream: its prefix stays little-endian
	b = StreamPeerBuffer.new()
	b.big_endian = true
	var pps = PacketPeerStream.new()
	pps.stream_peer = b
	pps.put_var(v)
	pps.put_var(7)
	report["packet_peer_stream_put_var"] = b.data_array.hex_encode()
	report["packet_peer_stream_max_out"] = pps.output_buffer_max_size
	var packet = PoolByteArray()
	packet.resize(pps.output_buffer_max_size)
	report["packet_peer_stream_put_max"] = pps.put_packet(packet)
	packet.resize(pps.output_buffer_max_size + 1)
	report["packet_peer_stream_put_max_plus_1"] = pps.put_packet(packet)
	# File.store_var, both byte orders
	var path = OS.get_environment("GDWIRE_NET_TMP")
	var f = File.new()
	for swap in [false, true]:
		if f.open(path, File.WRITE) != OK:
			fail("cannot write " + path)
			return
		f.endian_swap = swap
		f.store_var(v)
		f.store_var(7)
		f.close()
		f.open(path, File.READ)
		report["file_store_var_endian_swap" if swap else "file_store_var"] = f.get_buffer(f.get_len()).hex_encode()
		f.close()
	# StreamPeer.get_var on a 2^31 prefix: a negative length to the engine, refused
	b = StreamPeerBuffer.new()
	b.data_array = PoolByteArray([0, 0, 0, 0x80, 2, 0, 0, 0, 7, 0, 0, 0])
	report["stream_get_var_2p31_is_null"] = b.get_var() == null
	report["udp_encode_buffer_max_size"] = PacketPeerUDP.new().encode_buffer_max_size


func run():
	var mode = OS.get_environment("GDWIRE_NET_MODE")
	if mode == "framing":
		common.fail_target = funcref(self, "fail")
		framing_facts()
		report["mode"] = mode
		report["failed"] = failures.size()
		print("GDWIRE-NET-REPORT " + common.J(report))
		return 1 if failures.size() > 0 else 0
	var port = int(OS.get_environment("GDWIRE_NET_PORT"))
	if port <= 0 or not (mode == "tcp" or mode == "udp"):
		printerr("GDWIRE-NET-FAILURE: set GDWIRE_NET_MODE (tcp|udp) and GDWIRE_NET_PORT")
		return 2
	common.fail_target = funcref(self, "fail")
	var t0 = OS.get_ticks_msec()
	if mode == "tcp":
		run_tcp(port)
	else:
		run_udp(port)
	for o in keep_alive:
		o.free()
	var line = {"mode": mode, "sent": sent, "replies": replies, "passed": passed,
		"failed": failures.size(), "ms": OS.get_ticks_msec() - t0}
	for k in report.keys():
		line[k] = report[k]
	print("GDWIRE-NET-REPORT " + common.J(line))
	return 1 if failures.size() > 0 else 0
