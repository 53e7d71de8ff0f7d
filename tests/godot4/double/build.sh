#!/usr/bin/env bash
# Builds the double-precision Godot 4.6.3 engine that made tests/fixtures/godot4_double/:
# Debian's source of 4.6.3 (the orig tarball, pinned by SHA-256), a headless
# template_debug with `precision=double`, GDScript and mbedtls only, unoptimised (the fixtures
# need the engine's Variant code, not its speed). About 15 minutes on 2 cores.
#
# Usage: tests/godot4/double/build.sh [DIR]   (default: tests/godot4/double/.engine)
# Leaves the binary at DIR/godot; `GODOT4_DOUBLE=DIR/godot` is what regenerate.sh runs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${1:-$here/.engine}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

tarball=godot_4.6.3+ds.orig.tar.xz
sha256=2c7f6b7b2566182869d3f50829b8260179137ff169c34026640f9e8f9c3c0506
if [ -x "$dir/godot" ] && "$dir/godot" --version | grep -q '^4\.6\.3\.stable\.double\.'; then
    echo "already built: $dir/godot"
    exit 0
fi

# System libraries for what Debian's repacked source leaves out (zlib, zstd, libpng, mbedtls).
apt-get install -y zlib1g-dev libzstd-dev libpng-dev libmbedtls-dev pkg-config >/dev/null
python3 -m pip install -q 'scons>=4.4'

cd "$dir"
if [ ! -f "$tarball" ]; then
    curl -fsS -o "$tarball.part" "http://deb.debian.org/debian/pool/main/g/godot/$tarball"
    mv "$tarball.part" "$tarball"
fi
echo "$sha256  $tarball" | sha256sum -c -
rm -rf src && mkdir src && tar xJf "$tarball" -C src --strip-components=1
cd src
# The repack drops thirdparty/certs; the build wants the file to exist.
mkdir -p thirdparty/certs && : >thirdparty/certs/ca-bundle.crt
# Debian 12's zstd.h does not pull in zstd_errors.h, which this file uses.
sed -i 's|#include <zstd.h>|#include <zstd.h>\n#include <zstd_errors.h>|' core/io/delta_encoding.cpp

scons -j"$(nproc)" platform=linuxbsd target=template_debug precision=double \
    optimize=none debug_symbols=no tests=no lto=none use_static_cpp=no use_sowrap=no \
    modules_enabled_by_default=no module_gdscript_enabled=yes module_mbedtls_enabled=yes \
    disable_3d=yes disable_advanced_gui=yes disable_physics_2d=yes disable_physics_3d=yes \
    disable_navigation_2d=yes disable_navigation_3d=yes disable_xr=yes \
    x11=no wayland=no libdecor=no vulkan=no opengl3=no alsa=no pulseaudio=no \
    dbus=no speechd=no fontconfig=no udev=no sdl=no accesskit=no brotli=no \
    builtin_zlib=no builtin_zstd=no builtin_libpng=no builtin_mbedtls=no \
    builtin_certs=no system_certs_path=/etc/ssl/certs/ca-certificates.crt \
    engine_update_check=no disable_path_overrides=no
cp bin/godot.linuxbsd.template_debug.double.x86_64 "$dir/godot"
"$dir/godot" --version
