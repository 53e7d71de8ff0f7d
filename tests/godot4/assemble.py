#!/usr/bin/env python3
"""Joins what tests/godot4/generate.gd printed into the fixture files.

    assemble.py STDOUT STDERR OUTDIR

generate.gd prints one `GDWIRE-ROW:<file>:<json>` line per row on stdout and brackets every
decode with `GDWIRE-MARK:<n>:a`, `:b`, `:end` on stderr. Between `a` and `b` the engine ran
`bytes_to_var` (or `bytes_to_var_with_objects`), between `b` and `end`
`StreamPeerBuffer.get_var` on the same bytes. In a release build the only trace of a failed
decode is on stderr:

* verdict: the decode failed iff route b printed `ERROR: Error when trying to decode
  Variant.` at `get_var (core/io/stream_peer.cpp)`; route a must then have printed at least
  one error from `core/io/marshalls.cpp`, and must not have otherwise.
* code: the first error route a printed from `core/io/marshalls.cpp` that names one
  (`Returning: ERR_X` / `Returned: ERR_X`); decode_variant returns the innermost error
  unchanged, and its own "Error when trying to decode Variant." names none. A few checks
  print a message instead of the code; MESSAGE_CODES maps those messages to the code the
  engine source returns with them (README.md). Route b must give the same code.

Writes OUTDIR/values.jsonl and OUTDIR/malformed.jsonl; exits 1 (writing nothing) on any
inconsistency.
"""
import json
import re
import sys

WRAPPER = "ERROR: Error when trying to decode Variant."
WRAPPER_AT = "   at: get_var (core/io/stream_peer.cpp"
CODE_RE = re.compile(r"Return(?:ing|ed): (ERR_[A-Z_]+)\s*$")
# ERR_FAIL_*_MSG checks in marshalls.cpp print their message, not the error they return.
MESSAGE_CODES = [
    ("ERROR: Variant is too deep. Bailing.", "ERR_OUT_OF_MEMORY"),
    ("ERROR: Index bt = ", "ERR_INVALID_DATA"),
    ("ERROR: Invalid script path ", "ERR_INVALID_DATA"),
    ('ERROR: Invalid value for "script" property', "ERR_INVALID_DATA"),
    # Godot 4.3 (ERR_FAIL_COND_V_MSG with ERR_INVALID_DATA, in decode_variant)
    ("ERROR: Invalid script path: ", "ERR_INVALID_DATA"),
    ("ERROR: Can't load script at path: ", "ERR_INVALID_DATA"),
    # Godot 4.2: ClassDB could not instantiate a full object's class (ERR_FAIL_NULL_V)
    ('ERROR: Parameter "obj" is null.', "ERR_UNAVAILABLE"),
]

problems = []


def problem(msg):
    problems.append(msg)
    sys.stderr.write("assemble: " + msg + "\n")


def segments(stderr_lines):
    """mark number -> (route a lines, route b lines)"""
    segs = {}
    cur = None
    buf = []
    for line in stderr_lines:
        if line.startswith("GDWIRE-MARK:"):
            _, n, part = line.split(":")
            n = int(n)
            if part == "a":
                cur, buf = (n, "a"), []
            elif part in ("b", "end"):
                if cur is None or cur[0] != n:
                    problem(f"marker {line} out of order")
                segs.setdefault(n, {})[cur[1]] = buf
                cur, buf = ((n, "b"), []) if part == "b" else (None, [])
            continue
        if cur is not None:
            buf.append(line)
    return segs


def marshalls_errors(lines):
    """(ERROR line, code name or None) for every error raised in core/io/marshalls.cpp"""
    out = []
    for i, line in enumerate(lines):
        if not line.startswith("ERROR: "):
            continue
        at = lines[i + 1] if i + 1 < len(lines) else ""
        if "(core/io/marshalls.cpp:" not in at:
            continue
        m = CODE_RE.search(line)
        code = m.group(1) if m else None
        if code is None:
            code = next((c for prefix, c in MESSAGE_CODES if line.startswith(prefix)), None)
        if code is None and line != WRAPPER:
            problem(f"marshalls.cpp error without a known code: {line}")
        out.append((line, code))
    return out


