# The spawnable node of multiplayer_capture.gd: replicated properties.
extends Node2D

var hp := 0
var label := ""
