#!/usr/bin/env bash
# Installs a second Godot 3 engine, Godot 3.6 (Debian 13 "trixie" package godot3-server
# 3.6+ds-2), beside the system's 3.2.3, without touching the system: the package and every
# library it needs are downloaded from trixie by apt-get into a private apt root (signatures
# checked against /usr/share/keyrings/debian-archive-keyring.gpg), unpacked into
# tests/godot3/.engine-3.6/ (gitignored), and run through trixie's own dynamic loader. The
# godot3-server package is also pinned by SHA-256 below.
#
# Prints the path of the engine's launcher (tests/godot3/.engine-3.6/godot3-server), which
# takes the place of `godot3-server` (GODOT3_SERVER=...). Idempotent: a second run only
# prints the path.
# Usage: tests/godot3/install_3_6.sh         (needs apt-get, dpkg-deb and network access)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${GODOT3_6_DIR:-$here/.engine-3.6}"
launcher="$dir/godot3-server"
package="godot3-server=3.6+ds-2"
deb_sha256="51bc53fb680b8c0a1ec20657dbddf43d0661f4965a691d7a57031e92b6f843db"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

if [ -x "$launcher" ] && "$launcher" --version 2>/dev/null | grep -q '^3\.6\.stable'; then
    echo "$launcher"
    exit 0
fi

apt_root="$dir/apt"
# Only what this script makes is removed (the directory may be given by GODOT3_6_DIR).
rm -rf "$apt_root" "$dir/root" "$launcher"
mkdir -p "$apt_root"/{etc/apt.conf.d,etc/preferences.d,etc/sources.list.d} \
    "$apt_root"/state/lists/partial "$apt_root"/cache/archives/partial
echo "deb [signed-by=$keyring] http://deb.debian.org/debian trixie main" \
    >"$apt_root/etc/sources.list"
: >"$apt_root/state/status"
apt=(apt-get -qq -o "Dir::Etc=$apt_root/etc" -o "Dir::State=$apt_root/state"
     -o "Dir::State::status=$apt_root/state/status" -o "Dir::Cache=$apt_root/cache"
     -o APT::Architecture=amd64 -o Debug::NoLocking=1)
"${apt[@]}" update
# With an empty package database every dependency down to libc6 is fetched: the engine
# runs on trixie's libraries only, whatever the host has.
"${apt[@]}" install --download-only -y "$package" >/dev/null
deb=("$apt_root"/cache/archives/godot3-server_*.deb)
echo "$deb_sha256  ${deb[0]}" | sha256sum --check --status || {
    echo "error: ${deb[0]} does not have the pinned SHA-256" >&2; exit 1; }
mkdir -p "$dir/root"
for f in "$apt_root"/cache/archives/*.deb; do
    dpkg-deb -x "$f" "$dir/root"
done
rm -rf "$apt_root"

cat >"$launcher" <<'EOF'
#!/bin/sh
# Godot 3.6 from Debian trixie, on trixie's own loader and libraries (install_3_6.sh).
root="$(dirname "$0")/root"
exec "$root/usr/lib64/ld-linux-x86-64.so.2" \
    --library-path "$root/usr/lib/x86_64-linux-gnu:$root/usr/lib" \
    "$root/usr/bin/godot3-server" "$@"
EOF
chmod +x "$launcher"
"$launcher" --version | grep -q '^3\.6\.stable' || {
    echo "error: the installed engine does not report version 3.6" >&2; exit 1; }
echo "$launcher"
