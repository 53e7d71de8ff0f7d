#!/usr/bin/env bash
# Seeds fuzz/corpus/decode_walk from the committed real-engine fixtures.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/decode_walk
python3 - <<'PY'
import json, hashlib
for f in ["../tests/fixtures/godot3/values.jsonl", "../tests/fixtures/godot3/malformed.jsonl"]:
    for line in open(f):
        b = bytes.fromhex(json.loads(line)["hex"])
        open("corpus/decode_walk/" + hashlib.sha1(b).hexdigest(), "wb").write(b)
PY
ls corpus/decode_walk | wc -l
