#!/usr/bin/env python3
"""Sanity checks for the Godot 3 fixtures (run by regenerate.sh; needs only python3).

Usage: python3 tests/godot3/check_fixtures.py [ROOT]   (ROOT defaults to the repository)

1. Every line of values.jsonl / malformed.jsonl is valid JSON with the documented
   keys, names are unique, hex is lowercase and even-length, every DESC node is
   well formed.
2. An independent model of the Godot 3.2.3 decoder (written from the project's
   wire-format spec, sections 2-4, plus the 3.2.3 behaviour recorded in
   tests/godot3/README.md) decodes every fixture and must agree with
   the engine: same verdict, same error code, same DESC. Full objects are compared
   loosely (the model does not know ClassDB defaults).
3. values.jsonl: the hex is exactly one encoded value, every pad byte is zero
   except NodePath pads (garbage in 3.2.3), and a few dumps are compared
   byte-for-byte with hand-written expectations.
4. samples/godot3_capture.bin is a sequence of u32 LE length + one value.

Exit status 0 when everything agrees; prints every disagreement otherwise.
"""
import json
import os
import struct
import sys

sys.setrecursionlimit(100000)

# Repository root by default; regenerate.sh passes its staging directory instead.
ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
ERR_UNAVAILABLE, ERR_UNAUTHORIZED, ERR_FILE_EOF, ERR_INVALID_DATA = 2, 4, 18, 30
INT_MAX = 0x7FFFFFFF
CHAIN_MIN = 64
# classes the model lets full-object decoding instantiate (the rest -> ERR_UNAVAILABLE)
KNOWN_CLASSES = {"Reference", "Node", "Gradient", "GDScript", "Object", "Resource"}

problems = []


def problem(msg):
    problems.append(msg)


