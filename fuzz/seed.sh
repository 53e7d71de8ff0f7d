#!/usr/bin/env bash
# Seeds the fuzz corpora from the committed real-engine fixtures (values and malformed inputs,
# and their texts for the text parser) and the Godot 4 / Pandemonium spec vectors of the
# tests, as raw values and, for the frame target, as length-prefixed store_var streams.
# Usage: fuzz/seed.sh   (idempotent; corpora live in fuzz/corpus/<target>/, not committed)
set -euo pipefail
cd "$(dirname "$0")"
python3 - <<'PY'
import hashlib, json, os, struct
vals = []
for f in ["../tests/fixtures/godot3/values.jsonl", "../tests/fixtures/godot3/malformed.jsonl"] + \
        ["../tests/fixtures/pandemonium/%s/values.jsonl" % n for n in ("3.5", "3.8", "5")]:
    for line in open(f):
        vals.append(bytes.fromhex(json.loads(line)["hex"]))
# Godot 4 and Pandemonium values (typed containers, 64-bit math, PackedVector4Array, ...): every
# hex string literal of the spec-vector tests (the rule of tests/cli_json_library.rs).
for f in ["godot4_vectors.rs", "pandemonium_vectors.rs", "write_vectors.rs", "malformed.rs"]:
    for i, chunk in enumerate(open("../tests/" + f).read().split('"')):
        body = chunk.replace("\\\n", " ")
        digits = "".join(body.split())
        if i % 2 and digits and all(c in "0123456789abcdefABCDEF" for c in digits) \
                and len(digits) >= 8 and len(digits) % 2 == 0:
            vals.append(bytes.fromhex(digits))
def put(target, b):
    os.makedirs("corpus/" + target, exist_ok=True)
    open("corpus/%s/%s" % (target, hashlib.sha1(b).hexdigest()), "wb").write(b)
for b in vals:
    for t in ["decode_walk", "skip", "roundtrip", "owned"]:
        put(t, b)
# Frames: each value with a LE and a BE length prefix, and runs of three values.
for i, b in enumerate(vals):
    put("frame", struct.pack("<I", len(b)) + b)
    put("frame", b"\x01" + struct.pack(">I", len(b)) + b)
    run = b"".join(struct.pack("<I", len(x)) + x for x in vals[i:i + 3])
    put("frame", run)
# Text seeds: the engines' own texts (var2str / var_to_str of every fixture value, and the
# texts their parsers were given), each after the byte that picks its dialect in
# Dialect::ALL (0: Godot 3, 5: Godot 4.4+, 6 / 7 / 8: Pandemonium 3.5 / 3.8 / 5).
texts = [("../tests/fixtures/godot3/values.jsonl", 0), ("../tests/fixtures/godot3/str2var.jsonl", 0),
         ("../tests/fixtures/godot4/values.jsonl", 5), ("../tests/fixtures/godot4/str_to_var.jsonl", 5)]
for numbering, d in [("3.5", 6), ("3.8", 7), ("5", 8)]:
    for f in ["values", "texts"]:
        texts.append(("../tests/fixtures/pandemonium/%s/%s.jsonl" % (numbering, f), d))
for f, d in texts:
    for line in open(f):
        text = json.loads(line, strict=False).get("text")
        if isinstance(text, str):
            put("text_parse", bytes([d]) + text.encode())
# The writer target reads call sequences, not values: a few hand-made ones.
for seq in [b"\x04\x01\x12\x02\x02\x01\x00\x00\x00\x00\x00\x00\x00\x04\x03abc",
            b"\x08\x01\x0e\x04Node\x01\x0f\x01x\x02\x05",
            b"\x05\x00\x16\x02\x00\x04\x01\x00\x13\x04\x01a\x04\x01b"]:
    put("writer", seq)
PY
for d in corpus/*/; do echo "$d $(ls "$d" | wc -l)"; done
# JSON seeds need the crate's own JSON writer.
cargo +nightly run -q --release --bin seed_json
