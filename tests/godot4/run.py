#!/usr/bin/env python3
"""Runs one GDScript in the real Godot 4.6 engine (official web export template) inside
headless Chromium and reports what it printed and its exit status.

    tests/godot4/run.py [options] SCRIPT.gd [FILE[=res://path] ...]

SCRIPT.gd must `extends SceneTree` (it becomes the main loop) and end the run with
`quit(code)` from `_process()` (an exit code given to `quit()` inside `_init()` is lost).
FILEs are packed next to it (default `res://<basename>`), e.g. inputs or preloaded scripts.

The engine's stdout goes to our stdout, its stderr (the `ERROR: ...` lines of a release
build) to our stderr, and its exit code becomes ours. Runner failures exit 125 (setup) or
124 (timeout); both print `GDWIRE-RUNNER: ...` on stderr. Lines the script prints as
`GDWIRE-FILE:<name>:<base64>` are not echoed: with --out-dir DIR they are decoded and
appended to DIR/<name> (so a large file can be printed in several lines).

How it works (tests/godot4/README.md): a pack (.pck, format 3) holding the script,
`project.godot` with `application/run/main_loop_type` = the script's class and the class
cache that declares it, served with the engine and a small page from 127.0.0.1; Chromium
loads the page, the page starts the engine with `--main-pack`, collects its output and posts
it back. Chromium and the HTTP server are stopped on every path (the whole process group
of Chromium is killed).
"""
import argparse
import hashlib
import http.server
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import base64

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE_DIR = os.environ.get("GODOT4_ENGINE_DIR", os.path.join(HERE, ".engine"))
PINNED = {
    "index.wasm": "2b558bdb3c3af1f822ce6c43e09e1fa844d82fa440fe40d2d25d6c36ddf95137",
    "index.js": "f62312da58cb0eb7a52abf530512b5949b775fb2249342ad01ead7d00afc6f04",
}
MAIN_CLASS = "GdwireRunnerMain"
EXIT_SETUP = 125
LOAD_FAILURE = 'Failed to load script "res://gdwire_runner_main.gd"'
EXIT_TIMEOUT = 124

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>gdwire godot4 runner</title></head>
<body>
<canvas id="canvas" width="0" height="0" style="width:0;height:0"></canvas>
<script src="index.js"></script>
<script>
"use strict";
const MIRROR = __MIRROR__;
const pending = [];
let done = false;
function flush(final, sync) {
  if (!pending.length && !final) return;
  const body = JSON.stringify({events: pending.splice(0, pending.length), final: final});
  if (sync) {
    // Synchronous, so that it is out before the engine can block this thread for good
    // (a script that fails to parse leaves the engine spinning without a main loop).
    const xhr = new XMLHttpRequest();
    xhr.open("POST", final ? "/exit" : "/log", false);
    try { xhr.send(body); } catch (e) { /* the runner is gone */ }
    return;
  }
  fetch(final ? "/exit" : "/log", {method: "POST", body: body});
}
// Synchronous too: an asynchronous POST still in flight when the final one arrives would be
// lost (run.py stops at the final POST), and large outputs made that happen.
setInterval(() => { if (!done) flush(false, true); }, 250);
function finish(kind, value) {
  if (done) return;
  done = true;
  pending.push([kind, String(value)]);
  flush(true, true);
}
window.addEventListener("error", (e) => finish("crash", "page error: " + e.message));
window.addEventListener("unhandledrejection", (e) => finish("crash", "unhandled rejection: " + e.reason));
const join = (args) => Array.from(args).map(String).join(" ");
const engine = new Engine({
  executable: "index",
  canvas: document.getElementById("canvas"),
  canvasResizePolicy: 0,
  locale: "en",
  unloadAfterInit: false,
  args: __ARGS__,
  onPrint: function () { if (MIRROR) console.log("OUT", join(arguments)); pending.push(["out", join(arguments)]); },
  onPrintError: function () { const line = join(arguments); if (MIRROR) console.log("ERR", line); pending.push(["err", line]);
    // Sent at once: the engine may never give this thread back after a failed script load.
    if (line.startsWith("SCRIPT ERROR") || line.includes("Failed to load script")) flush(false, true); },
  onExit: function (code) { finish("exit", code); },
});
engine.init("index").then(() => fetch("/main.pck"))
  .then((r) => { if (!r.ok) throw new Error("main.pck: HTTP " + r.status); return r.arrayBuffer(); })
  .then((buf) => { engine.copyToFS("/gdwire/main.pck", buf); return engine.start(); })
  .catch((e) => finish("crash", "start failed: " + e));
