#!/usr/bin/env bash
# Regenerates tests/fixtures/godot4/multiplayer.jsonl from the real Godot 4.6 engine:
# multiplayer_capture.gd connects three SceneMultiplayer instances through a GDScript
# MultiplayerPeerExtension and prints every packet and what the receiving side made of it.
# Usage: tests/godot4/multiplayer_capture.sh           (needs tests/godot4/install.sh)
#        tests/godot4/multiplayer_capture.sh --check   (CI: regenerate into a temporary file
#        and fail if it differs from the committed one, byte for byte)
# Normalisation: when one engine sends several packets at once to several peers, the order
# of the peers follows its hash sets, so in each run of consecutive packets from one sender
# the packets are ordered by target (each link keeps its own order, which is what its
# receiver sees) and renumbered, events following their packet's new number.
set -euo pipefail
check=0
if [ "${1:-}" = "--check" ]; then check=1; fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../engine_common.sh"  # sets $repo_root and $tmp
out="$repo_root/tests/fixtures/godot4/multiplayer.jsonl"
status=0
python3 "$here/run.py" --timeout 180 "$here/multiplayer_capture.gd" \
    "$here/multiplayer_game.gd" "$here/multiplayer_enemy.gd" "$here/multiplayer_shared.gd" \
    > "$tmp/stdout" 2> "$tmp/stderr" \
    || status=$?
if [ "$status" -ne 0 ]; then
    echo "error: the capture run failed (exit status $status)" >&2
    tail -n 20 "$tmp/stderr" >&2
    exit 1
fi
grep '^MPJ ' "$tmp/stdout" | sed 's/^MPJ //' > "$tmp/raw.jsonl"
if ! grep -q '"failures":0,"kind":"done"' "$tmp/raw.jsonl"; then
    echo "error: the capture script reported failures or did not finish" >&2
    exit 1
fi
python3 - "$tmp/raw.jsonl" "$tmp/capture.jsonl" <<'PY'
import json, sys
records = [json.loads(l) for l in open(sys.argv[1])]
out, run, renumber = [], [], {}
def flush():
    run.sort(key=lambda r: r["to"])  # stable: each link keeps its order
    for r in run:
        renumber[r["seq"]] = len(renumber)
        r["seq"] = renumber[r["seq"]]
    out.extend(run)
    run.clear()
for r in records:
    if r["kind"] == "packet":
        if run and run[0]["from"] != r["from"]:
            flush()
        run.append(r)
    else:
        flush()
        out.append(r)
flush()
for r in out:
    if r["kind"] == "event" and r["packet"] >= 0:
        r["packet"] = renumber[r["packet"]]
with open(sys.argv[2], "w") as f:
    for r in out:
        f.write(json.dumps(r, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
PY
if [ "$check" -eq 1 ]; then
    if ! cmp -s "$tmp/capture.jsonl" "$out"; then
        echo "tests/fixtures/godot4/multiplayer.jsonl differs from the engine's output" >&2
        diff "$tmp/capture.jsonl" "$out" | head -n 6 >&2 || true
        exit 1
    fi
    echo "the multiplayer capture matches the engine"
    exit 0
fi
mv "$tmp/capture.jsonl" "$out"
echo "$(wc -l < "$out") lines -> ${out#"$repo_root"/}"
