#!/usr/bin/env bash
# Regenerates tests/fixtures/godot4/str_to_var.jsonl (engine truth for gdwire::text::parse and
# gdwire::text in Godot 4) from the real Godot 4.6 engine by running
# tests/godot4/str_to_var.gd through tests/godot4/run.py (install it with
# tests/godot4/install.sh).
# Usage: tests/godot4/regenerate_str_to_var.sh          (writes the fixture)
#        tests/godot4/regenerate_str_to_var.sh --check  (fails if the engine's output differs)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
target="$repo_root/tests/fixtures/godot4/str_to_var.jsonl"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
"$here/run.py" --timeout 180 "$here/str_to_var.gd" >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^GDWIRE-STR-TO-VAR-OK' "$tmp/stdout"; then
    echo "error: str_to_var.gd failed (exit status $status); fixture left unchanged" >&2
    tail -n 20 "$tmp/stderr" >&2 || true
    exit 1
fi
sed -n 's/^ROW //p' "$tmp/stdout" >"$tmp/str_to_var.jsonl"
if [ "${1:-}" = "--check" ]; then
    if cmp -s "$tmp/str_to_var.jsonl" "$target"; then
        echo "str_to_var fixture matches the engine"
        exit 0
    fi
    echo "error: tests/fixtures/godot4/str_to_var.jsonl differs from the engine's output" >&2
    exit 1
fi
mkdir -p "$(dirname "$target")"
cp "$tmp/str_to_var.jsonl" "$target"
echo "wrote tests/fixtures/godot4/str_to_var.jsonl ($(wc -l <"$target") rows)"
