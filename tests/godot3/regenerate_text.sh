#!/usr/bin/env bash
# Regenerates tests/fixtures/godot3/text.jsonl (engine truth for gdwire::text) from a real
# Godot 3.2.3 engine by running tests/godot3/text.gd.
# Usage: tests/godot3/regenerate_text.sh          (writes the fixture)
#        tests/godot3/regenerate_text.sh --check  (fails if the engine's output differs)
# The output is deterministic (fixed PRNG seed, NodePath pads zeroed by zero_pads.py, no objects).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
source "$repo_root/tests/engine_common.sh"
require_godot3
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
GDWIRE_TEXT_OUT="$tmp/text.jsonl" run_godot3 "$here" text.gd TEXT 60
# NodePath pad bytes are uninitialised engine memory; zero them so reruns are byte-identical.
python3 "$here/zero_pads.py" "$tmp/text.jsonl" >/dev/null
finish_fixture "${1:-}" "$tmp/text.jsonl" "$repo_root" tests/fixtures/godot3/text.jsonl text
