# A script class for the fixtures' scripted objects and script-typed containers
# (packed as res://typed_item.gd; containers typed with it carry this path on the wire).
extends RefCounted

@export var hp: int = 5
@export var title: String = "knight"
var not_exported = 9
