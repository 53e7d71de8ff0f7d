#!/usr/bin/env bash
# Regenerates tests/fixtures/pandemonium/<version>/values.jsonl and texts.jsonl (engine truth
# for the Pandemonium dialects) by running tests/pandemonium/generate.gd in a Pandemonium
# engine; <version> is its major.minor (5.3 for the PANDEMONIUM_5 numbering, 4.9 for
# PANDEMONIUM_3_8).
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
version="$("$engine" --version 2>/dev/null | tail -n 1 | cut -d. -f1-2)"
case "$version" in
    5.3 | 4.9) ;;
    *) echo "error: Pandemonium $version has no fixture directory (5.3 and 4.9 do)" >&2; exit 1 ;;
esac
export GDWIRE_OUT="$tmp/values.jsonl" GDWIRE_TEXTS_OUT="$tmp/texts.jsonl"
run_engine "$engine" pandemonium generate.gd GENERATOR 120
out=tests/fixtures/pandemonium/$version
finish_fixture "${1:-}" "$tmp/values.jsonl" "$out/values.jsonl" "$version values"
finish_fixture "${1:-}" "$tmp/texts.jsonl" "$out/texts.jsonl" "$version texts"
