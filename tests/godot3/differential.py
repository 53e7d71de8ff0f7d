#!/usr/bin/env python3
"""Differential run against the real engine: mutates the committed Godot 3.2.3 values
(tests/fixtures/godot3/values.jsonl) deterministically, has godot3-server decode every mutant
(tests/godot3/differential.gd) and writes the engine's verdicts to
tests/fixtures/godot3/differential.jsonl, which tests/godot3_differential.rs checks gdwire
against.

Usage: python3 tests/godot3/differential.py          (one command; needs godot3-server)
       python3 tests/godot3/differential.py --check  (regenerates and compares with the
                                                      committed file; exit 1 if they differ)
       GODOT3_SERVER=/path/to/godot python3 tests/godot3/differential.py
       python3 tests/godot3/differential.py [--check] --engine 3.6
           the same mutants judged by Godot 3.6 (installed by install_3_6.sh), into
           tests/fixtures/godot3/differential_3_6.jsonl
       python3 tests/godot3/differential.py --campaign SEED PER_VALUE FILE
           a longer run, not committed: PER_VALUE mutants of every value from another SEED,
           each one to three mutations in a row, with the engine's verdicts, into FILE; then
           GDWIRE_DIFFERENTIAL_CAMPAIGN=FILE cargo test --test godot3_differential -- --ignored

Mutations (seeded, so the same inputs every run): bit flips, truncations, count and length
fields set to edge values, type bytes and header flags changed, aligned words inserted and
deleted, splices of two values. Inputs are capped at 64 KiB and nesting cannot exceed the
fixtures' own (a few levels), so none of the 3.2.3 crash shapes (~30,000 nested arrays) can
occur; if the engine still dies on an input, that input is recorded as "crash" and the run
continues after it.
"""
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from engine_common import Mutator, mutants, run_cases  # noqa: E402  (shared with the other engines' runs)

VALUES = os.path.join(ROOT, "tests/fixtures/godot3/values.jsonl")
OUT = os.path.join(ROOT, "tests/fixtures/godot3/differential.jsonl")
GODOT = os.environ.get("GODOT3_SERVER", "godot3-server")
SEED = 6
PER_VALUE = 24
# Godot 3.2.3 has 27 type ids; the flags are bit 16 (the one 3.2.3 header flag) and bits it lacks.
MUTATOR = Mutator(variant_max=27, flags=[1 << 16, 1 << 17, 1 << 31, 0xFF00, 1 << 8],
                  flag_head_clear=0xFF000000)


def main():
    global GODOT, OUT
    args = sys.argv[1:]
    check = "--check" in args
    seed, per_value, stack = SEED, PER_VALUE, 1
    if args[:1] == ["--campaign"]:
        if len(args) != 4:
            sys.exit("--campaign SEED PER_VALUE FILE")
        seed, per_value, OUT = int(args[1]), int(args[2]), os.path.abspath(args[3])
        stack = 3
        if seed == SEED:
            sys.exit("seed %d is the committed run's" % SEED)
    if "--engine" in args:
        if args[args.index("--engine") + 1:][:1] != ["3.6"]:
            sys.exit("--engine: only 3.6 (tests/godot3/install_3_6.sh)")
        GODOT = subprocess.run(["bash", os.path.join(HERE, "install_3_6.sh")], check=True,
                               stdout=subprocess.PIPE, text=True).stdout.strip()
        OUT = os.path.join(ROOT, "tests/fixtures/godot3/differential_3_6.jsonl")
    cs = mutants(VALUES, MUTATOR, seed, per_value, stack)
    rs = run_cases(GODOT, HERE, cs)
    with open(OUT + ".tmp", "w") as f:
        for c, r in zip(cs, rs):
            line = dict(c, verdict=r["verdict"], error=r["error"], desc=r["desc"])
            if r["problems"]:
                line["problems"] = r["problems"]
            f.write(json.dumps(line, sort_keys=False) + "\n")
    if check:
        same = open(OUT + ".tmp").read() == open(OUT).read()
        os.remove(OUT + ".tmp")
        if not same:
            sys.exit("%s differs from what the engine gives now" % os.path.relpath(OUT, ROOT))
        print("%s: %d cases match the engine" % (os.path.relpath(OUT, ROOT), len(cs)))
        return
    os.replace(OUT + ".tmp", OUT)
    verdicts = {}
    for r in rs:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    print("wrote %s: %d cases, %s" % (OUT if seed != SEED else os.path.relpath(OUT, ROOT), len(cs), verdicts))


if __name__ == "__main__":
    main()
