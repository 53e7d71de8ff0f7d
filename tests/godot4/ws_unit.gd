# The unit ws_multiplayer_client.gd spawns and syncs with client authority: replicated
# properties of several types (plus Node2D's position).
extends Node2D

var label := ""
var hp := 0
var speed := 0.0
var alive := true
var tags := PackedStringArray()
var tint := Color()
var cell := Vector2i()
