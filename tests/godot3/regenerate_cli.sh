#!/usr/bin/env bash
# Regenerates tests/fixtures/godot3/cli.jsonl (engine truth for tests/cli.rs) by running
# tests/godot3/cli.gd in a real Godot 3.2.3 engine.
# Usage: tests/godot3/regenerate_cli.sh          (writes the fixture)
#        tests/godot3/regenerate_cli.sh --check  (fails if the engine's output differs)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="$here/../fixtures/godot3/cli.jsonl"
godot="${GODOT3_SERVER:-godot3-server}"
command -v "$godot" >/dev/null 2>&1 || { echo "error: '$godot' not found (apt-get install -y godot3-server)" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 GDWIRE_CLI_OUT="$tmp/cli.jsonl" \
    timeout 120 "$godot" --path "$here" --script res://cli.gd >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
if [ "$status" -ne 0 ] || grep -q -e 'GDWIRE-CLI-FAILURE' -e '^SCRIPT ERROR' "$tmp/stderr" \
        || ! grep -q '^GDWIRE-CLI-OK' "$tmp/stdout"; then
    echo "error: cli.gd failed (exit status $status); fixture left unchanged" >&2
    tail -n 20 "$tmp/stderr" >&2 || true
    exit 1
fi
if [ "${1:-}" = "--check" ]; then
    cmp -s "$tmp/cli.jsonl" "$target" && { echo "cli fixture matches the engine"; exit 0; }
    echo "error: tests/fixtures/godot3/cli.jsonl differs from the engine's output" >&2
    exit 1
fi
cp "$tmp/cli.jsonl" "$target"
echo "wrote tests/fixtures/godot3/cli.jsonl ($(wc -l <"$target") rows)"
