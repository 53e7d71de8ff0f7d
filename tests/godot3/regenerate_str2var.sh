#!/usr/bin/env bash
# Regenerates tests/fixtures/godot3/str2var.jsonl (engine truth for gdwire::text::parse) from a real
# Godot 3.2.3 engine by running tests/godot3/str2var.gd.
# Usage: tests/godot3/regenerate_str2var.sh          (writes the fixture)
#        tests/godot3/regenerate_str2var.sh --check  (fails if the engine's output differs)
# The output is deterministic (texts with objects get no bytes; NodePath pads zeroed by zero_pads.py).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
godot="${GODOT3_SERVER:-godot3-server}"
target="$repo_root/tests/fixtures/godot3/str2var.jsonl"
if ! command -v "$godot" >/dev/null 2>&1; then
    echo "error: '$godot' not found (apt-get install -y godot3-server)" >&2
    exit 1
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 GDWIRE_STR2VAR_OUT="$tmp/str2var.jsonl" \
    timeout 60 "$godot" --path "$here" --script res://str2var.gd >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
if [ "$status" -ne 0 ] || grep -q -e 'GDWIRE-STR2VAR-FAILURE' -e '^SCRIPT ERROR' "$tmp/stderr" \
        || ! grep -q '^GDWIRE-STR2VAR-OK' "$tmp/stdout"; then
    echo "error: str2var.gd failed (exit status $status); fixture left unchanged" >&2
    tail -n 20 "$tmp/stderr" >&2 || true
    exit 1
fi
# NodePath pad bytes are uninitialised engine memory; zero them so reruns are byte-identical.
python3 "$here/zero_pads.py" "$tmp/str2var.jsonl" >/dev/null
if [ "${1:-}" = "--check" ]; then
    if cmp -s "$tmp/str2var.jsonl" "$target"; then
        echo "str2var fixture matches the engine"
        exit 0
    fi
    echo "error: tests/fixtures/godot3/str2var.jsonl differs from the engine's output" >&2
    exit 1
fi
cp "$tmp/str2var.jsonl" "$target"
echo "wrote tests/fixtures/godot3/str2var.jsonl ($(wc -l <"$target") rows)"
