#!/usr/bin/env python3
"""Differential run against the real Godot 4.6 engine: deterministic mutants of values the
engine itself encoded, each decoded by the engine with bytes_to_var and
bytes_to_var_with_objects; the verdicts, error codes and re-encoded results go to
tests/fixtures/godot4/differential.jsonl, which tests/godot4_differential.rs checks gdwire's
Dialect::GODOT_4 decoder against.

Usage: tests/godot4/differential.py          (one command; needs tests/godot4/install.sh done)
       tests/godot4/differential.py --check  (has the engine decode the committed mutants again
                                              and fails unless its verdicts are the committed ones)
       tests/godot4/differential.py --native ENGINE
                                             (a local native build, e.g. tests/godot4/double/'s,
                                              decodes the committed mutants: fails unless every
                                              verdict, code and result type is the same)
       tests/godot4/differential.py --native ENGINE --out FILE [--check]
                                             (an older engine, tests/godot4/older/, decodes the
                                              committed mutants and its verdicts go to FILE;
                                              --check: compare with FILE instead)
       tests/godot4/differential.py --campaign SEED PER_VALUE FILE
                                             (a longer run, not committed: PER_VALUE mutants of
                                              every seed value from another SEED, each one to
                                              three mutations in a row, with the engine's
                                              verdicts, go to FILE; then
                                              GDWIRE_DIFFERENTIAL_CAMPAIGN=FILE cargo test --test
                                              godot4_differential -- --ignored)

The seeds include tests/fixtures/godot4/values.jsonl: after regenerating that file, run this
again to mutate the new values (--check does not depend on the seeds).

Two engine runs (tests/godot4/run.py, ~5 s each):
 1. differential_seeds.gd prints var_to_bytes (objects: var_to_bytes_with_objects) of ~120
    values of every Godot 4 type with edge values; the committed value fixtures
    (tests/fixtures/godot4/values.jsonl, also engine-made) are added to these seeds;
 2. differential.gd decodes every mutant in both object modes, bracketing each decode with
    marker lines on stderr, where a release build prints its `ERROR: ... Returning: ERR_X`
    lines; the first `Returning:` in a bracket is the engine's error code.

Mutations (seeded: the same inputs every run), the kinds of the Godot 3 run
(tests/godot3/differential.py) with Godot 4 type ids and header flags: bit flips, truncations,
count and length fields set to edge values or nudged, type bytes and header flags changed
(bit 16 = 64-bit reals, bits 16-19 = typed container kinds), aligned words inserted and
deleted, splices of two values. Inputs are capped at 16 KiB.

Each output line: {"name", "kind", "hex", "modes": [m0, m1]} where m is
{"verdict": "ok"|"error", "error": <Godot Error code, 0 when ok>, "type": <typeof>,
 "reenc": <hex of var_to_bytes_with_objects(result)> (when ok and not nil),
 "messages": <the engine's ERROR lines, "message @ function (file:line)"> (when error)}.
"""
import json, os, random, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from engine_common import Mutator  # noqa: E402  (the mutator both engines' runs share)

OUT = os.path.join(ROOT, "tests/fixtures/godot4/differential.jsonl")
VALUES = os.path.join(ROOT, "tests/fixtures/godot4/values.jsonl")
RUN = os.path.join(HERE, "run.py")
ITEM = os.path.join(HERE, "typed_item.gd") + "=res://typed_item.gd"
SEED = 4
PER_VALUE = 12
MAX_LEN = 16384
# 39 type ids; header flags: bit 16 (64-bit reals), bits 16-19 (typed container kinds).
MUTATOR = Mutator(variant_max=39,
                  flags=[1 << 16, 1 << 17, 1 << 18, 1 << 19, 3 << 16, 1 << 20, 1 << 31, 0xFF00,
                         1 << 8],
                  flag_head_clear=0xFF00FF00)
# Godot `Error` values of core/error/error_list.h, by the names ERR_FAIL_* messages print.
ERRORS = {"FAILED": 1, "ERR_UNAVAILABLE": 2, "ERR_UNCONFIGURED": 3, "ERR_UNAUTHORIZED": 4,
          "ERR_PARAMETER_RANGE_ERROR": 5, "ERR_OUT_OF_MEMORY": 6, "ERR_FILE_EOF": 18,
          "ERR_INVALID_DATA": 30, "ERR_INVALID_PARAMETER": 31, "ERR_PARSE_ERROR": 43,
          "ERR_BUG": 47}
# marshalls.cpp failure sites whose message does not print "Returning: <code>"
# (ERR_FAIL_INDEX_V_MSG / ERR_FAIL_V_MSG / ERR_FAIL_NULL_V), with the code they return in
# the engine's source.
SILENT_CODES = [("_decode_container_type", "is out of bounds", "ERR_INVALID_DATA"),
                ("decode_variant", 'Invalid value for "script" property', "ERR_INVALID_DATA"),
                ("decode_variant", "Invalid script path", "ERR_INVALID_DATA"),
                ("_decode_container_type", "Invalid script path", "ERR_INVALID_DATA"),
                # Godot 4.3: a typed array's builtin element type out of range
                ("decode_variant", "Index bt = ", "ERR_INVALID_DATA"),
                # Godot 4.2: ClassDB could not instantiate a full object's class
                ("decode_variant", 'Parameter "obj" is null.', "ERR_UNAVAILABLE")]