</script>
</body></html>
"""


def fail_setup(msg):
    sys.stderr.write("GDWIRE-RUNNER: " + msg + "\n")
    sys.exit(EXIT_SETUP)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def engine_files():
    """Paths of the pinned engine files, or a reason they cannot be used."""
    files = {}
    for name, digest in PINNED.items():
        path = os.path.join(ENGINE_DIR, name)
        if not os.path.isfile(path):
            return None, f"{path} missing: run tests/godot4/install.sh"
        if sha256_file(path) != digest:
            return None, f"{path} does not have the pinned SHA-256: rerun tests/godot4/install.sh"
        files[name] = path
    return files, None


def find_chromium():
    for candidate in [os.environ.get("CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser"), "/usr/bin/chromium"]:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


# --- pack (.pck) writer ------------------------------------------------------------------
# Layout of PackedData format 3 (Godot 4.4+), as in the template's own exported index.pck:
# "GDPC", u32 format 3, u32 major/minor/patch, u32 flags (2 = offsets relative to file_base),
# u64 file_base, u64 directory offset, 16 reserved u32, file data (16-byte aligned), then the
# directory: u32 count, per file: u32 path length (padded to 4), path (without "res://",
# NUL-padded), u64 offset (from file_base), u64 size, 16-byte MD5, u32 flags.

def build_pck(files):
    header_size = 4 * 6 + 8 + 8 + 16 * 4
    data = bytearray()
    entries = []
    for path, content in files:
        while len(data) % 16:
            data.append(0)
        entries.append((path, len(data), content))
        data += content
    while len(data) % 16:
        data.append(0)
    directory = bytearray(struct.pack("<I", len(entries)))
    for path, offset, content in entries:
        raw = path.encode("utf-8")
        raw += b"\0" * (4 - len(raw) % 4 if len(raw) % 4 else 0)
        directory += struct.pack("<I", len(raw)) + raw
        directory += struct.pack("<QQ", offset, len(content))
        directory += hashlib.md5(content).digest() + struct.pack("<I", 0)
    dir_offset = header_size + len(data)
    header = struct.pack("<4sIIIIIQQ", b"GDPC", 3, 4, 6, 0, 2, header_size, dir_offset)
    header += b"\0" * (16 * 4)
    assert len(header) == header_size
    return bytes(header + data + directory)


def project_files(script_bytes, extra):
    project = (
        "config_version=5\n\n"
        "[application]\n\n"
        'config/name="gdwire-godot4-runner"\n'
        f'run/main_loop_type="{MAIN_CLASS}"\n'
        'run/main_scene="res://gdwire_runner_main.tscn"\n\n'
        "[debug]\n\n"
        "file_logging/enable_file_logging=false\n"
        "file_logging/enable_file_logging.pc=false\n"
    ).encode()
    cache = (
        "list=[{\n"
        '"base": &"SceneTree",\n'
        f'"class": &"{MAIN_CLASS}",\n'
        '"icon": "",\n'
        '"is_abstract": false,\n'
        '"is_tool": false,\n'
        '"language": &"GDScript",\n'
        '"path": "res://gdwire_runner_main.gd"\n'
        "}]\n"
    ).encode()
    # Without a main scene the engine refuses to start even with a script main loop.
    scene = b'[gd_scene format=3]\n\n[node name="GdwireRunnerRoot" type="Node"]\n'
    files = [("project.godot", project), ("gdwire_runner_main.tscn", scene), (".godot/global_script_class_cache.cfg", cache),
             ("gdwire_runner_main.gd", script_bytes)]
    files += extra
    return files


# --- HTTP server ----------------------------------------------------------------------------

class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.events = []
        self.finished = threading.Event()
        # Set when the main script fails to load: the engine then never exits by itself.
        self.load_failed = threading.Event()


def make_handler(routes, state):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):
            if os.environ.get("GODOT4_CHROMIUM_LOG"):
                sys.stderr.write("http: " + (fmt % args) + "\n")

        def do_GET(self):
            path = self.path.split("?", 1)[0]
            route = routes.get(path)
            if route is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            ctype, body = route
            if callable(body):
                body = body()
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            try:
                msg = json.loads(body.decode("utf-8"))
                with state.lock:
                    state.events.extend(msg.get("events", []))
                for kind, text in msg.get("events", []):
                    if kind == "err" and LOAD_FAILURE in text:
                        state.load_failed.set()
                if msg.get("final"):
                    state.finished.set()
            except ValueError:
                pass
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Handler


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Chromium is killed with connections open; a reset there is expected.
        pass


try:
    import ctypes
    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError, ImportError):
    _prctl = None


def _die_with_parent():
    # In Chromium's process before exec: if run.py itself is killed (SIGKILL cannot be
    # caught), the browser gets SIGKILL too instead of living on. Chromium is started before
    # the server thread, so this runs in a single-threaded fork.
    if _prctl is not None:
        _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def kill_group(proc):
    if proc is None or proc.poll() is not None and not _group_alive(proc.pid):
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    # The leader is gone; wait for the rest of the group (renderer, GPU, zygotes).
    deadline = time.monotonic() + 10
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            break
        time.sleep(0.02)


def _group_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def read_inputs(script_path, extra_specs):
    """The project's files: (res:// path without the prefix, bytes) pairs."""
    with open(script_path, "rb") as f:
        script_bytes = f.read()
    extra = []
    for spec in extra_specs:
        src, _, dest = spec.partition("=")
        dest = dest or "res://" + os.path.basename(src)
        if not dest.startswith("res://"):
            fail_setup(f"{spec}: destination must start with res://")
        with open(src, "rb") as f:
            extra.append((dest[len("res://"):], f.read()))
    return project_files(script_bytes, extra)


