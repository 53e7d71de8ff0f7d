#!/usr/bin/env bash
# Regenerates tests/fixtures/godot4_double/values.jsonl and str_to_var.jsonl from a
# double-precision Godot 4.6.3 engine (tests/godot4/double/build.sh), with the same generators
# as the Godot 4.6 fixtures (tests/godot4/generate.gd, tests/godot4/str_to_var.gd), run
# natively and headless by tests/godot4/run.py --native.
# Usage: tests/godot4/double/regenerate.sh [--check]
#   GODOT4_DOUBLE=path/to/godot   the engine (default: tests/godot4/double/.engine/godot)
#   --check                       compare with the committed files instead of writing them
# Also requires the engine's verdicts and error codes on every malformed input to equal the
# committed single-precision 4.6 ones (tests/fixtures/godot4/malformed.jsonl), except for the
# text of the engine's error line, which names limits as the compiler's headers spell them.
set -euo pipefail
mode="${1:-}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
godot4="$(cd "$here/.." && pwd)"
source "$godot4/../engine_common.sh"  # sets $repo_root and $tmp
engine="${GODOT4_DOUBLE:-$here/.engine/godot}"
output=tests/fixtures/godot4_double/values.jsonl

if ! [ -x "$engine" ] || ! "$engine" --version | grep -q '^4\.6\.3\.stable\.double\.'; then
    echo "error: no double-precision Godot 4.6.3 at $engine: run tests/godot4/double/build.sh" >&2
    exit 1
fi

godot4_native_generate "$engine" "4\\.6\\.3\\.stable\\." 600

godot4_same_malformed "$tmp/out/malformed.jsonl" "$repo_root/tests/fixtures/godot4/malformed.jsonl"

godot4_native_str_to_var "$engine" "$tmp/out/str_to_var.jsonl"

finish_fixture "$mode" "$tmp/out/values.jsonl" "$output" "Godot 4 double-precision values"
finish_fixture "$mode" "$tmp/out/str_to_var.jsonl" tests/fixtures/godot4_double/str_to_var.jsonl \
    "Godot 4 double-precision str_to_var"
