#!/usr/bin/env bash
# Regenerates the fixtures of an older Godot 4 engine (tests/godot4/older/README.md):
#   tests/fixtures/godot4_older/<major.minor>/values.jsonl
#   tests/fixtures/godot4_older/<major.minor>/malformed.jsonl
#   tests/fixtures/godot4_older/<major.minor>/not_decoded.jsonl  (values the engine wrote and
#       crashes decoding: name and bytes only; see generate.gd, `add`)
#   tests/fixtures/godot4_older/<major.minor>/engine.txt         (the engine's --version)
#   tests/fixtures/godot4_older/<major.minor>/str_to_var.jsonl   (tests/godot4/str_to_var.gd)
#   tests/fixtures/godot4_older/<major.minor>/differential.jsonl (the engine's verdicts on the
#       mutants of the 4.6 differential run: tests/godot4/differential.py --native ... --out)
# with the same generator as the 4.6 fixtures (tests/godot4/generate.gd, which leaves out the
# values of types and container kinds the engine does not have), run natively and headless by
# tests/godot4/run.py --native. The directory is the engine's own `--version`.
# A double-precision build (its `double` feature tag, asked by ../precision.gd) writes
# <major.minor>-double/ instead: values, not_decoded, str_to_var and engine.txt; its verdicts on the malformed inputs and on
# the differential mutants must equal the committed ones of the single-precision build of the
# same version (nothing is written for those).
# Usage: GODOT4_OLDER=path/to/godot tests/godot4/older/regenerate.sh [--check]
#   --check   compare with the committed files instead of writing them (byte for byte)
set -euo pipefail
mode="${1:-}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
godot4="$(cd "$here/.." && pwd)"
source "$godot4/../engine_common.sh"  # sets $repo_root and $tmp
engine="${GODOT4_OLDER:-}"

if [ -z "$engine" ] || ! [ -x "$engine" ]; then
    echo "error: set GODOT4_OLDER to a native Godot 4.0-4.5 binary (tests/godot4/older/README.md)" >&2
    exit 1
fi
version="$("$engine" --version | head -n 1)"
minor="$(printf '%s\n' "$version" | sed -n 's/^\(4\.[0-5]\)\..*/\1/p')"
if [ -z "$minor" ]; then
    echo "error: $engine reports '$version', not Godot 4.0-4.5" >&2
    exit 1
fi
dir="tests/fixtures/godot4_older/$minor"
precision="$(python3 "$godot4/run.py" --native "$engine" --timeout 120 "$godot4/precision.gd" \
    2>/dev/null | sed -n 's/^GDWIRE-PRECISION \(single\|double\)$/\1/p')" || true
double=""
case "$precision" in
    double) double=yes; dir="$dir-double" ;;
    single) ;;
    *) echo "error: $engine did not say its precision (tests/godot4/precision.gd)" >&2; exit 1 ;;
esac

godot4_native_generate "$engine" "$minor\\." 900
if [ -n "$double" ]; then
    godot4_same_malformed "$tmp/out/malformed.jsonl" \
        "$repo_root/tests/fixtures/godot4_older/$minor/malformed.jsonl"
fi
printf '%s\n' "$version" >"$tmp/out/engine.txt"
python3 - "$tmp/gen.stdout" "$tmp/out/not_decoded.jsonl" <<'PY'
import json, sys
rows = [line.rstrip("\n").split(":", 2)[1:] for line in open(sys.argv[1])
        if line.startswith("GDWIRE-SKIPPED:")]
with open(sys.argv[2], "w") as out:
    for name, hex_ in rows:
        out.write(json.dumps({"name": name, "hex": hex_, "full_objects": True}) + "\n")
PY

godot4_native_str_to_var "$engine" "$tmp/out/str_to_var.jsonl"

finish_fixture "$mode" "$tmp/out/engine.txt" "$dir/engine.txt" "Godot $minor engine version"
finish_fixture "$mode" "$tmp/out/values.jsonl" "$dir/values.jsonl" "Godot $minor values"
finish_fixture "$mode" "$tmp/out/not_decoded.jsonl" "$dir/not_decoded.jsonl" "Godot $minor not decoded"
finish_fixture "$mode" "$tmp/out/str_to_var.jsonl" "$dir/str_to_var.jsonl" "Godot $minor str_to_var"
if [ -n "$double" ]; then
    # The mutants of the 4.6 differential run: the same verdicts, error codes and result
    # types as the single-precision build's (their re-encodings differ: 64-bit math).
    python3 "$godot4/differential.py" --native "$engine" --out "$tmp/differential.jsonl"
    python3 - "$tmp/differential.jsonl" "$repo_root/tests/fixtures/godot4_older/$minor/differential.jsonl" <<'PY'
import json, sys
rows = [[json.loads(line) for line in open(p)] for p in sys.argv[1:]]
judged = lambda r: (r["name"], [(m["verdict"], m["error"], m.get("type")) for m in r["modes"]])
bad = [a["name"] for a, b in zip(*rows) if judged(a) != judged(b)]
if len(rows[0]) != len(rows[1]) or bad:
    sys.exit(f"error: mutant verdicts differ from the single-precision engine's: {bad[:5]}")
print(f"{len(rows[0])} mutants: verdicts, codes and result types equal the single-precision engine's")
PY
    exit 0
fi
finish_fixture "$mode" "$tmp/out/malformed.jsonl" "$dir/malformed.jsonl" "Godot $minor malformed"
# shellcheck disable=SC2086
python3 "$godot4/differential.py" --native "$engine" --out "$repo_root/$dir/differential.jsonl" \
    ${mode:+--check}
