#!/usr/bin/env python3
"""Prints the throughput table of `cargo bench --bench throughput` from criterion's files
(and the rows of any other bench run into the same directory that has a byte throughput).

Usage: python3 benches/report.py [--before DIR | --summary] [target/criterion] [engine.tsv]

The criterion directory may be several, joined by commas (copies of `target/criterion` from
runs of the same tree one after another): each benchmark's time is then the median of the
runs' medians, for benchmarks that every run has.

With `--before DIR` (a copy of an earlier run's `target/criterion`), two more columns give
that run's throughput and the ratio now / before. With `--summary`, one line per dataset
instead: the main operations side by side (the summary table of docs/performance.md).

For each dataset: the median time of every operation, its throughput (MB/s = 10^6 bytes/s,
from the bytes criterion was told about), the ratio to `memcpy` of the dataset's bytes in the
same run, and the ratios to the peer crate and the engine where both were measured on the same
data. `engine.tsv` (optional) is the output of tests/godot3/bench_engine.sh: lines
`dataset<TAB>op<TAB>MB/s` with op `decode` or `encode`.
"""
import json
import os
import sys

args = sys.argv[1:]
before_root = None
summary = False
if len(args) >= 2 and args[0] == "--before":
    before_root, args = args[1], args[2:]
elif args and args[0] == "--summary":
    summary, args = True, args[1:]
root = args[0] if args else "target/criterion"
engine = {}
if len(args) > 1:
    for line in open(args[1]):
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("decode", "encode"):
            engine[(parts[0], parts[1])] = float(parts[2])

def results(root):
    """Every benchmark under criterion's `root` with a byte throughput: (group, bench) ->
    (median ns, MB/s). A parameterised benchmark (`group/bench/<bytes>/new`) counts as
    `bench`. Several roots joined by commas: the median of their medians."""
    if "," in root:
        runs = [results(r) for r in root.split(",")]
        out = {}
        for key in set.intersection(*(set(r) for r in runs)):
            times = sorted(r[key][0] for r in runs)
            n = len(times)
            ns = times[n // 2] if n % 2 else (times[n // 2 - 1] + times[n // 2]) / 2
            mbs = runs[0][key][1] * runs[0][key][0] / ns
            out[key] = (ns, mbs)
        return out
    out = {}
    for group in sorted(os.listdir(root)):
        gdir = os.path.join(root, group)
        if not os.path.isdir(gdir) or group == "report":
            continue
        for dirpath, dirs, _ in sorted(os.walk(gdir)):
            if os.path.basename(dirpath) != "new":
                continue
            parts = os.path.relpath(os.path.dirname(dirpath), gdir).split(os.sep)
            if len(parts) > 1 and parts[-1].isdigit():
                parts = parts[:-1]
            try:
                meta = json.load(open(os.path.join(dirpath, "benchmark.json")))
                est = json.load(open(os.path.join(dirpath, "estimates.json")))
            except (OSError, ValueError):
                continue
            tp = (meta.get("throughput") or {}).get("Bytes")
            if tp is None:
                continue
            ns = est["median"]["point_estimate"]
            out[(group, "/".join(parts))] = (ns, tp / ns * 1e3)  # MB/s
    return out


before = {k: mbs for k, (_, mbs) in results(before_root).items()} if before_root else {}
rows = {}
for (group, bench), row in sorted(results(root).items()):
    rows.setdefault(group, {})[bench] = row


def fmt_time(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def fmt_rate(mbs):
    return f"{mbs / 1e3:.2f} GB/s" if mbs >= 1e3 else f"{mbs:.0f} MB/s"


def print_summary():
    """One line per dataset: GB/s of the main operations, the lazy walk's time against the
    `Walker`'s, and the `Walker` against the peer's decode and the engine's."""
    cols = ["g4_validate", "g4_walker", "g4_walk_resume", "g4_reencode", "g4_forward",
            "g4_to_g3", "g4_encode"]
    print("| dataset | validate | `Walker` | lazy walk (`resume`) | re-encode | re-encode, relay"
          " decoder | into Godot 3 | encode | `Walker` / peer decode | `Walker` / engine decode |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    def gbs(ns, mbs):
        # Validating the meshes' packed arrays does not depend on their size: a time.
        return f"{mbs / 1e3:.2f}" if mbs < 1e6 else f"{fmt_time(ns)} per pass"

    for group, benches in rows.items():
        if "g4_walker" not in benches:
            continue
        cell = {c: (gbs(*benches[c]) if c in benches else "") for c in cols}
        if "g4_walk_resume" in benches and "g4_walker" in benches:
            ratio = benches["g4_walk_resume"][0] / benches["g4_walker"][0]
            cell["g4_walk_resume"] += f" ({ratio:.2f}x the time)"
        peer = ""
        if "subset_g4_walker" in benches and "subset_peer_decode" in benches:
            peer = f"{benches['subset_g4_walker'][1] / benches['subset_peer_decode'][1]:.1f}x"
        eng = ""
        if "g3_walker" in benches and (group, "decode") in engine:
            eng = f"{benches['g3_walker'][1] / engine[(group, 'decode')]:.1f}x"
        print(f"| {group} | " + " | ".join(cell[c] for c in cols) + f" | {peer} | {eng} |")


if summary:
    print_summary()
    sys.exit(0)

extra_head = " before | now / before |" if before_root else ""
print("| dataset | operation | median time | throughput | vs memcpy | vs peer crate | vs engine |" + extra_head)
print("|---|---|---|---|---|---|---|" + ("---|---|" if before_root else ""))
for group, benches in rows.items():
    memcpy = benches.get("memcpy", (None, None))[1]
    for bench, (ns, mbs) in benches.items():
        vs_mem = f"1/{memcpy / mbs:.1f}" if memcpy and mbs < memcpy else (
            f"{mbs / memcpy:.2f}" if memcpy else "")
        peer = ""
        if bench in ("subset_g4_walk", "subset_g4_walker") and "subset_peer_decode" in benches:
            peer = f"{mbs / benches['subset_peer_decode'][1]:.1f}x"
        if bench == "subset_g4_encode" and "subset_peer_encode" in benches:
            peer = f"{mbs / benches['subset_peer_encode'][1]:.1f}x"
        eng = ""
        if bench in ("g3_walk", "g3_walker") and (group, "decode") in engine:
            eng = f"{mbs / engine[(group, 'decode')]:.1f}x"
        if bench == "g3_encode" and (group, "encode") in engine:
            eng = f"{mbs / engine[(group, 'encode')]:.1f}x"
        extra = ""
        if before_root:
            b = before.get((group, bench))
            extra = f" {fmt_rate(b)} | {mbs / b:.2f} |" if b else " | |"
        print(f"| {group} | {bench} | {fmt_time(ns)} | {fmt_rate(mbs)} | {vs_mem} | {peer} | {eng} |{extra}")
for (group, op), mbs in sorted(engine.items()):
    print(f"| {group} | engine_{op} (Godot 3.2.3) | | {fmt_rate(mbs)} | | | |" + (" | |" if before_root else ""))
