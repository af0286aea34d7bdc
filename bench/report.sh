#!/usr/bin/env bash
# Side-by-side benchmark of `baton report` against ccusage and `grep -c usage` (the I/O
# floor) on the same ~1 GB of generated transcripts, interleaved in one run; then the token
# and cost totals of both compared with what the generator wrote.
#
#   bench/report.sh                 # 1 GB, 5 rounds (default)
#   bench/report.sh --quick         # 0.25 GB, 3 rounds
#   bench/report.sh -n 9 --check    # exit 1 when a target fails or cannot be measured
#   bench/report.sh --no-build      # use the existing release binary
#
# Other options go to bench/report.py (see `python3 bench/report.py --help`).
# Needs: cargo, node + npm (ccusage is installed once under $TARGET/bench/ccusage), python3.
# The data sets are generated once under $TARGET/bench/report-data (about 1.2 GB of disk).
set -euo pipefail
bench=report help_lines=2,13
source "$(dirname "${BASH_SOURCE[0]}")/wrapper.sh"
# 20.0.24 ships a native binary for this platform; 20.0.26's does not install here.
ccusage_version="20.0.24"
ccusage_prefix="$target/bench/ccusage"
ccusage_bin="$ccusage_prefix/node_modules/.bin/ccusage"

bench_baton
# ccusage is what the speed target compares against.
bench_npm_tool "ccusage@$ccusage_version" "$ccusage_prefix" "$ccusage_bin" "the ccusage target"
ccusage_args=()
[ -x "$ccusage_bin" ] && ccusage_args=(--ccusage "$ccusage_bin")

exec python3 "$root/bench/report.py" --baton "$baton" ${ccusage_args[@]+"${ccusage_args[@]}"} --work "$target/bench" ${args[@]+"${args[@]}"}
