#!/usr/bin/env bash
# Regenerates tests/fixtures/godot3/str2var.jsonl (engine truth for gdwire::text::parse) from a real
# Godot 3.2.3 engine by running tests/godot3/str2var.gd.
# Usage: tests/godot3/regenerate_str2var.sh          (writes the fixture)
#        tests/godot3/regenerate_str2var.sh --check  (fails if the engine's output differs)
# The output is deterministic (texts with objects get no bytes; NodePath pads zeroed by zero_pads.py).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../engine_common.sh"
godot3_fixture "${1:-}" str2var.gd STR2VAR GDWIRE_STR2VAR_OUT str2var 60 zero-pads
