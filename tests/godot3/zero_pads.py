#!/usr/bin/env python3
"""Zeroes the NodePath pad bytes in the "hex" field of fixture rows, in place.

Usage: python3 tests/godot3/zero_pads.py FILE.jsonl...

Godot 3.2.3's NodePath encoder leaves the 0-3 pad bytes after each name and subname
uninitialised, so two runs of the same generator can write different bytes for the same
value. The decoder ignores those bytes; zeroing them (what gdwire's writer and every other
encoder path of the engine write) makes regenerated fixtures byte-stable. Rows are located
with the model decoder of check_fixtures.py; a row it cannot decode is left as it is.
Only the hex digits of pad bytes change: every other byte of the file is kept.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_fixtures  # noqa: E402


def zero_nodepath_pads(data, allow_objects):
    verdict, _code, _desc, _used, pads = check_fixtures.model_decode(data, allow_objects)
    if verdict != "ok":
        return data
    out = bytearray(data)
    for start, end in pads["nodepath_spans"]:
        out[start:end] = bytes(end - start)
    return bytes(out)


def main(paths):
    changed = 0
    for path in paths:
        lines = open(path, "rb").read().decode("utf-8").split("\n")
        for i, line in enumerate(lines):
            if not line:
                continue
            row = json.loads(line)
            old = row.get("hex")
            if not old:
                continue
            allow = bool(row.get("full_objects", row.get("allow_objects", False)))
            new = zero_nodepath_pads(bytes.fromhex(old), allow).hex()
            if new != old:
                key = '"hex": "%s"' % old
                assert line.count(key) == 1, "%s: row %s: hex not found once" % (path, row.get("name"))
                lines[i] = line.replace(key, '"hex": "%s"' % new)
                changed += 1
        open(path, "wb").write("\n".join(lines).encode("utf-8"))
    print("zeroed NodePath pads in %d rows" % changed)


if __name__ == "__main__":
    main(sys.argv[1:])