def verdict(seg, names):
    """(failed, code, the ERROR line that named the code)"""
    a, b = seg.get("a", []), seg.get("b", [])
    failed = any(l == WRAPPER and i + 1 < len(b) and b[i + 1].startswith(WRAPPER_AT)
                 for i, l in enumerate(b))
    errs_a = marshalls_errors(a)
    if failed != bool(errs_a):
        problem(f"routes disagree on the verdict: a={errs_a} b={b}")
    if not failed:
        return False, 0, None
    coded = [(l, c) for l, c in errs_a if c is not None]
    coded_b = [(l, c) for l, c in marshalls_errors(b) if c is not None]
    if not coded:
        problem(f"failed decode without an error code: {a}")
        return True, -1, None
    if not coded_b or coded_b[0][1] != coded[0][1]:
        problem(f"routes disagree on the code: {coded[0]} vs {coded_b[:1]}")
    line, code = coded[0]
    return True, names[code], re.sub(r"^ERROR: ", "", line)


def main():
    stdout_path, stderr_path, outdir = sys.argv[1:4]
    with open(stdout_path, encoding="utf-8") as f:
        out_lines = f.read().split("\n")
    with open(stderr_path, encoding="utf-8", errors="surrogateescape") as f:
        err_lines = f.read().split("\n")
    names = None
    rows = {"values": [], "malformed": [], "self_test": []}
    for line in out_lines:
        if line.startswith("GDWIRE-ERRNAMES:"):
            names = json.loads(line[len("GDWIRE-ERRNAMES:"):])
        elif line.startswith("GDWIRE-ROW:"):
            _, kind, payload = line.split(":", 2)
            rows[kind].append(json.loads(payload))
    if names is None or "GDWIRE-GENERATOR-OK" not in out_lines:
        problem("generator output incomplete (no GDWIRE-ERRNAMES / GDWIRE-GENERATOR-OK)")
        return 1
    segs = segments(err_lines)

    for r in rows["self_test"]:
        failed, code, _ = verdict(segs.get(r["mark"], {}), names)
        got = "ok" if not failed else next(k for k, v in names.items() if v == code)
        if got != r["expect"] or (not failed and r["desc"] is None):
            problem(f"self-test {r['hex']}: expected {r['expect']}, got {got}")

    values = []
    seen = set()
    for r in rows["values"]:
        failed, code, line = verdict(segs.get(r["mark"], {}), names)
        if failed or r["desc"] is None:
            problem(f"{r['name']}: the engine could not decode its own output ({line})")
        if r["name"] in seen:
            problem(f"duplicate value {r['name']}")
        seen.add(r["name"])
        values.append({"name": r["name"], "hex": r["hex"], "full_objects": r["full_objects"],
                       "desc": r["desc"], "text": r["text"], "json": r["json"]})

    malformed = []
    seen = set()
    for r in rows["malformed"]:
        failed, code, line = verdict(segs.get(r["mark"], {}), names)
        key = (r["name"], r["allow_objects"])
        if key in seen:
            problem(f"duplicate malformed row {key}")
        seen.add(key)
        if not failed and r["desc"] is None:
            problem(f"{r['name']}: decoded, but the two routes give different values")
        malformed.append({"name": r["name"], "hex": r["hex"], "allow_objects": r["allow_objects"],
                          "verdict": "error" if failed else "ok", "error": code,
                          "error_line": line, "desc": None if failed else r["desc"],
                          "text": None if failed else r["text"]})

    if problems:
        sys.stderr.write(f"assemble: {len(problems)} problems; nothing written\n")
        return 1
    for name, data in (("values.jsonl", values), ("malformed.jsonl", malformed)):
        with open(f"{outdir}/{name}", "w", encoding="utf-8", newline="\n") as f:
            for row in data:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"values: {len(values)}, malformed: {len(malformed)} rows "
          f"({len(malformed) // 2} inputs x 2 object modes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