NATIVE = None  # --native ENGINE: a local native build instead of the web engine


def engine(script, files, out_dir=None):
    cmd = [sys.executable, RUN, "--timeout", "300"]
    if NATIVE:
        cmd += ["--native", NATIVE]
    if out_dir:
        cmd += ["--out-dir", out_dir]
    p = subprocess.run(cmd + [script] + files, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    if p.returncode != 0:
        sys.exit("%s: engine exit %d\n%s" % (script, p.returncode, err[-4000:]))
    return out, err


def seeds():
    out, _ = engine(os.path.join(HERE, "differential_seeds.gd"), [ITEM])
    if "GDWIRE-SEEDS-OK" not in out:
        sys.exit("differential_seeds.gd did not finish")
    result, names = [], {}
    for line in out.splitlines():
        if line.startswith("SEED "):
            _, name, _full, h = line.split(" ")
            names[name] = names.get(name, 0) + 1
            if names[name] > 1:
                name = "%s_%d" % (name, names[name])
            result.append((name, bytes.fromhex(h)))
    return result


def fixture_values():
    """The committed engine-made value fixtures (tests/godot4/regenerate.sh), as more seeds."""
    result = []
    with open(VALUES) as f:
        for line in f:
            v = json.loads(line)
            result.append(("fx_" + v["name"], bytes.fromhex(v["hex"])))
    return result


# Inputs that found a bug, kept as they are (not mutated) so the test can name them.
REGRESSIONS = [
    # A BUILTIN element-type block naming NIL leaves that side untyped (was Builtin(Nil)).
    ("regression_builtin_nil_array", "1c0001000000000000000000"),
    ("regression_builtin_nil_dict_value", "1b000500040000000000000000000000"),
]


def cases(values, seed=SEED, per_value=PER_VALUE, stack=1):
    rng = random.Random(seed)
    out, seen = [], set()
    for name, b in values:
        for k in range(per_value):
            other = rng.choice(values)[1]
            kind, m = MUTATOR.mutate_stacked(rng, b, other, stack)
            m = m[:MAX_LEN]
            if m in seen:
                continue
            seen.add(m)
            out.append({"name": "%s_%s_%d" % (name, kind, k), "kind": kind, "hex": m.hex()})
    for name, h in REGRESSIONS:
        out.append({"name": name, "kind": "regression", "hex": h})
    return out


def decode_all(cs):
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "cases.txt")
    with open(path, "w") as f:
        for c in cs:
            f.write((c["hex"] or "-") + "\n")
    out, err = engine(os.path.join(HERE, "differential.gd"),
                      [ITEM, path + "=res://cases.txt"])
    if "GDWIRE-DIFF-OK %d" % len(cs) not in out:
        sys.exit("differential.gd did not finish:\n" + err[-4000:])
    results = {}
    for line in out.splitlines():
        if line.startswith("R "):
            _, i, m, t, reenc = line.split(" ")
            results[(int(i), int(m))] = {"type": int(t), "reenc": None if reenc == "-" else reenc}
    errors, window = {}, None
    for line in err.splitlines():
        if line.startswith("GDWIRE-MARK:"):
            parts = line.split(":")
            window = None if len(parts) == 4 else (int(parts[1]), int(parts[2]))
            if window is not None:
                errors[window] = []
        elif window is not None and line.startswith("ERROR: "):
            errors[window].append(line[len("ERROR: "):])
        elif window is not None and line.startswith("   at: ") and errors[window]:
            errors[window][-1] += " @ " + line.strip()[len("at: "):]
    rows = []
    for i, c in enumerate(cs):
        b = bytes.fromhex(c["hex"])
        modes = []
        for m in (0, 1):
            r, lines = results[(i, m)], errors.get((i, m), [])
            codes = []
            for l in lines:
                if "Returning: " in l:
                    codes.append(l.split("Returning: ", 1)[1].split(" @ ")[0].strip())
                codes += [c for f, msg, c in SILENT_CODES if msg in l and " @ " + f + " " in l]
            legit_nil = len(b) >= 4 and b[0] == 0
            failed = r["type"] == 0 and not legit_nil
            entry = {"verdict": "error" if failed else "ok", "type": r["type"]}
            if failed:
                entry["error"] = ERRORS.get(codes[0], -1) if codes else -1
                entry["messages"] = lines
                if not codes:
                    entry["problem"] = "null result without a Returning: line"
            else:
                entry["error"] = 0
                if r["reenc"] is not None:
                    entry["reenc"] = r["reenc"]
                if lines:
                    entry["engine_errors"] = lines  # decoded, but the engine complained
            modes.append(entry)
        rows.append(dict(c, modes=modes))
    return rows


