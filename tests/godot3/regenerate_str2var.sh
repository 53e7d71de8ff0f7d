#!/usr/bin/env bash
# Regenerates tests/fixtures/godot3/str2var.jsonl (engine truth for gdwire::text::parse) from a real
# Godot 3.2.3 engine by running tests/godot3/str2var.gd.
# Usage: tests/godot3/regenerate_str2var.sh          (writes the fixture)
#        tests/godot3/regenerate_str2var.sh --check  (fails if the engine's output differs)
# The output is deterministic (texts with objects get no bytes; NodePath pads zeroed by zero_pads.py).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
source "$repo_root/tests/engine_common.sh"
require_godot3
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
GDWIRE_STR2VAR_OUT="$tmp/str2var.jsonl" run_godot3 "$here" str2var.gd STR2VAR 60
# NodePath pad bytes are uninitialised engine memory; zero them so reruns are byte-identical.
python3 "$here/zero_pads.py" "$tmp/str2var.jsonl" >/dev/null
finish_fixture "${1:-}" "$tmp/str2var.jsonl" "$repo_root" tests/fixtures/godot3/str2var.jsonl \
    str2var
