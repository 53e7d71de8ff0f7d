#!/usr/bin/env bash
# Regenerates tests/fixtures/pandemonium/<numbering>/values.jsonl and texts.jsonl (engine
# truth for the Pandemonium dialects) by running tests/pandemonium/generate.gd in a
# Pandemonium engine; <numbering> is the engine's type numbering: 5 (PANDEMONIUM_5), 3.8
# (PANDEMONIUM_3_8) or 3.5 (PANDEMONIUM_3_5).
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
# The fixture directory is the engine's type numbering (the dialect's): 5, 3.8 or 3.5.
version="$("$engine" --version 2>/dev/null | tail -n 1 | cut -d. -f1-2 || true)"
case "$version" in
    5.*) numbering=5 ;;
    3.8 | 3.9 | 3.1[0-9] | 4.*) numbering=3.8 ;;
    3.5 | 3.6 | 3.7) numbering=3.5 ;;
    *) echo "error: Pandemonium '$version' has no type numbering known here" >&2; exit 1 ;;
esac
export GDWIRE_OUT="$tmp/values.jsonl" GDWIRE_TEXTS_OUT="$tmp/texts.jsonl"
run_engine "$engine" pandemonium generate.gd GENERATOR 120
out=tests/fixtures/pandemonium/$numbering
finish_fixture "${1:-}" "$tmp/values.jsonl" "$out/values.jsonl" "Pandemonium $version values"
finish_fixture "${1:-}" "$tmp/texts.jsonl" "$out/texts.jsonl" "Pandemonium $version texts"
