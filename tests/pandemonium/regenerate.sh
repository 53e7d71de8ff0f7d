#!/usr/bin/env bash
# Regenerates tests/fixtures/pandemonium/values.jsonl and texts.jsonl (engine truth for the
# PANDEMONIUM_5 dialect) by running tests/pandemonium/generate.gd in a Pandemonium engine.
# Usage: PANDEMONIUM=/path/to/pandemonium tests/pandemonium/regenerate.sh          (writes it)
#        PANDEMONIUM=/path/to/pandemonium tests/pandemonium/regenerate.sh --check  (compares)
# No package ships Pandemonium: PANDEMONIUM names a binary you have (a headless "server"
# build is enough); README.md says which build made the committed file.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../engine_common.sh"
engine="${PANDEMONIUM:-}"
if [ -z "$engine" ] || ! command -v "$engine" >/dev/null 2>&1; then
    echo "error: set PANDEMONIUM to a Pandemonium engine binary (see tests/pandemonium/README.md)" >&2
    exit 1
fi
export GDWIRE_OUT="$tmp/values.jsonl" GDWIRE_TEXTS_OUT="$tmp/texts.jsonl"
run_engine "$engine" pandemonium generate.gd GENERATOR 120
finish_fixture "${1:-}" "$tmp/values.jsonl" tests/fixtures/pandemonium/values.jsonl values
finish_fixture "${1:-}" "$tmp/texts.jsonl" tests/fixtures/pandemonium/texts.jsonl texts
