# Client for examples/tcp_echo.rs (run by tests/tcp_echo.rs): sends values with
# StreamPeerTCP.put_var, reads each echo with get_var, and checks it is the same value
# (var2str of both). Environment: GDWIRE_ECHO_PORT. Prints "GDWIRE-ECHO-OK <n>" on success,
# every problem on stderr as GDWIRE-ECHO-FAILURE.
extends SceneTree

var failures = 0


func _init():
	run()
	quit(0 if failures == 0 else 1)


func fail(msg):
	failures += 1
	printerr("GDWIRE-ECHO-FAILURE: " + msg)


func run():
	var port = int(OS.get_environment("GDWIRE_ECHO_PORT"))
	var peer = StreamPeerTCP.new()
	if peer.connect_to_host("127.0.0.1", port) != OK:
		fail("connect")
		return
	var waited = 0
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING and waited < 5000:
		OS.delay_msec(10)
		waited += 10
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		fail("not connected")
		return
	var values = [
		null, true, 42, -7000000000, 0.5, "héllo ✓",
		Vector2(1, 2), Vector3(1.5, 0, -3.25), Color(1, 0.5, 0, 1),
		NodePath("/root/Player:position"),
		[1, "two", [3.0]], {"hp": 100, "pos": Vector2(4, 5), 7: [true]},
		PoolIntArray([1, -1, 65536]), PoolStringArray(["a", "", "中文"]),
		PoolVector3Array([Vector3(1, 2, 3)]), PoolByteArray([0, 255]),
	]
	var n = 0
	for v in values:
		peer.put_var(v)
		var waited_reply = 0
		while peer.get_available_bytes() < 4 and waited_reply < 5000:
			OS.delay_msec(5)
			waited_reply += 5
		var back = peer.get_var()
		if var2str(back) != var2str(v):
			fail("sent " + var2str(v) + ", got back " + var2str(back))
		n += 1
	peer.disconnect_from_host()
	print("GDWIRE-ECHO-OK ", n)
