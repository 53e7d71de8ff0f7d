#!/usr/bin/env bash
# Regenerates tests/fixtures/godot4/str_to_var.jsonl (engine truth for gdwire::text::parse and
# gdwire::text in Godot 4) from the real Godot 4.6 engine by running
# tests/godot4/str_to_var.gd through tests/godot4/run.py (install it with
# tests/godot4/install.sh).
# Usage: tests/godot4/regenerate_str_to_var.sh          (writes the fixture)
#        tests/godot4/regenerate_str_to_var.sh --check  (fails if the engine's output differs)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../engine_common.sh"
status=0
"$here/run.py" --timeout 180 "$here/str_to_var.gd" >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^GDWIRE-STR-TO-VAR-OK' "$tmp/stdout"; then
    echo "error: str_to_var.gd failed (exit status $status); fixture left unchanged" >&2
    tail -n 20 "$tmp/stderr" >&2 || true
    exit 1
fi
sed -n 's/^ROW //p' "$tmp/stdout" >"$tmp/str_to_var.jsonl"
finish_fixture "${1:-}" "$tmp/str_to_var.jsonl" tests/fixtures/godot4/str_to_var.jsonl str_to_var
