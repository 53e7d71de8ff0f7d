#!/usr/bin/env python3
"""Differential run against a real Pandemonium engine: mutates the committed values of its
type numbering (tests/fixtures/pandemonium/<numbering>/values.jsonl) deterministically, has
the engine decode every mutant (tests/pandemonium/differential.gd) and writes its verdicts to
tests/fixtures/pandemonium/<numbering>/differential.jsonl, which
tests/pandemonium_differential.rs checks gdwire against.

Usage: PANDEMONIUM=/path/to/engine python3 tests/pandemonium/differential.py [--check]
       (--check: regenerate and compare with the committed file; exit 1 if they differ)

Mutations are those of the Godot 3 run (tests/engine_common.py), seeded, so the same inputs
every run; inputs are capped at 64 KiB. An input the engine dies on is recorded as "crash"
and the run continues after it.
"""
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from engine_common import Mutator, mutants, run_cases  # noqa: E402  (shared with the other engines' runs)

SEED = 7
PER_VALUE = 24
# Hand-made inputs judged after the mutants, per numbering: (name, hex, allow_objects).
EXTRA = {
    "5": [
        # A typed array of objects names its class with a StringName value; other values
        # are refused (a String too), and the count must follow.
        ("typed_class_as_stringname", "1b000000170000001800000004000000" "4e6f646500000000", True),
        ("typed_class_as_string", "1b000000170000000400000004000000" "4e6f646500000000", True),
        ("typed_class_as_int", "1b0000001700000002000000050000000000000000", True),
        ("packed_typed_class_as_string", "1c000000170000000400000004000000" "4e6f646500000000", True),
        ("typed_class_string_truncated", "1b000000170000000400000004000000" "4e6f6465", True),
        ("typed_unknown_element_type", "1b00000063000000020000000200000001000000", True),
        ("typed_objects_as_ids", "1b000100170000000100000017000100" "2a00000000000000", False),
    ],
}
# Type ids per numbering (the dialect's variant_max).
VARIANT_MAX = {"5": 40, "3.8": 38, "3.5": 33}


def numbering(engine):
    """The engine's type numbering, from its --version (as regenerate.sh decides it)."""
    out = subprocess.run([engine, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout.strip().split("\n")[-1]
    major, minor = (int(x) for x in out.split(".")[:2])
    if major >= 5:
        return "5"
    if major == 4 or minor >= 8:
        return "3.8"
    return "3.5"


def mutator(variant_max):
    # The header flags: bit 16 (64-bit numbers, objects as ids) and bits the engine lacks;
    # the decoder masks the type with 0xFF and ignores the top byte for these.
    return Mutator(variant_max=variant_max, flags=[1 << 16, 1 << 17, 1 << 31, 0xFF00, 1 << 8],
                   flag_head_clear=0xFF000000)


def truncations(values_path):
    """Every proper prefix of every value (objects allowed as the value had them): each cut
    through a header, a count, a length, a payload or a pad."""
    out = []
    for line in open(values_path):
        v = json.loads(line)
        b = bytes.fromhex(v["hex"])
        for n in range(len(b)):
            out.append({"name": "%s_cut_%d" % (v["name"], n), "hex": b[:n].hex(),
                        "allow_objects": v["full_objects"]})
    return out


def main():
    engine = os.environ.get("PANDEMONIUM", "")
    if not engine:
        sys.exit("set PANDEMONIUM to a Pandemonium engine binary (tests/pandemonium/README.md)")
    n = numbering(engine)
    fixtures = os.path.join(ROOT, "tests/fixtures/pandemonium", n)
    out = os.path.join(fixtures, "differential.jsonl")
    cs = mutants(os.path.join(fixtures, "values.jsonl"), mutator(VARIANT_MAX[n]), SEED, PER_VALUE)
    cs += [{"name": name, "hex": h, "allow_objects": allow} for name, h, allow in EXTRA.get(n, [])]
    cs += truncations(os.path.join(fixtures, "values.jsonl"))
    rs = run_cases(engine, HERE, cs)
    text = ""
    for c, r in zip(cs, rs):
        line = dict(c, verdict=r["verdict"], error=r["error"], desc=r["desc"])
        if r["problems"]:
            line["problems"] = r["problems"]
        text += json.dumps(line, sort_keys=False) + "\n"
    rel = os.path.relpath(out, ROOT)
    if "--check" in sys.argv[1:]:
        if open(out).read() != text:
            sys.exit("%s differs from what the engine gives now" % rel)
        print("%s: %d cases match the engine" % (rel, len(cs)))
        return
    open(out, "w").write(text)
    verdicts = {}
    for r in rs:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    print("wrote %s: %d cases, %s" % (rel, len(cs), verdicts))


if __name__ == "__main__":
    main()
