#!/usr/bin/env bash
# Benchmark of `baton window` (what fills the context) on a generated 200 MB transcript:
# median time against `grep -c` over the same file (the I/O floor), and peak memory on the
# 200 MB transcript beside a 20 MB one (it must stay flat).
#
#   bench/window.sh                 # release build, 5 rounds
#   bench/window.sh -n 9 --check    # exit 1 when a target fails
#   bench/window.sh --no-build      # use the existing release binary
#
# The transcripts are generated once under $TARGET/bench/ (about 220 MB of disk).
# Other options go to bench/window.py (`python3 bench/window.py --help`).
set -euo pipefail
bench=window help_lines=2,11
source "$(dirname "${BASH_SOURCE[0]}")/wrapper.sh"
bench_baton
exec python3 "$root/bench/window.py" --baton "$baton" --work "$target/bench" ${args[@]+"${args[@]}"}