def larger_stack():
    """Runs in the engine's process before it starts: a 64 MiB stack (or the hard limit).
    Unoptimised native builds, the double-precision ones most, overflow the default 8 MiB in
    var_to_str of the deepest interop values (a crash, not an answer)."""
    import resource
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    want = 64 << 20
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    resource.setrlimit(resource.RLIMIT_STACK, (want, hard))


def run_native(engine, script_path, extra_specs, timeout, engine_args, out_dir):
    """The same run with a native engine binary (a local build, e.g. the double-precision
    one of tests/godot4/double/): the project is written to a temporary directory."""
    project = tempfile.mkdtemp(prefix="gdwire-godot4-native-")
    events = []
    try:
        for path, content in read_inputs(script_path, extra_specs):
            dest = os.path.join(project, path)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(content)
        cmd = [engine, "--headless", "--path", project, "--audio-driver", "Dummy",
               "--script", "res://gdwire_runner_main.gd"] + engine_args
        env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        timed_out = None
        try:
            done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                                  timeout=timeout, env=env, preexec_fn=larger_stack)
            stdout, stderr = done.stdout, done.stderr
        except FileNotFoundError:
            fail_setup(f"cannot run {engine}")
        except subprocess.TimeoutExpired as e:  # the engine was killed
            stdout, stderr, timed_out = e.stdout or b"", e.stderr or b"", timeout
        events += [("out", l) for l in stdout.decode("utf-8", "replace").splitlines()]
        events += [("err", l) for l in stderr.decode("utf-8", "replace").splitlines()]
        if timed_out is None and done.returncode < 0:
            events.append(("crash", f"signal {-done.returncode}"))
        elif timed_out is None:
            events.append(("exit", str(done.returncode)))
    finally:
        shutil.rmtree(project, ignore_errors=True)
    return report(events, out_dir, load_failed=False, timed_out=timed_out)


def run(script_path, extra_specs, timeout, engine_args, out_dir):
    files, reason = engine_files()
    if files is None:
        fail_setup(reason)
    chromium = find_chromium()
    if chromium is None:
        fail_setup("chromium not found (set CHROMIUM or run tests/godot4/install.sh)")
    pck = build_pck(read_inputs(script_path, extra_specs))
    args = ["--main-pack", "/gdwire/main.pck", "--audio-driver", "Dummy"] + engine_args
    mirror = "true" if os.environ.get("GODOT4_CHROMIUM_LOG") else "false"
    page = PAGE.replace("__ARGS__", json.dumps(args)).replace("__MIRROR__", mirror).encode()

    def reader(path):
        def read():
            with open(path, "rb") as f:
                return f.read()
        return read

    routes = {
        "/index.html": ("text/html; charset=utf-8", page),
        "/index.js": ("text/javascript", reader(files["index.js"])),
        "/index.wasm": ("application/wasm", reader(files["index.wasm"])),
        "/main.pck": ("application/octet-stream", pck),
        "/favicon.ico": ("image/x-icon", b""),
    }
    state = State()
    # Listening now; served from a thread started after Chromium (see _die_with_parent).
    server = Server(("127.0.0.1", 0), make_handler(routes, state))
    server_thread = threading.Thread(target=server.serve_forever, daemon=True)
    port = server.server_address[1]
    profile = tempfile.mkdtemp(prefix="gdwire-godot4-chromium-")
    proc = None
    timed_out = False
    try:
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--mute-audio",
               "--disable-features=Translate,MediaRouter,OptimizationHints",
               "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
               f"--user-data-dir={profile}", f"http://127.0.0.1:{port}/index.html"]
        log = sys.stderr if os.environ.get("GODOT4_CHROMIUM_LOG") else subprocess.DEVNULL
        if log is not subprocess.DEVNULL:
            cmd[1:1] = ["--enable-logging=stderr", "--v=1"]
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                start_new_session=True, preexec_fn=_die_with_parent)
        server_thread.start()
        deadline = time.monotonic() + timeout
        while not state.finished.wait(0.05):
            if state.load_failed.is_set():
                state.finished.wait(0.5)  # the error lines that follow
                break
            if time.monotonic() > deadline:
                timed_out = True
                break
            if proc.poll() is not None:
                # Chromium died; give a last in-flight POST a moment.
                state.finished.wait(0.5)
                break
    finally:
        kill_group(proc)
        if server_thread.is_alive():
            server.shutdown()
        server.server_close()
        shutil.rmtree(profile, ignore_errors=True)

    with state.lock:
        events = list(state.events)
    return report(events, out_dir, state.load_failed.is_set(), timeout if timed_out else None)


