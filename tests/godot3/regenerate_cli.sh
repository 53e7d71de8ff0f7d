#!/usr/bin/env bash
# Regenerates tests/fixtures/godot3/cli.jsonl (engine truth for tests/cli.rs) by running
# tests/godot3/cli.gd in a real Godot 3.2.3 engine.
# Usage: tests/godot3/regenerate_cli.sh          (writes the fixture)
#        tests/godot3/regenerate_cli.sh --check  (fails if the engine's output differs)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
source "$repo_root/tests/engine_common.sh"
require_godot3
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
GDWIRE_CLI_OUT="$tmp/cli.jsonl" run_godot3 "$here" cli.gd CLI 120
finish_fixture "${1:-}" "$tmp/cli.jsonl" "$repo_root" tests/fixtures/godot3/cli.jsonl cli
