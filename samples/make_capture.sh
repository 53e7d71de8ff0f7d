#!/usr/bin/env bash
# Regenerates samples/godot3_capture.bin and samples/godot3_capture.txt with the real engine:
#   samples/make_capture.sh            write them into samples/
#   samples/make_capture.sh OUT_DIR    write them into OUT_DIR instead (used by the tests)
# Needs godot3-server (Debian 12: `apt-get install godot3-server`, Godot 3.2.3; set
# GODOT3_SERVER=/path to use another binary).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
godot="${GODOT3_SERVER:-godot3-server}"
if ! command -v "$godot" >/dev/null 2>&1; then
    echo "error: '$godot' not found; install it with: apt-get install -y godot3-server" >&2
    exit 1
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 GDWIRE_CAPTURE_OUT="$tmp" \
    timeout 60 "$godot" --path "$here" --script res://make_capture.gd \
    >"$tmp/stdout.log" 2>"$tmp/stderr.log" || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^GDWIRE-CAPTURE-OK' "$tmp/stdout.log" \
        || grep -q -e 'GDWIRE-CAPTURE-FAILURE' -e '^SCRIPT ERROR' "$tmp/stderr.log"; then
    echo "error: the engine run failed (exit status $status); nothing written" >&2
    tail -n 20 "$tmp/stderr.log" >&2 || true
    exit 1
fi
cp "$tmp/godot3_capture.bin" "$tmp/godot3_capture.txt" "$out/"
echo "wrote $out/godot3_capture.bin and $out/godot3_capture.txt"
