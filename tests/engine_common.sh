# Shared by the engine fixture scripts of tests/godot3/, tests/godot4/ and tests/pandemonium/
# (sourced, not run): running one Godot 3 style script and judging its run, and the last step
# of every one-file fixture script (compare with the committed file under --check, else write
# it).
# Sourcing it sets $repo_root and $tmp, a temporary directory removed when the script exits.

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
godot="${GODOT3_SERVER:-godot3-server}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Exits unless the Godot 3 runtime is on the PATH (or GODOT3_SERVER names it).
require_godot3() {
    if ! command -v "$godot" >/dev/null 2>&1; then
        echo "error: '$godot' not found (apt-get install -y godot3-server)" >&2
        exit 1
    fi
}

# run_engine ENGINE DIR SCRIPT TAG SECONDS: runs res://SCRIPT of tests/DIR/ with the Godot 3
# style runtime ENGINE (the caller sets the script's own environment variables), its stdout
# and stderr to $tmp/stdout and $tmp/stderr. Fails unless it exits 0 within SECONDS, prints a
# line starting GDWIRE-TAG-OK, and its stderr has neither GDWIRE-TAG-FAILURE nor a script
# error.
run_engine() {
    local engine="$1" dir="$2" script="$3" tag="$4" seconds="$5" status=0
    LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 \
        timeout "$seconds" "$engine" --path "$repo_root/tests/$dir" --script "res://$script" \
        >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
    if [ "$status" -ne 0 ] || grep -q -e "GDWIRE-$tag-FAILURE" -e '^SCRIPT ERROR' "$tmp/stderr" \
            || ! grep -q "^GDWIRE-$tag-OK" "$tmp/stdout"; then
        echo "error: $script failed (exit status $status); fixture left unchanged" >&2
        tail -n 20 "$tmp/stderr" >&2 || true
        exit 1
    fi
}

# run_godot3 SCRIPT TAG SECONDS: run_engine with the Godot 3 runtime on tests/godot3/.
run_godot3() {
    run_engine "$godot" godot3 "$@"
}

# finish_fixture MODE NEW PATH NAME: with MODE --check, fails unless NEW equals the committed
# file PATH (from the repository root) byte for byte; otherwise copies NEW there.
finish_fixture() {
    local mode="$1" new="$2" path="$3" name="$4" root="$repo_root"
    if [ "$mode" = "--check" ]; then
        if cmp -s "$new" "$root/$path"; then
            echo "$name fixture matches the engine"
            return 0
        fi
        echo "error: $path differs from the engine's output" >&2
        exit 1
    fi
    mkdir -p "$(dirname "$root/$path")"
    cp "$new" "$root/$path"
    echo "wrote $path ($(wc -l <"$root/$path") rows)"
}

# godot3_fixture MODE SCRIPT TAG OUT_VAR NAME SECONDS [zero-pads]: the whole of a one-file
# Godot 3 fixture script. Runs tests/godot3/SCRIPT, which writes its rows to the file the
# environment variable OUT_VAR names, then finish_fixture on tests/fixtures/godot3/NAME.jsonl.
# zero-pads: NodePath pad bytes are uninitialised engine memory; zero them first so reruns
# are byte-identical.
godot3_fixture() {
    local mode="$1" script="$2" tag="$3" out_var="$4" name="$5" seconds="$6" pads="${7:-}"
    require_godot3
    export "$out_var=$tmp/$name.jsonl"
    run_godot3 "$script" "$tag" "$seconds"
    if [ "$pads" = zero-pads ]; then
        python3 "$repo_root/tests/godot3/zero_pads.py" "$tmp/$name.jsonl" >/dev/null
    fi
    finish_fixture "$mode" "$tmp/$name.jsonl" "tests/fixtures/godot3/$name.jsonl" "$name"
}

# godot4_native_generate ENGINE BANNER SECONDS: runs tests/godot4/generate.gd (with common.gd and
# typed_item.gd) in the native Godot 4 binary ENGINE (tests/godot4/run.py --native), its stdout
# and stderr to $tmp/gen.stdout and $tmp/gen.stderr, and assembles its rows into $tmp/out
# (values.jsonl, malformed.jsonl). Exits unless the run succeeds and the engine's banner starts
# with "Godot Engine vBANNER" (a basic regular expression).
godot4_native_generate() {
    local engine="$1" banner="$2" seconds="$3" status=0 dir="$repo_root/tests/godot4"
    mkdir -p "$tmp/out"
    python3 "$dir/run.py" --native "$engine" --timeout "$seconds" "$dir/generate.gd" \
        "$dir/common.gd" "$dir/typed_item.gd" \
        >"$tmp/gen.stdout" 2>"$tmp/gen.stderr" || status=$?
    if [ "$status" -ne 0 ] || grep -q 'GDWIRE-GENERATOR-FAILURE' "$tmp/gen.stderr" \
            || ! grep -q '^GDWIRE-GENERATOR-OK$' "$tmp/gen.stdout"; then
        echo "error: generate.gd failed (exit status $status); fixtures left unchanged" >&2
        grep -E 'GDWIRE-GENERATOR-FAILURE|GDWIRE-RUNNER|SCRIPT ERROR' -A2 "$tmp/gen.stderr" >&2 || true
        tail -n 20 "$tmp/gen.stderr" >&2 || true
        exit 1
    fi
    if ! grep -q "^Godot Engine v$banner" "$tmp/gen.stdout"; then
        echo "error: the engine did not print a $banner banner" >&2
        exit 1
    fi
    python3 "$dir/assemble.py" "$tmp/gen.stdout" "$tmp/gen.stderr" "$tmp/out"
}

# godot4_same_malformed NEW COMMITTED: exits unless the malformed-input verdicts and error
# codes in NEW (a double-precision build's malformed.jsonl) equal those of COMMITTED (the
# single-precision build of the same version), leaving out the text of the engine's error
# line, which names limits as the compiler's headers spell them.
godot4_same_malformed() {
    python3 - "$1" "$2" <<'PY'
import json, sys
ignored = ("error_line", "mark")
rows = [[{k: v for k, v in json.loads(line).items() if k not in ignored} for line in open(p)]
        for p in sys.argv[1:]]
bad = [a["name"] for a, b in zip(*rows) if a != b]
if len(rows[0]) != len(rows[1]) or bad:
    sys.exit(f"error: malformed-input verdicts differ from the single-precision engine's: {bad[:5]}")
print(f"{len(rows[0])} malformed-input verdicts equal the single-precision engine's")
PY
}

# godot4_native_str_to_var ENGINE OUT: runs tests/godot4/str_to_var.gd in the native Godot 4
# binary ENGINE and writes its rows to OUT; exits unless the run succeeds.
godot4_native_str_to_var() {
    local engine="$1" out="$2" status=0 dir="$repo_root/tests/godot4"
    python3 "$dir/run.py" --native "$engine" --timeout 300 "$dir/str_to_var.gd" \
        >"$tmp/str.stdout" 2>"$tmp/str.stderr" || status=$?
    if [ "$status" -ne 0 ] || ! grep -q '^GDWIRE-STR-TO-VAR-OK' "$tmp/str.stdout"; then
        echo "error: str_to_var.gd failed (exit status $status); fixtures left unchanged" >&2
        tail -n 20 "$tmp/str.stderr" >&2 || true
        exit 1
    fi
    sed -n 's/^ROW //p' "$tmp/str.stdout" >"$out"
}
