# A script class for the differential seeds: scripted objects and script-typed containers carry
# its path (res://differential_item.gd) on the wire, so it is packed into both engine runs.
extends RefCounted

@export var hp: int = 5
@export var title: String = "knight"
