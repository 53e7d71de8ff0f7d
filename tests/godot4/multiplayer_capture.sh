#!/usr/bin/env bash
# Regenerates tests/fixtures/godot4/multiplayer.jsonl from the real Godot 4.6 engine:
# multiplayer_capture.gd connects three SceneMultiplayer instances through a GDScript
# MultiplayerPeerExtension and prints every packet and what the receiving side made of it.
# Usage: tests/godot4/multiplayer_capture.sh   (needs tests/godot4/install.sh)
# Packet order within a frame follows the engine's hash sets, so a new capture may differ
# from the committed one in order and in cache and net ids; tests/godot4_multiplayer.rs
# checks any capture against the engine's own reports, not against fixed bytes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
out="$repo_root/tests/fixtures/godot4/multiplayer.jsonl"
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
python3 "$here/run.py" --timeout 180 "$here/multiplayer_capture.gd" \
    "$here/multiplayer_game.gd" "$here/multiplayer_enemy.gd" > "$tmp"
grep '^MPJ ' "$tmp" | sed 's/^MPJ //' > "$tmp.jsonl"
if ! grep -q '"failures":0,"kind":"done"' "$tmp.jsonl"; then
    echo "error: the capture script reported failures or did not finish" >&2
    rm -f "$tmp.jsonl"
    exit 1
fi
mkdir -p "$(dirname "$out")"
mv "$tmp.jsonl" "$out"
echo "$(wc -l < "$out") lines -> ${out#"$repo_root"/}"
