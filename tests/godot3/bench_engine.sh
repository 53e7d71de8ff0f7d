#!/usr/bin/env bash
# Times Godot 3.2.3's own bytes2var / var2bytes on the datasets of benches/throughput.rs.
# Usage: tests/godot3/bench_engine.sh [out.tsv]    (needs `godot3-server`; builds the bench)
# Prints `dataset<TAB>decode|encode<TAB>MB/s` lines (median of GDWIRE_BENCH_RUNS runs, default
# 5) and, with an argument, also writes them to that file for benches/report.py.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
godot="${GODOT3_SERVER:-godot3-server}"
datasets="${GDWIRE_BENCH_DATASETS:-a_game_state b_rpc_packets c_strings d_mesh e_deep}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The bench binary writes the exact payloads it measures, then exits.
(cd "$repo_root" && GDWIRE_BENCH_PAYLOADS="$tmp" cargo bench --bench throughput >&2)

status=0
LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 \
GDWIRE_BENCH_PAYLOADS="$tmp" GDWIRE_BENCH_DATASETS="$datasets" \
    timeout 900 "$godot" --path "$here" --script res://bench_engine.gd \
    >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^GDWIRE-BENCH-OK$' "$tmp/stdout"; then
    echo "error: engine benchmark failed (exit status $status)" >&2
    tail -n 20 "$tmp/stderr" >&2
    exit 1
fi
grep -P '\t' "$tmp/stdout" | tee "${1:-/dev/null}"
