"""Shared by the engine scripts (tests/godot3/, tests/godot4/, tests/pandemonium/): the seeded
mutator of the differential runs, and the runner of a Godot 3 style engine over the cases. The two engines differ only in the parameters of a
`Mutator` (how many type ids there are, which header flag bits exist); the sequence of random
draws is the same for both, so a given seed gives the same mutants as before this was shared.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

EDGE_WORDS = [0, 1, 2, 3, 4, 5, 7, 8, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x40000000, 0xFFFF]
KINDS = ["flip", "flip2", "trunc", "count", "count_delta", "type", "flags", "insert", "delete",
         "splice"]


def words(b):
    """The little-endian 32-bit words of `b` (a trailing partial word is left out)."""
    return [int.from_bytes(b[i:i + 4], "little") for i in range(0, len(b) - 3, 4)]


def set_word(b, i, w):
    return b[:4 * i] + w.to_bytes(4, "little") + b[4 * i + 4:]


class Mutator:
    """Bit flips, truncations, count and length fields set to edge values or nudged, type bytes
    and header flags changed, aligned words inserted and deleted, splices of two values.

    variant_max: the number of type ids of the dialect (27 for Godot 3, 39 for Godot 4);
    flags: the header bits the "flags" kind toggles, one chosen per mutant;
    flag_head_clear: the bits a word must have clear to have its flags toggled (Godot 3 looks
    only at the top byte; Godot 4 also wants the byte above the type id clear).
    """

    def __init__(self, variant_max, flags, flag_head_clear):
        self.variant_max = variant_max
        self.flags = flags
        self.flag_head_clear = flag_head_clear

    def is_head(self, w, clear=0xFF00):
        """A word that looks like a header: a valid type id and the bits `clear` clear."""
        return (w & 0xFF) < self.variant_max and w & clear == 0

    def mutate(self, rng, b, other):
        """One mutant of `b` (`other`: a second value for splices), as (kind, bytes)."""
        kind = rng.choice(KINDS)
        ws = words(b)
        if kind in ("flip", "flip2") and b:
            b = bytearray(b)
            for _ in range(1 if kind == "flip" else 2):
                bit = rng.randrange(len(b) * 8)
                b[bit // 8] ^= 1 << (bit % 8)
            return kind, bytes(b)
        if kind == "trunc" and b:
            return kind, b[:rng.randrange(len(b))]
        if kind in ("count", "count_delta") and len(ws) > 1:
            # Counts and lengths are aligned words after a header; prefer small ones.
            small = [i for i, w in enumerate(ws) if i > 0 and w < 0x10000] \
                or list(range(1, len(ws)))
            i = rng.choice(small)
            if kind == "count":
                w = rng.choice(EDGE_WORDS)
            else:
                w = (ws[i] + rng.choice([-3, -2, -1, 1, 2, 3, 4, 100])) & 0xFFFFFFFF
            return kind, set_word(b, i, w)
        if kind == "type" and ws:
            heads = [i for i, w in enumerate(ws) if self.is_head(w)] or [0]
            i = rng.choice(heads)
            return kind, set_word(b, i, (ws[i] & ~0xFF) | rng.randrange(0, self.variant_max + 3))
        if kind == "flags" and ws:
            heads = [i for i, w in enumerate(ws) if self.is_head(w, self.flag_head_clear)] or [0]
            i = rng.choice(heads)
            return kind, set_word(b, i, ws[i] ^ rng.choice(self.flags))
        if kind == "insert":
            i = rng.randrange(len(ws) + 1)
            w = rng.choice(EDGE_WORDS + [rng.randrange(self.variant_max), rng.getrandbits(32)])
            return kind, b[:4 * i] + w.to_bytes(4, "little") + b[4 * i:]
        if kind == "delete" and len(ws) > 1:
            i = rng.randrange(len(ws))
            return kind, b[:4 * i] + b[4 * i + 4:]
        if kind == "splice" and other:
            cut = 4 * rng.randrange(len(ws) + 1)
            cut2 = 4 * rng.randrange(len(other) // 4 + 1)
            return kind, b[:cut] + other[cut2:]
        # Fallback when the chosen kind does not apply: a byte flip anywhere (or a lone byte).
        if not b:
            return "byte", bytes([rng.randrange(256)])
        b = bytearray(b)
        b[rng.randrange(len(b))] ^= 0xFF
        return "byte", bytes(b)

    def mutate_stacked(self, rng, b, other, most):
        """One to `most` mutations of `b` applied one after another (a campaign's mutants,
        farther from the engine's own bytes than one mutation gets), as ("kind+kind", bytes).
        With `most` 1 this is `mutate`, draw for draw."""
        kinds = []
        for _ in range(1 if most == 1 else rng.randint(1, most)):
            kind, b = self.mutate(rng, b, other)
            kinds.append(kind)
        return "+".join(kinds), b


def mutants(values_path, mutator, seed, per_value, stack=1):
    """`per_value` seeded mutants of each value of a values.jsonl fixture ({"name", "hex",
    "full_objects"}), without repeats, as cases for `run_cases`: objects allowed as the value
    had them, or (one time in five) the other way. Each is one to `stack` mutations."""
    rng = random.Random(seed)
    values = [json.loads(l) for l in open(values_path)]
    out, seen = [], set()
    for v in values:
        b = bytes.fromhex(v["hex"])
        for k in range(per_value):
            other = bytes.fromhex(rng.choice(values)["hex"])
            kind, m = mutator.mutate_stacked(rng, b, other, stack)
            m = m[:65536]
            allow = v["full_objects"] if rng.random() < 0.8 else not v["full_objects"]
            key = (m, allow)
            if key in seen:
                continue
            seen.add(key)
            out.append({"name": "%s_%s_%d" % (v["name"], kind, k), "hex": m.hex(),
                        "allow_objects": allow})
    return out


def run_cases(engine, project, cs):
    """Has `engine` (a Godot 3 style runtime) decode every case of `cs` ({"hex",
    "allow_objects"}) with `project`/differential.gd, restarting it after a case it crashed on
    (recorded as "crash"); returns the script's results in case order."""
    tmp = tempfile.mkdtemp()
    inp, res, log = (os.path.join(tmp, n) for n in ("in.txt", "out.jsonl", "stderr.log"))
    with open(inp, "w") as f:
        for c in cs:
            f.write("%d %s\n" % (1 if c["allow_objects"] else 0, c["hex"]))
    open(res, "w").close()
    results, start, restarts = {}, 0, 0
    while start < len(cs):
        open(log, "w").close()
        env = dict(os.environ, LANG="en_US.UTF-8", LC_ALL="en_US.UTF-8", GDWIRE_DIFF_IN=inp,
                   GDWIRE_DIFF_OUT=res, GDWIRE_DIFF_START=str(start), GDWIRE_STDERR_LOG=log)
        with open(log, "w") as err:
            p = subprocess.run(["timeout", "300", engine, "--path", project, "--script",
                                "res://differential.gd"], env=env, stdout=subprocess.PIPE,
                               stderr=err)
        for line in open(res):
            r = json.loads(line)
            results[r["index"]] = r
        done = b"GDWIRE-DIFF-OK" in p.stdout and len(results) == len(cs)
        if done:
            break
        if harness_error(open(log, errors="replace").read()):
            sys.exit("differential.gd hit a script error; see " + log)
        crashed = min(i for i in range(len(cs)) if i not in results)
        print("engine died (exit %d) on case %d (%s); continuing after it"
              % (p.returncode, crashed, cs[crashed]["name"]), file=sys.stderr)
        results[crashed] = {"index": crashed, "verdict": "crash", "error": -1, "desc": None,
                            "problems": ["engine exit %d" % p.returncode]}
        start = crashed + 1
        restarts += 1
        if restarts > 50:
            sys.exit("too many engine crashes")
    return [results[i] for i in range(len(cs))]


def harness_error(log):
    """A script error of differential.gd itself. 3.4+ compiles the source of a decoded
    object's built-in script, so a mutated one fails to parse (`at: GDScript::reload
    (built-in:N)`): that is the input's script, not ours."""
    lines = log.split("\n")
    for i, l in enumerate(lines):
        if l.startswith("SCRIPT ERROR"):
            at = lines[i + 1] if i + 1 < len(lines) else ""
            if "GDScript::reload (built-in" not in at:
                return True
    return False
