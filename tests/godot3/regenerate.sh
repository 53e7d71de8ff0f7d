#!/usr/bin/env bash
# Regenerates every Godot 3 fixture from a real Godot 3.2.3 engine:
#   tests/fixtures/godot3/values.jsonl
#   tests/fixtures/godot3/malformed.jsonl
#   samples/godot3_capture.bin            (samples/make_capture.sh)
#   samples/godot3_capture.txt
#   tests/fixtures/godot3/framing.jsonl   (framing.gd: store_var / put_var / PacketPeerStream bytes)
#   tests/fixtures/godot3/text.jsonl      (text.gd via regenerate_text.sh: var2str truth)
# Usage: tests/godot3/regenerate.sh           (from anywhere; needs `godot3-server`)
#        tests/godot3/regenerate.sh --check   (CI: regenerate into a temporary directory and
#        fail if the engine's output differs from the committed fixtures byte for byte;
#        NodePath pad bytes, which the engine leaves uninitialised, are zeroed first)
# Outputs are generated in a temporary directory, checked, and only then copied
# into the repository, so a failed run leaves the committed fixtures untouched.
set -euo pipefail
check=0
if [ "${1:-}" = "--check" ]; then check=1; fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../engine_common.sh"  # sets $repo_root and $tmp
outputs=(tests/fixtures/godot3/values.jsonl tests/fixtures/godot3/malformed.jsonl
         samples/godot3_capture.bin samples/godot3_capture.txt
         tests/fixtures/godot3/framing.jsonl)

if ! command -v "$godot" >/dev/null 2>&1; then
    echo "error: '$godot' not found. Install the headless Godot 3 runtime first:" >&2
    echo "       apt-get install -y godot3-server     (Debian 12: Godot 3.2.3-stable)" >&2
    exit 1
fi

version="$("$godot" --version 2>/dev/null | head -n 1 || true)"
case "$version" in
    3.2.3.*) ;;
    *) echo "warning: fixtures are defined as Godot 3.2.3 truth; '$godot --version' says '$version'" >&2 ;;
esac

# The text-form fixture (var2str truth) has its own generator.
bash "$here/regenerate_text.sh" ${1:+"$1"}

out="$tmp/out"
mkdir -p "$out/tests/fixtures/godot3" "$out/samples"
# The generator reads the engine's error codes back from its own stderr (see
# README.md), so stderr must go to a regular file whose path it is told.
stderr_log="$tmp/stderr.log"
stdout_log="$tmp/stdout.log"
: >"$stderr_log"

status=0
LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 \
GDWIRE_OUT_ROOT="$out" GDWIRE_STDERR_LOG="$stderr_log" \
    timeout 120 "$godot" --path "$here" --script res://generate.gd \
    >"$stdout_log" 2>"$stderr_log" || status=$?

if [ "$status" -ne 0 ] || grep -q -e 'GDWIRE-GENERATOR-FAILURE' -e '^SCRIPT ERROR' "$stderr_log" \
        || ! grep -q '^GDWIRE-GENERATOR-OK$' "$stdout_log"; then
    echo "error: generator failed (exit status $status); fixtures left unchanged" >&2
    if [ "$status" -eq 124 ]; then
        echo "       the engine timed out (a script error inside _init() hangs it)" >&2
    fi
    grep -E 'GDWIRE-GENERATOR-FAILURE|SCRIPT ERROR|Parse Error' -A2 "$stderr_log" >&2 || true
    echo "--- last lines of stderr ---" >&2
    tail -n 20 "$stderr_log" >&2 || true
    exit 1
fi
grep -E '^values: ' "$stdout_log" || true

bash "$repo_root/samples/make_capture.sh" "$out/samples" >/dev/null

status=0
LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 GDWIRE_FRAMING_MODE=generate GDWIRE_OUT_ROOT="$out" \
    timeout 60 "$godot" --path "$here" --script res://framing.gd \
    >"$stdout_log" 2>"$stderr_log" || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^GDWIRE-FRAMING-OK$' "$stdout_log"; then
    echo "error: framing.gd failed (exit status $status); fixtures left unchanged" >&2
    grep -E 'GDWIRE-FRAMING-FAILURE|SCRIPT ERROR|Parse Error' -A2 "$stderr_log" >&2 || true
    exit 1
fi

for f in "${outputs[@]}"; do
    if [ ! -s "$out/$f" ]; then
        echo "error: the generator did not write $f; fixtures left unchanged" >&2
        exit 1
    fi
done

# NodePath pad bytes are uninitialised engine memory; zero them so reruns are byte-identical.
python3 "$here/zero_pads.py" "$out/tests/fixtures/godot3/values.jsonl" >/dev/null

# Independent consistency check (schema, unique names, a model decoder that must
# agree with every engine verdict). Optional: skipped when python3 is missing.
if command -v python3 >/dev/null 2>&1; then
    if ! python3 "$here/check_fixtures.py" "$out"; then
        echo "error: check_fixtures.py disagrees with the new fixtures; fixtures left unchanged" >&2
        exit 1
    fi
else
    echo "note: python3 not found, skipped tests/godot3/check_fixtures.py" >&2
fi

if [ "$check" -eq 1 ]; then
    python3 - "$out" "$repo_root" <<'PY'
import json, sys
out, repo = sys.argv[1], sys.argv[2]
bad = 0
for f in ["tests/fixtures/godot3/values.jsonl", "tests/fixtures/godot3/malformed.jsonl",
          "samples/godot3_capture.bin", "samples/godot3_capture.txt",
          "tests/fixtures/godot3/framing.jsonl"]:
    new, old = open(f"{out}/{f}", "rb").read(), open(f"{repo}/{f}", "rb").read()
    if f.endswith(".jsonl"):
        new_rows, old_rows = new.splitlines(), old.splitlines()
        names = lambda rows: [json.loads(r).get("name") for r in rows]
        if len(new_rows) != len(old_rows) or names(new_rows) != names(old_rows):
            print(f"{f}: fixture rows differ"); bad += 1; continue
        for a, b in zip(new_rows, old_rows):
            if a != b:
                print(f"{f}: {json.loads(a).get('name')} differs from the engine's output"); bad += 1
    elif new != old:
        print(f"{f}: differs from the engine's output"); bad += 1
print("fixtures match the engine" if not bad else f"{bad} differences")
sys.exit(1 if bad else 0)
PY
    exit $?
fi

mkdir -p "$repo_root/tests/fixtures/godot3" "$repo_root/samples"
for f in "${outputs[@]}"; do
    cp "$out/$f" "$repo_root/$f"
    echo "wrote $f"
done
