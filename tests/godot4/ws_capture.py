#!/usr/bin/env python3
"""Regenerates the capture of a real Godot 4.6 client talking to the Rust example server
examples/tokio_ws_multiplayer.rs through WebSocketMultiplayerPeer (loopback):

    tests/fixtures/godot4/ws_multiplayer.capture        every packet as the server saw it
        (`gdwire dump --framing multiplayer-capture` records; tag 0 = from the client,
        tag 1 = from the server)
    tests/fixtures/godot4/ws_multiplayer.txt            its `gdwire dump` text
    tests/fixtures/godot4/ws_multiplayer.reports.jsonl  what the client says it sent

Usage: tests/godot4/ws_capture.py [--check]   (needs tests/godot4/install.sh; builds the
example and the CLI with cargo). --check regenerates into a temporary directory and fails if
anything differs from the committed files, byte for byte.

Normalisation: the client sends a full SYNC every frame while a unit exists, so how many
identical ones arrive between two changes depends on frame timing. A full SYNC whose entries
equal the previous full SYNC's (its sync time aside) is left out. Everything else is
deterministic: the server gives the client peer id 2, and it answers packets one at a time.
"""
import difflib
import os
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "godot4")
NAMES = ["ws_multiplayer.capture", "ws_multiplayer.txt", "ws_multiplayer.reports.jsonl"]


def records(data):
    at = 0
    while at < len(data):
        (size,) = struct.unpack_from("<I", data, at)
        yield data[at + 4], data[at + 5 : at + 4 + size]
        at += 4 + size


def normalise(data):
    out = bytearray()
    last_full = {}  # tag -> entries of the last full SYNC kept
    for tag, packet in records(data):
        if packet[0] == 0x06:  # full SYNC: command 6, no delta flag; u16 time, entries
            if last_full.get(tag) == packet[3:]:
                continue
            last_full[tag] = packet[3:]
        out += struct.pack("<I", len(packet) + 1) + bytes([tag]) + packet
    return bytes(out)


def generate(tmp):
    cargo = ["cargo", "build", "--quiet", "--all-features", "--example",
             "tokio_ws_multiplayer", "--bin", "gdwire"]
    subprocess.run(cargo, cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    server_bin = os.path.join(target, "debug", "examples", "tokio_ws_multiplayer")
    gdwire = os.path.join(target, "debug", "gdwire")
    raw = os.path.join(tmp, "raw.capture")
    # The server prints every packet: to a file, so that it never blocks on a full pipe.
    out_path = os.path.join(tmp, "server.out")
    with open(out_path, "w") as out, open(os.path.join(tmp, "server.err"), "w") as err:
        server = subprocess.Popen([server_bin, "0", raw], stdout=out, stderr=err)
    try:
        port = ""
        for _ in range(200):
            with open(out_path) as f:
                port = f.readline().strip()
            if port.endswith("\n") or port.isdigit():
                break
            time.sleep(0.05)
        with open(os.path.join(tmp, "port.txt"), "w") as f:
            f.write(port)
        client = subprocess.run(
            [sys.executable, os.path.join(HERE, "run.py"), "--timeout", "120",
             os.path.join(HERE, "ws_multiplayer_client.gd"),
             os.path.join(HERE, "multiplayer_game.gd"), os.path.join(HERE, "ws_unit.gd"),
             os.path.join(tmp, "port.txt")],
            capture_output=True, text=True)
    finally:
        server.kill()
        server.wait()
    with open(os.path.join(tmp, "server.err")) as f:
        server_err = f.read()
    if client.returncode != 0 or "RESULT ok" not in client.stdout or server_err.strip():
        sys.stderr.write("error: the client run failed (exit %d); files left unchanged\n%s\n%s\n"
                         "server stderr:\n%s\n" % (client.returncode, client.stdout[-3000:],
                                                   client.stderr[-3000:], server_err))
        sys.exit(1)
    files = {}
    with open(raw, "rb") as f:
        files[NAMES[0]] = normalise(f.read())
    capture = os.path.join(tmp, NAMES[0])
    with open(capture, "wb") as f:
        f.write(files[NAMES[0]])
    dump = subprocess.run([gdwire, "dump", "--framing", "multiplayer-capture", NAMES[0]],
                          cwd=tmp, capture_output=True, check=True)
    files[NAMES[1]] = dump.stdout
    reports = [l[len("REPORT "):] for l in client.stdout.splitlines() if l.startswith("REPORT ")]
    files[NAMES[2]] = ("\n".join(reports) + "\n").encode()
    return files


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit(__doc__)
    if subprocess.run([sys.executable, os.path.join(HERE, "run.py"), "--check-install"]).returncode:
        sys.exit("error: the Godot 4.6 engine is not installed: run tests/godot4/install.sh")
    with tempfile.TemporaryDirectory() as tmp:
        files = generate(tmp)
    if check:
        bad = 0
        for name in NAMES:
            with open(os.path.join(FIXTURES, name), "rb") as f:
                committed = f.read()
            if committed != files[name]:
                print("tests/fixtures/godot4/%s differs from the engine's output" % name,
                      file=sys.stderr)
                if not name.endswith(".capture"):
                    sys.stderr.writelines(list(difflib.unified_diff(
                        committed.decode().splitlines(True), files[name].decode().splitlines(True),
                        "committed", "engine", n=1))[:40])
                bad += 1
        if bad:
            sys.exit("%d differences: run tests/godot4/ws_capture.py and review the diff" % bad)
        print("the WebSocket multiplayer capture matches the engine")
        return
    for name in NAMES:
        with open(os.path.join(FIXTURES, name), "wb") as f:
            f.write(files[name])
        print("wrote tests/fixtures/godot4/%s" % name)


if __name__ == "__main__":
    main()
