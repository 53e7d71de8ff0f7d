#!/usr/bin/env bash
# Regenerates tests/fixtures/godot3/cli.jsonl (engine truth for tests/cli.rs) by running
# tests/godot3/cli.gd in a real Godot 3.2.3 engine.
# Usage: tests/godot3/regenerate_cli.sh          (writes the fixture)
#        tests/godot3/regenerate_cli.sh --check  (fails if the engine's output differs)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../engine_common.sh"
godot3_fixture "${1:-}" cli.gd CLI GDWIRE_CLI_OUT cli 120
