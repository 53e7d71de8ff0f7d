#!/usr/bin/env bash
# Regenerates every Godot 4 fixture from the real Godot 4.6 engine (tests/godot4/run.py):
#   tests/fixtures/godot4/values.jsonl
#   tests/fixtures/godot4/malformed.jsonl
#   samples/godot4_capture.bin            (samples/make_capture_godot4.gd)
#   samples/godot4_capture.txt
# Usage: tests/godot4/regenerate.sh           (from anywhere; needs tests/godot4/install.sh)
#        tests/godot4/regenerate.sh --check   (CI: regenerate into a temporary directory and
#        fail if the engine's output differs from the committed files, byte for byte)
# Everything is generated in a temporary directory and checked first, so a failed run leaves
# the committed files untouched.
set -euo pipefail
check=0
if [ "${1:-}" = "--check" ]; then check=1; fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../engine_common.sh"  # sets $repo_root and $tmp
outputs=(tests/fixtures/godot4/values.jsonl tests/fixtures/godot4/malformed.jsonl
         samples/godot4_capture.bin samples/godot4_capture.txt)

if ! python3 "$here/run.py" --check-install; then
    echo "error: the Godot 4.6 engine is not installed: run tests/godot4/install.sh" >&2
    exit 1
fi

out="$tmp/out"
mkdir -p "$out/tests/fixtures/godot4" "$out/samples"

status=0
python3 "$here/run.py" --timeout 300 "$here/generate.gd" "$here/common.gd" "$here/typed_item.gd" \
    >"$tmp/gen.stdout" 2>"$tmp/gen.stderr" || status=$?
if [ "$status" -ne 0 ] || grep -q 'GDWIRE-GENERATOR-FAILURE' "$tmp/gen.stderr" \
        || ! grep -q '^GDWIRE-GENERATOR-OK$' "$tmp/gen.stdout"; then
    echo "error: generate.gd failed (exit status $status); fixtures left unchanged" >&2
    grep -E 'GDWIRE-GENERATOR-FAILURE|GDWIRE-RUNNER|SCRIPT ERROR' -A2 "$tmp/gen.stderr" >&2 || true
    echo "--- last lines of stderr ---" >&2
    tail -n 20 "$tmp/gen.stderr" >&2 || true
    exit 1
fi
python3 "$here/assemble.py" "$tmp/gen.stdout" "$tmp/gen.stderr" "$out/tests/fixtures/godot4"

status=0
python3 "$here/run.py" --timeout 120 --out-dir "$tmp/capture" "$repo_root/samples/make_capture_godot4.gd" \
    >"$tmp/cap.stdout" 2>"$tmp/cap.stderr" || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^GDWIRE-CAPTURE-OK' "$tmp/cap.stdout"; then
    echo "error: make_capture_godot4.gd failed (exit status $status); files left unchanged" >&2
    tail -n 20 "$tmp/cap.stderr" >&2 || true
    exit 1
fi
cp "$tmp/capture/godot4_capture.bin" "$tmp/capture/godot4_capture.txt" "$out/samples/"

for f in "${outputs[@]}"; do
    if [ ! -s "$out/$f" ]; then
        echo "error: $f was not produced; files left unchanged" >&2
        exit 1
    fi
done

if [ "$check" -eq 1 ]; then
    bad=0
    for f in "${outputs[@]}"; do
        if ! cmp -s "$out/$f" "$repo_root/$f"; then
            echo "$f differs from the engine's output" >&2
            diff <(head -c 200000 "$out/$f") <(head -c 200000 "$repo_root/$f") | head -n 6 >&2 || true
            bad=$((bad + 1))
        fi
    done
    if [ "$bad" -ne 0 ]; then
        echo "$bad differences: run tests/godot4/regenerate.sh and review the diff" >&2
        exit 1
    fi
    echo "Godot 4 fixtures match the engine"
    exit 0
fi

mkdir -p "$repo_root/tests/fixtures/godot4" "$repo_root/samples"
for f in "${outputs[@]}"; do
    cp "$out/$f" "$repo_root/$f"
    echo "wrote $f"
done
