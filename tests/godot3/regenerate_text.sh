#!/usr/bin/env bash
# Regenerates tests/fixtures/godot3/text.jsonl (engine truth for gdwire::text) from a real
# Godot 3.2.3 engine by running tests/godot3/text.gd.
# Usage: tests/godot3/regenerate_text.sh          (writes the fixture)
#        tests/godot3/regenerate_text.sh --check  (fails if the engine's output differs)
# The output is deterministic (fixed PRNG seed, NodePath pads zeroed by zero_pads.py, no objects).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
godot="${GODOT3_SERVER:-godot3-server}"
target="$repo_root/tests/fixtures/godot3/text.jsonl"
if ! command -v "$godot" >/dev/null 2>&1; then
    echo "error: '$godot' not found (apt-get install -y godot3-server)" >&2
    exit 1
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 GDWIRE_TEXT_OUT="$tmp/text.jsonl" \
    timeout 60 "$godot" --path "$here" --script res://text.gd >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
if [ "$status" -ne 0 ] || grep -q -e 'GDWIRE-TEXT-FAILURE' -e '^SCRIPT ERROR' "$tmp/stderr" \
        || ! grep -q '^GDWIRE-TEXT-OK' "$tmp/stdout"; then
    echo "error: text.gd failed (exit status $status); fixture left unchanged" >&2
    tail -n 20 "$tmp/stderr" >&2 || true
    exit 1
fi
# NodePath pad bytes are uninitialised engine memory; zero them so reruns are byte-identical.
python3 "$here/zero_pads.py" "$tmp/text.jsonl" >/dev/null
if [ "${1:-}" = "--check" ]; then
    if cmp -s "$tmp/text.jsonl" "$target"; then
        echo "text fixture matches the engine"
        exit 0
    fi
    echo "error: tests/fixtures/godot3/text.jsonl differs from the engine's output" >&2
    exit 1
fi
cp "$tmp/text.jsonl" "$target"
echo "wrote tests/fixtures/godot3/text.jsonl ($(wc -l <"$target") rows)"
