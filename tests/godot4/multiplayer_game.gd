# The node every SceneMultiplayer instance of multiplayer_capture.gd has at <root>/Game: its
# RPC methods report what the receiving side made of each call (method, arguments as
# var_to_bytes hex, remote sender). Sorted @rpc names: blob, hit, many, nothing, ping, relay_me
# (ids 0..5); "dyn" is configured with rpc_config() (id 0x8000).
extends Node

var report: Callable  # func(event: Dictionary)

func _event(method: String, args: Array) -> void:
	var hexes := []
	for a in args:
		# An object arrives as its id (objects not decoded): report the id it carried.
		hexes.append(var_to_bytes(a.get_object_id() if a is EncodedObjectAsID else a).hex_encode())
	report.call({"event": "rpc", "method": method, "args": hexes,
		"sender": multiplayer.get_remote_sender_id()})

@rpc("any_peer", "reliable")
func ping(a, b, c, d, e, f, g, h) -> void:
	_event("ping", [a, b, c, d, e, f, g, h])

@rpc("any_peer", "unreliable", "call_remote", 2)
func hit(amount, where) -> void:
	_event("hit", [amount, where])

@rpc("any_peer", "unreliable_ordered", "call_remote", 1)
func blob(data = "none") -> void:
	_event("blob", [data])

@rpc("any_peer")
func nothing() -> void:
	_event("nothing", [])

@rpc("any_peer")
func many(a, b, c, d, e, f, g, h, i, j) -> void:
	_event("many", [a, b, c, d, e, f, g, h, i, j])

@rpc("any_peer")
func relay_me(text) -> void:
	_event("relay_me", [text])

func dyn(x) -> void:
	_event("dyn", [x])
