#!/usr/bin/env bash
# Which library code a fuzz target's corpus reaches: per-file line coverage of src/ and the
# library functions no corpus input executes (demangled). Needs the nightly llvm-tools
# (`rustup component add --toolchain nightly llvm-tools-preview`) and `cargo install rustfilt`.
# Usage: fuzz/coverage.sh target...   (output: fuzz/coverage/<target>/summary.txt)
set -euo pipefail
cd "$(dirname "$0")"
llvm="$(rustc +nightly --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin"
src="$(cd .. && pwd)/src"
for t in "$@"; do
    # A copy: the corpus may be growing under a running fuzzer.
    snapshot="$(mktemp -d)"
    cp -r "corpus/$t/." "$snapshot/"
    cargo +nightly fuzz coverage "$t" "$snapshot" >"coverage/$t.log" 2>&1 || true
    rm -rf "$snapshot"
    bin="target/x86_64-unknown-linux-gnu/coverage/x86_64-unknown-linux-gnu/release/$t"
    prof="coverage/$t/coverage.profdata"
    out="coverage/$t/summary.txt"
    files=$(find "$src" -name '*.rs' -not -path '*/bin/*' | sort)
    {
        echo "# $t: $(ls "corpus/$t" | wc -l) corpus inputs"
        "$llvm/llvm-cov" report "$bin" -instr-profile="$prof" $files |
            sed "s|$src/||" | awk '$1 !~ /^(Filename|-)/ {print $1, "lines", $8, "missed", $9, $10}'
        echo
        echo "# library functions never executed"
        "$llvm/llvm-cov" report "$bin" -instr-profile="$prof" --show-functions \
            -Xdemangler=rustfilt $files |
            awk 'NF > 9 && $1 !~ /^(File|Name|-|TOTAL)/ && $(NF-6) == "0.00%" {
                     name = $1; for (i = 2; i <= NF - 9; i++) name = name " " $i
                     print "  " name }' | sort -u
    } >"$out"
    echo "$out: $(grep -c '^  ' "$out") functions never executed"
done