class DecodeError(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


def F(x):
    return struct.pack(">d", x).hex()


def i32(b, o):
    return struct.unpack_from("<i", b, o)[0]


def u32(b, o):
    return struct.unpack_from("<I", b, o)[0]


def f32(b, o):
    return struct.unpack_from("<f", b, o)[0]


# ---------------------------------------------------------------- UTF-8 (3.2.3)

def parse_utf8_godot32(data):
    """Returns a list of code points or None (error). Model of 3.2.3 String::parse_utf8:
    skips one leading BOM, stops at the first NUL, accepts surrogates, > 0x10FFFF and
    5/6-byte forms, rejects only C0/C1 overlongs, invalid lead bytes, bad or missing
    continuation bytes."""
    if len(data) >= 3 and data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    nul = data.find(b"\x00")
    if nul != -1:
        data = data[:nul]
    out = []
    i = 0
    while i < len(data):
        c = data[i]
        if c < 0x80:
            n = 1
        elif c & 0xE0 == 0xC0:
            n = 2
        elif c & 0xF0 == 0xE0:
            n = 3
        elif c & 0xF8 == 0xF0:
            n = 4
        elif c & 0xFC == 0xF8:
            n = 5
        elif c & 0xFE == 0xFC:
            n = 6
        else:
            return None
        if n == 2 and c & 0x1E == 0:
            return None  # C0 / C1 overlong
        if i + n > len(data):
            return None
        if n == 1:
            cp = c
        else:
            cp = c & (0xFF >> (n + 1))
            for k in range(1, n):
                cc = data[i + k]
                if cc & 0xC0 != 0x80:
                    return None
                cp = (cp << 6) | (cc & 0x3F)
        out.append(cp)
        i += n
    return out


def utf8_encode_godot(cps):
    """Godot 3 String::utf8(): generic 1..6-byte encoding, no validity checks."""
    out = bytearray()
    for c in cps:
        if c <= 0x7F:
            out.append(c)
        elif c <= 0x7FF:
            out += bytes([0xC0 | (c >> 6), 0x80 | (c & 0x3F)])
        elif c <= 0xFFFF:
            out += bytes([0xE0 | (c >> 12), 0x80 | ((c >> 6) & 0x3F), 0x80 | (c & 0x3F)])
        elif c <= 0x1FFFFF:
            out += bytes([0xF0 | (c >> 18), 0x80 | ((c >> 12) & 0x3F), 0x80 | ((c >> 6) & 0x3F), 0x80 | (c & 0x3F)])
        elif c <= 0x3FFFFFF:
            out += bytes([0xF8 | (c >> 24)] + [0x80 | ((c >> s) & 0x3F) for s in (18, 12, 6, 0)])
        else:
            out += bytes([0xFC | (c >> 30)] + [0x80 | ((c >> s) & 0x3F) for s in (24, 18, 12, 6, 0)])
    return bytes(out)


# ---------------------------------------------------------------- decoder model

class Cur:
    """Mirrors decode_variant's (buf, len) pair; len may go negative (PoolByteArray quirk)."""

    def __init__(self, data, off, ln):
        self.data, self.off, self.ln = data, off, ln


def dec_string(data, off, ln, pads=None):
    """_decode_string. Returns (String-desc-hex, consumed)."""
    if ln < 4:
        raise DecodeError(ERR_INVALID_DATA)
    strlen = i32(data, off)
    # C: strlen % 4 keeps the sign of strlen
    rem = abs(strlen) % 4 * (1 if strlen >= 0 else -1)
    pad = 4 - rem if rem else 0
    ln -= 4
    if pad < 0 or strlen < 0 or strlen > INT_MAX - pad:
        raise DecodeError(ERR_FILE_EOF)
    if strlen < 0 or strlen + pad > ln:
        raise DecodeError(ERR_FILE_EOF)
    raw = data[off + 4: off + 4 + strlen]
    cps = parse_utf8_godot32(raw)
    if cps is None:
        raise DecodeError(ERR_INVALID_DATA)
    if pads is not None:
        pads.append(data[off + 4 + strlen: off + 4 + strlen + pad])
    return utf8_encode_godot(cps).hex(), 4 + strlen + pad


def dec(data, off, ln, allow, pads):
    """Returns (raw value, r_len). Raw values are tagged tuples, see describe()."""
    if ln < 4:
        raise DecodeError(ERR_INVALID_DATA)
    header = u32(data, off)
    t = header & 0xFF
    flag = header & (1 << 16)
    if t >= 27:
        raise DecodeError(ERR_INVALID_DATA)
    off += 4
    ln -= 4
    r = 4

    def need(n):
        if ln < n:
            raise DecodeError(ERR_INVALID_DATA)

    def floats(n):
        need(4 * n)
        return [f32(data, off + 4 * k) for k in range(n)]

    if t == 0:
        return ("nil",), r
    if t == 1:
        need(4)
        return ("bool", u32(data, off) != 0), r + 4
    if t == 2:
        if flag:
            need(8)
            return ("int", struct.unpack_from("<q", data, off)[0]), r + 8
        need(4)
        return ("int", i32(data, off)), r + 4
    if t == 3:
        if flag:
            need(8)
            return ("float", struct.unpack_from("<d", data, off)[0]), r + 8
        need(4)
        return ("float", f32(data, off)), r + 4
    if t == 4:
        s, used = dec_string(data, off, ln, pads["zero"])
        return ("String", s), r + used
    math = {5: ("Vector2", 2), 6: ("Rect2", 4), 7: ("Vector3", 3), 8: ("Transform2D", 6),
            9: ("Plane", 4), 10: ("Quat", 4), 11: ("AABB", 6), 12: ("Basis", 9),
            13: ("Transform", 12), 14: ("Color", 4)}
    if t in math:
        name, n = math[t]
        w = floats(n)
        if name in ("Basis", "Transform"):
            # wire = rows; DESC = GDScript columns basis.x, basis.y, basis.z
            cols = [w[0], w[3], w[6], w[1], w[4], w[7], w[2], w[5], w[8]]
            w = cols + w[9:]
        return (name, w), r + 4 * n
    if t == 15:
        need(4)
        first = u32(data, off)
        if not first & 0x80000000:
            raise DecodeError(ERR_INVALID_DATA)
        need(12)
        names = first & 0x7FFFFFFF
        subs = u32(data, off + 4)
        flags = u32(data, off + 8)
        off += 12
        ln -= 12
        r += 12
        if flags & 2:
            subs = (subs + 1) & 0xFFFFFFFF
        total = (names + subs) & 0xFFFFFFFF
        comps = []
        for _ in range(total):
            strlen = i32(data, off) if ln >= 4 else 0
            s, used = dec_string(data, off, ln, pads["nodepath"])
            pads["nodepath_spans"].append((off + 4 + strlen, off + used))
            comps.append(s)
            off += used
            ln -= used
            r += used
        n_names, n_subs = comps[:names], comps[names:]
        absolute = bool(flags & 1) and bool(comps)
        return ("NodePath", absolute, n_names, n_subs), r
    if t == 16:
        return ("RID",), r
    if t == 17:
        if flag:
            need(8)
            oid = struct.unpack_from("<q", data, off)[0]
            return (("ObjectNull",) if oid == 0 else ("EncodedObjectAsID", oid)), r + 8
        if not allow:
            raise DecodeError(ERR_UNAUTHORIZED)
        cls_hex, used = dec_string(data, off, ln, pads["zero"])
        off += used
        ln -= used
        r += used
        if cls_hex == "":
            return ("ObjectNull",), r
        cls = bytes.fromhex(cls_hex).decode("utf-8")
        if cls not in KNOWN_CLASSES:
            raise DecodeError(ERR_UNAVAILABLE)
        need_ln = ln
        if need_ln < 4:
            raise DecodeError(ERR_INVALID_DATA)
        count = i32(data, off)
        off += 4
        ln -= 4
        r += 4
        props = []
        for _ in range(max(count, 0)):
            name, used = dec_string(data, off, ln, pads["zero"])
            off += used
            ln -= used
            r += used
            v, used = dec(data, off, ln, allow, pads)
            off += used
            ln -= used
            r += used
            props.append((name, v))
        return ("Object", cls, props), r
    if t in (18, 19):
        need(4)
        count = u32(data, off) & 0x7FFFFFFF
        off += 4
        ln -= 4
        r += 4
        items = []
        for _ in range(count):
            k, used = dec(data, off, ln, allow, pads)
            off += used
            ln -= used
            r += used
            if t == 18:
                v, used = dec(data, off, ln, allow, pads)
                off += used
                ln -= used
                r += used
                items.append((k, v))
            else:
                items.append(k)
        if t == 18:
            d = {}
            for k, v in items:  # d[key] = value: first position kept, last value wins
                key = json.dumps(describe(k), sort_keys=True)
                if key in d:
                    d[key] = (d[key][0], v)
                else:
                    d[key] = (k, v)
            return ("Dictionary", list(d.values())), r
        return ("Array", items), r
    if t == 20:
        need(4)
        count = i32(data, off)
        off += 4
        ln -= 4
        if count < 0 or count > ln:
            raise DecodeError(ERR_INVALID_DATA)
        pad = (4 - count % 4) % 4
        pads["zero"].append(data[off + count: off + count + pad])
        return ("PoolByteArray", data[off: off + count].hex()), r + 4 + count + pad
    if t == 23:
        need(4)
        count = i32(data, off)
        off += 4
        ln -= 4
        r += 4
        items = []
        for _ in range(max(count, 0)):
            s, used = dec_string(data, off, ln, pads["zero"])
            items.append(s)
            off += used
            ln -= used
            r += used
        return ("PoolStringArray", items), r
    elem = {21: 1, 22: 1, 24: 2, 25: 3, 26: 4}[t]
    need(4)
    count = i32(data, off)
    off += 4
    ln -= 4
    size = 4 * elem
    if count < 0 or count > INT_MAX // size:
        raise DecodeError(ERR_INVALID_DATA)
    if count * size > ln:
        raise DecodeError(ERR_INVALID_DATA)
    if t == 21:
        vals = [i32(data, off + 4 * k) for k in range(count)]
        return ("PoolIntArray", vals), r + 4 + 4 * count
    vals = [f32(data, off + 4 * k) for k in range(count * elem)]
    name = {22: "PoolRealArray", 24: "PoolVector2Array", 25: "PoolVector3Array", 26: "PoolColorArray"}[t]
    if elem > 1:
        vals = [vals[k:k + elem] for k in range(0, len(vals), elem)]
    return (name, vals), r + 4 + size * count


def describe(v):
    t = v[0]
    if t == "nil":
        return {"t": "nil"}
    if t == "bool":
        return {"t": "bool", "v": v[1]}
    if t == "int":
        return {"t": "int", "v": str(v[1])}
    if t == "float":
        return {"t": "float", "v": F(v[1])}
    if t == "String":
        return {"t": "String", "v": v[1]}
    if t in ("Vector2", "Rect2", "Vector3", "Transform2D", "Plane", "Quat", "AABB", "Basis", "Transform", "Color"):
        return {"t": t, "v": [F(x) for x in v[1]]}
    if t == "NodePath":
        return {"t": "NodePath", "absolute": v[1], "names": v[2], "subnames": v[3]}
    if t == "RID":
        return {"t": "RID", "id": "0"}
    if t == "ObjectNull":
        return {"t": "ObjectNull"}
    if t == "EncodedObjectAsID":
        return {"t": "EncodedObjectAsID", "id": str(v[1])}
    if t == "Object":
        return {"t": "Object", "class": v[1], "props": [[n, describe(x)] for n, x in v[2]]}
    if t == "Array":
        depth, cur = 0, v
        while cur[0] == "Array" and len(cur[1]) == 1:
            depth += 1
            cur = cur[1][0]
        if depth >= CHAIN_MIN:
            return {"t": "ArrayChain", "depth": depth, "leaf": describe(cur)}
        return {"t": "Array", "v": [describe(x) for x in v[1]]}
    if t == "Dictionary":
        if len(v[1]) == 1:
            key = describe(v[1][0][0])
            depth, cur = 0, v
            while cur[0] == "Dictionary" and len(cur[1]) == 1 and describe(cur[1][0][0]) == key:
                depth += 1
                cur = cur[1][0][1]
            if depth >= CHAIN_MIN:
                return {"t": "DictionaryChain", "depth": depth, "key": key, "leaf": describe(cur)}
        return {"t": "Dictionary", "v": [[describe(k), describe(x)] for k, x in v[1]]}
    if t == "PoolByteArray":
        return {"t": t, "v": v[1]}
    if t == "PoolIntArray":
        return {"t": t, "v": [str(x) for x in v[1]]}
    if t == "PoolRealArray":
        return {"t": t, "v": [F(x) for x in v[1]]}
    if t == "PoolStringArray":
        return {"t": t, "v": v[1]}
    if t in ("PoolVector2Array", "PoolVector3Array", "PoolColorArray"):
        return {"t": t, "v": [[F(x) for x in e] for e in v[1]]}
    raise AssertionError(t)


def model_decode(data, allow):
    pads = {"zero": [], "nodepath": [], "nodepath_spans": []}
    try:
        v, used = dec(data, 0, len(data), allow, pads)
    except DecodeError as e:
        return "error", e.code, None, None, pads
    return "ok", 0, describe(v), used, pads


def same(engine, model):
    """DESC equality; full objects: every property the bytes carry must match."""
    if isinstance(engine, dict) and engine.get("t") == "Object":
        if not isinstance(model, dict) or model.get("t") != "Object" or model["class"] != engine["class"]:
            return False
        eprops = {n: d for n, d in engine["props"]}
        return all(n not in eprops or same(eprops[n], d) for n, d in model["props"])
    if isinstance(engine, dict) and isinstance(model, dict):
        return engine.keys() == model.keys() and all(same(engine[k], model[k]) for k in engine)
    if isinstance(engine, list) and isinstance(model, list):
        return len(engine) == len(model) and all(same(a, b) for a, b in zip(engine, model))
    return engine == model


# ---------------------------------------------------------------- schema checks

F_KEYS = {"Vector2": 2, "Rect2": 4, "Vector3": 3, "Transform2D": 6, "Plane": 4, "Quat": 4,
          "AABB": 6, "Basis": 9, "Transform": 12, "Color": 4}
POOL_VEC = {"PoolVector2Array": 2, "PoolVector3Array": 3, "PoolColorArray": 4}


def is_hex(s, digits=None):
    return isinstance(s, str) and len(s) % 2 == 0 and all(c in "0123456789abcdef" for c in s) and (
        digits is None or len(s) == digits)


def check_desc(d, where):
    def bad(msg):
        problem("%s: bad DESC (%s): %s" % (where, msg, json.dumps(d)[:200]))

    if not isinstance(d, dict) or "t" not in d:
        return bad("not an object with t")
    t = d["t"]
    keys = set(d)
    if t in ("nil", "ObjectNull"):
        ok = keys == {"t"}
    elif t == "bool":
        ok = keys == {"t", "v"} and isinstance(d["v"], bool)
    elif t == "int":
        ok = keys == {"t", "v"} and isinstance(d["v"], str) and -2**63 <= int(d["v"]) < 2**63
    elif t == "float":
        ok = keys == {"t", "v"} and is_hex(d["v"], 16)
    elif t == "String" or t == "PoolByteArray":
        ok = keys == {"t", "v"} and is_hex(d["v"])
    elif t in F_KEYS:
        ok = keys == {"t", "v"} and len(d["v"]) == F_KEYS[t] and all(is_hex(x, 16) for x in d["v"])
    elif t == "NodePath":
        ok = keys == {"t", "absolute", "names", "subnames"} and isinstance(d["absolute"], bool) and all(
            is_hex(x) for x in d["names"] + d["subnames"])
    elif t in ("RID", "EncodedObjectAsID"):
        ok = keys == {"t", "id"} and isinstance(d["id"], str) and int(d["id"]) is not None
    elif t == "Object":
        ok = keys == {"t", "class", "props"} and isinstance(d["class"], str)
        if ok:
            for p in d["props"]:
                if not (isinstance(p, list) and len(p) == 2 and is_hex(p[0])):
                    ok = False
                else:
                    check_desc(p[1], where)
    elif t == "Dictionary":
        ok = keys == {"t", "v"}
        if ok:
            for p in d["v"]:
                if not (isinstance(p, list) and len(p) == 2):
                    ok = False
                else:
                    check_desc(p[0], where)
                    check_desc(p[1], where)
    elif t == "Array":
        ok = keys == {"t", "v"}
        if ok:
            for e in d["v"]:
                check_desc(e, where)
    elif t == "ArrayChain":
        ok = keys == {"t", "depth", "leaf"} and isinstance(d["depth"], int) and d["depth"] >= CHAIN_MIN
        if ok:
            check_desc(d["leaf"], where)
    elif t == "DictionaryChain":
        ok = keys == {"t", "depth", "key", "leaf"} and isinstance(d["depth"], int) and d["depth"] >= CHAIN_MIN
        if ok:
            check_desc(d["key"], where)
            check_desc(d["leaf"], where)
    elif t == "PoolIntArray":
        ok = keys == {"t", "v"} and all(isinstance(x, str) and -2**31 <= int(x) < 2**31 for x in d["v"])
    elif t == "PoolRealArray":
        ok = keys == {"t", "v"} and all(is_hex(x, 16) for x in d["v"])
    elif t == "PoolStringArray":
        ok = keys == {"t", "v"} and all(is_hex(x) for x in d["v"])
    elif t in POOL_VEC:
        ok = keys == {"t", "v"} and all(len(e) == POOL_VEC[t] and all(is_hex(x, 16) for x in e) for e in d["v"])
    else:
        return bad("unknown t")
    if not ok:
        bad("shape")


def load(path, keys):
    rows = []
    names = set()
    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")  # must be valid UTF-8
    if not text.endswith("\n"):
        problem("%s: does not end with a newline" % path)
    for n, line in enumerate(text.split("\n")[:-1], 1):
        try:
            row = json.loads(line)
        except ValueError as e:
            problem("%s:%d: invalid JSON: %s" % (path, n, e))
            continue
        if set(row) != keys:
            problem("%s:%d: keys %s != %s" % (path, n, sorted(row), sorted(keys)))
            continue
        if row["name"] in names:
            problem("%s:%d: duplicate name %s" % (path, n, row["name"]))
        names.add(row["name"])
        if not (row["name"].replace("_", "a").isalnum() and row["name"] == row["name"].lower()):
            problem("%s:%d: name is not snake_case: %s" % (path, n, row["name"]))
        if not is_hex(row["hex"]):
            problem("%s:%d: hex is not lowercase even-length hex" % (path, n))
        if row.get("desc") is not None:
            check_desc(row["desc"], "%s:%s" % (os.path.basename(path), row["name"]))
        rows.append(row)
    return rows


# ---------------------------------------------------------------- hand-checked dumps (spec section 3)

HAND = {
    # Basis(Vector3(1,2,3), Vector3(4,5,6), Vector3(7,8,9)): rows on the wire -> 1,4,7,2,5,8,3,6,9
    "basis_1_to_9": "0c000000" + "".join(struct.pack("<f", x).hex() for x in (1, 4, 7, 2, 5, 8, 3, 6, 9)),
    "transform_1_to_12": "0d000000" + "".join(struct.pack("<f", x).hex() for x in (1, 4, 7, 2, 5, 8, 3, 6, 9, 10, 11, 12)),
    "transform2d_1_to_6": "08000000" + "".join(struct.pack("<f", x).hex() for x in (1, 2, 3, 4, 5, 6)),
    "int_2p31": "02000100" + "0000008000000000",
    "int_i32_min": "02000000" + "00000080",
    "float_0_1": "03000100" + "9a9999999999b93f",
    "float_0_5": "03000000" + "0000003f",
    "float_nan": "03000100" + "000000000000f87f",
    "string_len3": "04000000" + "03000000" + "61626300",
    "string_len4": "04000000" + "04000000" + "61626364",
    "array_1_a": "13000000" + "02000000" + "02000000" + "01000000" + "04000000" + "01000000" + "61000000",
    "dictionary_a_1": "12000000" + "01000000" + "04000000" + "01000000" + "61000000" + "02000000" + "01000000",
    "pool_byte_array_len3": "14000000" + "03000000" + "00ff8000",
    "pool_string_array_len3": "17000000" + "03000000" + "01000000" + "00000000" + "02000000" + "61000000" + "03000000" + "61620000",
    "object_id_reference": None,  # id varies with the generator; only the header is checked below
    "rid_live_texture": "10000000",
    "nil": "00000000",
}


def main():
    vpath = os.path.join(ROOT, "tests/fixtures/godot3/values.jsonl")
    mpath = os.path.join(ROOT, "tests/fixtures/godot3/malformed.jsonl")
    values = load(vpath, {"name", "hex", "full_objects", "desc", "text"})
    malformed = load(mpath, {"name", "hex", "allow_objects", "verdict", "error", "desc"})

    by_name = {r["name"]: r for r in values}
    for name, want in HAND.items():
        if name not in by_name:
            problem("values.jsonl: hand-checked value %s missing" % name)
        elif want is not None and by_name[name]["hex"] != want:
            problem("values.jsonl: %s hex %s != hand-computed %s" % (name, by_name[name]["hex"], want))
    if not by_name.get("object_id_reference", {}).get("hex", "").startswith("11000100"):
        problem("values.jsonl: object_id_reference does not start with header 0x00010011")

    for r in values:
        data = bytes.fromhex(r["hex"])
        verdict, code, desc, used, pads = model_decode(data, r["full_objects"])
        if verdict != "ok":
            problem("values.jsonl: %s: model rejects the engine's own output (error %d)" % (r["name"], code))
            continue
        if used != len(data):
            problem("values.jsonl: %s: value is %d bytes, hex has %d" % (r["name"], used, len(data)))
        if any(p.strip(b"\x00") for p in pads["zero"]):
            problem("values.jsonl: %s: non-zero pad bytes outside NodePaths" % r["name"])
        if not same(r["desc"], desc):
            problem("values.jsonl: %s: model DESC differs:\n  engine %s\n  model  %s" % (
                r["name"], json.dumps(r["desc"])[:300], json.dumps(desc)[:300]))

    for r in malformed:
        if r["verdict"] not in ("ok", "error") or (r["verdict"] == "ok") != (r["error"] == 0) or (
                (r["desc"] is None) != (r["verdict"] == "error")):
            problem("malformed.jsonl: %s: inconsistent verdict/error/desc" % r["name"])
            continue
        verdict, code, desc, _used, _pads = model_decode(bytes.fromhex(r["hex"]), r["allow_objects"])
        if verdict != r["verdict"] or code != r["error"]:
            problem("malformed.jsonl: %s: engine %s/%d, model %s/%d" % (r["name"], r["verdict"], r["error"], verdict, code))
        elif verdict == "ok" and not same(r["desc"], desc):
            problem("malformed.jsonl: %s: model DESC differs:\n  engine %s\n  model  %s" % (
                r["name"], json.dumps(r["desc"])[:300], json.dumps(desc)[:300]))

    cap = open(os.path.join(ROOT, "samples/godot3_capture.bin"), "rb").read()
    pos, count = 0, 0
    while pos < len(cap):
        if pos + 4 > len(cap):
            problem("capture: truncated length prefix at %d" % pos)
            break
        n = u32(cap, pos)
        chunk = cap[pos + 4: pos + 4 + n]
        verdict, code, _desc, used, _pads = model_decode(chunk, False)
        if len(chunk) != n or verdict != "ok" or used != n:
            problem("capture: entry %d at offset %d does not decode to exactly %d bytes" % (count, pos, n))
        pos += 4 + n
        count += 1
    text = open(os.path.join(ROOT, "samples/godot3_capture.txt"), "rb").read().decode("utf-8")
    if not text.endswith("\n"):
        problem("capture .txt does not end with a newline")

    print("values.jsonl: %d lines, malformed.jsonl: %d lines, capture: %d values" % (len(values), len(malformed), count))
    for p in problems:
        print("PROBLEM: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
