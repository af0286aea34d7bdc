#!/usr/bin/env bash
# Builds the fuzz targets (fuzz/fuzz_targets/) with libFuzzer on stable Rust and runs each for
# a bounded time from its committed corpus (fuzz/corpus/<target>/). Each target checks
# properties of a parser of outside input, not only that it does not crash (see its `//!`).
#
#   scripts/fuzz.sh                   every target, FUZZ_SECONDS (default 5) each
#   scripts/fuzz.sh hook statusline   those targets
#   FUZZ_SECONDS=600 scripts/fuzz.sh usage_line
#   FUZZ_KEEP=dir scripts/fuzz.sh …   new inputs go to dir/<target>/ (to merge into the corpus)
#   FUZZ_SEED=1 scripts/fuzz.sh       a fixed mutation sequence (CI), instead of a random one
#   scripts/fuzz.sh --list            the targets
#
# A crash or a property violation fails the run; the input is saved under
# fuzz/artifacts/<target>/ and reproduces with
#   fuzz/target/<host>/release/<target> fuzz/artifacts/<target>/crash-… (under $CARGO_TARGET_DIR
#   when it is set)
#
# Why not `cargo fuzz`: it is another tool to install, and it adds nothing needed here. This
# script passes cargo the flags cargo-fuzz passes for `--sanitizer none` (SanitizerCoverage
# for libFuzzer; no AddressSanitizer, which needs nightly: the code under test is safe Rust).
# `cargo fuzz run <target> --sanitizer none` works as well, from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
fuzz="$root/fuzz"

targets=()
while IFS= read -r name; do targets+=("$name"); done < <(sed -n 's/^name = "\(.*\)"$/\1/p' "$fuzz/Cargo.toml" | tail -n +2)
if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${targets[@]}"
  exit 0
fi
if [ $# -gt 0 ]; then
  for name in "$@"; do
    [[ " ${targets[*]} " == *" $name "* ]] || { echo "fuzz.sh: no target '$name' (scripts/fuzz.sh --list)" >&2; exit 2; }
  done
  targets=("$@")
fi
seconds=${FUZZ_SECONDS:-5}

host=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing"
started=$(date +%s)
# --target keeps RUSTFLAGS off build scripts and proc macros, which must not be instrumented.
bins=()
for name in "${targets[@]}"; do bins+=(--bin "$name"); done
cargo build --manifest-path "$fuzz/Cargo.toml" --locked --release --target "$host" "${bins[@]}"
built=$(date +%s)
built_dir="${CARGO_TARGET_DIR:-$fuzz/target}/$host/release"
echo "fuzz: built ${#targets[@]} targets in $((built - started)) s"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
for name in "${targets[@]}"; do
  out="${FUZZ_KEEP:+$FUZZ_KEEP/$name}"
  out="${out:-$work/new-$name}"
  mkdir -p "$out" "$fuzz/artifacts/$name" "$work/sandbox-$name"
  log="$work/$name.log"
  case "$name" in
    state_md | roadmap_md | plan_frontmatter) dict=markdown ;;
    *) dict=json ;;
  esac
  # One input at a time, in one process (the machine is shared): -timeout catches an input
  # that makes a parser hang or go quadratic, -rss_limit_mb one that eats memory.
  if BATON_FUZZ_DIR="$work/sandbox-$name" "$built_dir/$name" \
    ${FUZZ_SEED:+-seed="$FUZZ_SEED"} -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    -dict="$fuzz/dict/$dict.dict" -artifact_prefix="$fuzz/artifacts/$name/" -print_final_stats=1 \
    "$out" "$fuzz/corpus/$name" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: $name held over ${runs:-?} inputs in ${seconds} s"
  else
    failed+=("$name")
    echo "fuzz: $name FAILED:"
    # The panic's message, then libFuzzer's verdict (a crash, a timeout, memory) and the input.
    sed -n '/panicked at/,/^\(stack backtrace\|note: \)/p' "$log" | head -30
    grep -E '^(==[0-9]+== ERROR|SUMMARY|artifact_prefix|ALARM|MS: )' "$log" | tail -6
  fi
done
echo "fuzz: ${#targets[@]} targets, $(($(date +%s) - built)) s of fuzzing after the build"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: property violated or crash in: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
  exit 1
fi
