# Prints the engine build's precision, from its `double` feature tag: Godot 4.0-4.4 do not say
# it in `--version` (4.5 on add ".double."). Run by tests/godot4/older/regenerate.sh and by the
# older engines' live test (tests/support/godot4.rs, `older_engine`).
extends SceneTree


func _initialize():
	print("GDWIRE-PRECISION ", "double" if OS.has_feature("double") else "single")


func _process(_delta):
	quit(0)