def report(events, out_dir, load_failed, timed_out):
    """Passes the engine's output on (files to out_dir) and returns the exit status;
    `timed_out`: the timeout in seconds when the run was stopped, else None."""
    code = None
    crash = None
    out = sys.stdout
    err = sys.stderr
    for kind, text in events:
        if kind == "out":
            if text.startswith("GDWIRE-FILE:"):
                _, name, payload = text.split(":", 2)
                if out_dir is not None:
                    if "/" in name or name in ("", ".", ".."):
                        fail_setup(f"bad GDWIRE-FILE name {name!r}")
                    with open(os.path.join(out_dir, name), "ab") as f:
                        f.write(base64.b64decode(payload))
                continue
            out.write(text + "\n")
        elif kind == "err":
            err.write(text + "\n")
        elif kind == "exit":
            code = int(text)
        elif kind == "crash":
            crash = text
    out.flush()
    if load_failed and code is None:
        err.write("GDWIRE-RUNNER: the script failed to load (see the errors above)\n")
        err.flush()
        return EXIT_SETUP
    if crash is not None:
        err.write(f"GDWIRE-RUNNER: engine crashed: {crash}\n")
        err.flush()
        return EXIT_SETUP
    if timed_out is not None:
        err.write(f"GDWIRE-RUNNER: timed out after {timed_out} s\n")
        err.flush()
        return EXIT_TIMEOUT
    if code is None:
        err.write("GDWIRE-RUNNER: chromium exited before the engine did\n")
        err.flush()
        return EXIT_SETUP
    err.flush()
    return code


def _terminate(signum, _frame):
    # Turn SIGTERM/SIGHUP into an exception so that run()'s cleanup kills Chromium.
    raise KeyboardInterrupt(f"signal {signum}")


def main():
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _terminate)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("script", nargs="?")
    p.add_argument("files", nargs="*", help="extra files: PATH or PATH=res://dest")
    p.add_argument("--timeout", type=float, default=float(os.environ.get("GODOT4_TIMEOUT", "60")))
    p.add_argument("--out-dir", default=None, help="where GDWIRE-FILE lines are written")
    p.add_argument("--engine-arg", action="append", default=[],
                   help="extra engine command-line argument (repeatable)")
    p.add_argument("--check-install", action="store_true",
                   help="only check that the engine and chromium are installed")
    p.add_argument("--native", metavar="ENGINE", default=None,
                   help="run this native engine binary headless instead of the web build")
    a = p.parse_args()
    if a.check_install:
        files, reason = engine_files()
        if files is None:
            fail_setup(reason)
        if find_chromium() is None:
            fail_setup("chromium not found")
        return 0
    if a.out_dir is not None:
        os.makedirs(a.out_dir, exist_ok=True)
    if a.script is None:
        p.error("a script is required")
    try:
        if a.native is not None:
            return run_native(a.native, a.script, a.files, a.timeout, a.engine_arg, a.out_dir)
        return run(a.script, a.files, a.timeout, a.engine_arg, a.out_dir)
    except KeyboardInterrupt as e:
        sys.stderr.write(f"GDWIRE-RUNNER: interrupted ({e})\n")
        return EXIT_SETUP


if __name__ == "__main__":
    sys.exit(main())
