#!/usr/bin/env bash
# Runs fuzz targets one after another (one core each: the machine is shared) and prints,
# per target, executions, time, final coverage and when coverage last grew.
# Usage: fuzz/run.sh SECONDS target...   (logs in fuzz/logs/<target>.log; seed first: fuzz/seed.sh)
set -uo pipefail
cd "$(dirname "$0")"
secs="$1"; shift
mkdir -p logs
for t in "$@"; do
    mkdir -p "corpus/$t"
    cargo +nightly fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 >"logs/$t.log" 2>&1
    status=$?
    python3 - "$t" "logs/$t.log" "$status" <<'PY'
import re, sys
t, log, status = sys.argv[1], sys.argv[2], sys.argv[3]
last_cov, last_growth, execs, secs, cov = 0, 0, 0, 0, 0
for line in open(log, errors="replace"):
    m = re.match(r"#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: \S+ .*exec/s: (\d+)", line)
    if m:
        execs, cov = int(m.group(1)), int(m.group(2))
        rate = int(m.group(4)) or 1
        secs_now = execs / rate
        if cov > last_cov:
            last_cov, last_growth = cov, secs_now
    m = re.match(r"stat::number_of_executed_units: (\d+)", line)
    if m: execs = int(m.group(1))
    m = re.match(r"Done (\d+) runs in (\d+) second", line)
    if m: execs, secs = int(m.group(1)), int(m.group(2))
crash = any(k in open(log, errors="replace").read() for k in ("ERROR: libFuzzer", "panicked", "SUMMARY: AddressSanitizer"))
print(f"{t}: exit {status}, {execs} execs in {secs} s, final cov {cov}, cov last grew at ~{last_growth:.0f} s{', CRASH' if crash else ''}")
PY
done
