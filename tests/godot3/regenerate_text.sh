#!/usr/bin/env bash
# Regenerates tests/fixtures/godot3/text.jsonl (engine truth for gdwire::text) from a real
# Godot 3.2.3 engine by running tests/godot3/text.gd.
# Usage: tests/godot3/regenerate_text.sh          (writes the fixture)
#        tests/godot3/regenerate_text.sh --check  (fails if the engine's output differs)
# The output is deterministic (fixed PRNG seed, NodePath pads zeroed by zero_pads.py, no objects).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../engine_common.sh"
godot3_fixture "${1:-}" text.gd TEXT GDWIRE_TEXT_OUT text 60 zero-pads