def same_verdicts(engine_path):
    """Has a native build (the double-precision one of tests/godot4/double/) decode the
    committed mutants and fails unless every verdict, error code and result type is the
    committed engine's. Re-encodings are not compared (a double build writes its math in
    64 bits), nor the error lines' text."""
    global NATIVE
    NATIVE = engine_path
    with open(OUT) as f:
        committed = [json.loads(l) for l in f]
    cs = [{k: r[k] for k in ("name", "kind", "hex")} for r in committed]
    rows = decode_all(cs)
    keys = ("verdict", "error", "type")
    bad = [r["name"] for r, c in zip(rows, committed)
           if [[m[k] for k in keys] for m in r["modes"]] != [[m[k] for k in keys] for m in c["modes"]]]
    if bad:
        sys.exit("%d of %d mutants judged differently, first: %s" % (len(bad), len(cs), bad[:5]))
    print("%s: the same verdicts, error codes and result types on all %d mutants in both "
          "object modes" % (engine_path, len(cs)))


def same_row(a, b):
    """Rows equal but for the pad bytes of NodePath names in re-encodings: engines before
    4.6.3 leave them uninitialised, and a native build's heap differs from run to run. A
    re-encoding that differs must hold a NodePath header (a word 0x16 at a 4-byte boundary)
    and keep its length."""
    if a == b:
        return True
    if a["name"] != b["name"] or a["hex"] != b["hex"] or len(a["modes"]) != len(b["modes"]):
        return False
    for m, n in zip(a["modes"], b["modes"]):
        if {k: v for k, v in m.items() if k != "reenc"} != {k: v for k, v in n.items() if k != "reenc"}:
            return False
        x, y = m.get("reenc"), n.get("reenc")
        if x == y:
            continue
        if x is None or y is None or len(x) != len(y):
            return False
        words = [x[i:i + 8] for i in range(0, len(x), 8)]
        if "16000000" not in words:
            return False
    return True


def own_verdicts(engine_path, out, check):
    """Has a native build of another engine version (tests/godot4/older/) decode the committed
    mutants and writes its verdicts to `out` (or compares them with it)."""
    global NATIVE
    NATIVE = engine_path
    with open(OUT) as f:
        cs = [{k: json.loads(l)[k] for k in ("name", "kind", "hex")} for l in f]
    rows = decode_all(cs)
    text = "".join(json.dumps(r) + "\n" for r in rows)
    if check:
        if not os.path.exists(out):
            sys.exit("%s is missing" % out)
        with open(out) as f:
            kept = [json.loads(l) for l in f]
        bad = [r["name"] for r, k in zip(rows, kept) if not same_row(r, k)]
        if len(kept) != len(rows) or bad:
            sys.exit("%s differs from the engine's output: %s" % (out, bad[:5]))
        print("%s matches the engine (%d mutants)" % (out, len(cs)))
        return
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write(text)
    print("wrote %s (%d mutants)" % (out, len(cs)))


def campaign(seed, per_value, out):
    """Mutants from another seed, as many per value as asked, with the engine's verdicts, to
    `out` (the committed run's seed and the regressions are left out)."""
    if seed == SEED:
        sys.exit("seed %d is the committed run's" % SEED)
    values = seeds() + fixture_values()
    cs = [c for c in cases(values, seed, per_value, stack=3) if c["kind"] != "regression"]
    rows = decode_all(cs)
    with open(out, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print("wrote %s: %d seeds, %d mutants x 2 modes (seed %d)" % (out, len(values), len(cs), seed))


def main():
    if sys.argv[1:2] == ["--campaign"] and len(sys.argv) == 5:
        return campaign(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    if sys.argv[1:2] == ["--native"] and len(sys.argv) == 3:
        return same_verdicts(sys.argv[2])
    if sys.argv[1:2] == ["--native"] and sys.argv[3:4] == ["--out"] and len(sys.argv) in (5, 6):
        return own_verdicts(sys.argv[2], sys.argv[4], sys.argv[5:] == ["--check"])
    check = sys.argv[1:] == ["--check"]
    if check:
        with open(OUT) as f:
            cs = [{k: json.loads(l)[k] for k in ("name", "kind", "hex")} for l in f]
        values = []
    else:
        values = seeds() + fixture_values()
        cs = cases(values)
    rows = decode_all(cs)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT + ".tmp", "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    if check:
        same = open(OUT + ".tmp").read() == open(OUT).read()
        os.remove(OUT + ".tmp")
        if not same:
            sys.exit("%s differs from the engine's output: run tests/godot4/differential.py"
                     % os.path.relpath(OUT, ROOT))
        print("%s matches the engine (%d mutants)" % (os.path.relpath(OUT, ROOT), len(cs)))
        return
    os.replace(OUT + ".tmp", OUT)
    stats = {}
    for r in rows:
        for m in r["modes"]:
            key = m["verdict"] if m["verdict"] == "ok" else "error %d" % m["error"]
            stats[key] = stats.get(key, 0) + 1
    print("wrote %s: %d seeds, %d mutants x 2 modes: %s"
          % (os.path.relpath(OUT, ROOT), len(values), len(cs), stats))


if __name__ == "__main__":
    main()
