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

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
# 20.0.24 ships a native binary for this platform; 20.0.26's does not install here.
ccusage_version="20.0.24"
ccusage_prefix="$target/bench/ccusage"
ccusage_bin="$ccusage_prefix/node_modules/.bin/ccusage"

build=1
check=0
args=()
for a in "$@"; do
    case "$a" in
        --no-build) build=0 ;;
        --check) check=1; args+=("$a") ;;
        -h|--help)
            sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
            exec python3 "$root/bench/report.py" --help ;;
        *) args+=("$a") ;;
    esac
done

# A failed build stops here: benchmarking the binary of an older build would measure the
# wrong code (--no-build measures the existing binary on purpose).
if [ "$build" = 1 ]; then
    echo "building baton (release, as installed)…" >&2
    if ! "$root/scripts/build-release.sh" >/dev/null; then
        echo "bench/report.sh: the build failed, so there is nothing current to measure; fix the build (or pass --no-build to measure the existing binary)" >&2
        exit 1
    fi
fi
baton="$("$root/scripts/build-release.sh" --path)"
[ -x "$baton" ] || { echo "bench/report.sh: no binary at $baton; build it (drop --no-build)" >&2; exit 1; }

# ccusage is what the speed target compares against: without it --check cannot pass.
ccusage_args=()
if [ ! -x "$ccusage_bin" ]; then
    why=""
    if command -v npm >/dev/null 2>&1; then
        echo "installing ccusage@$ccusage_version under $ccusage_prefix…" >&2
        mkdir -p "$ccusage_prefix"
        npm install --no-audit --no-fund --silent --prefix "$ccusage_prefix" "ccusage@$ccusage_version" >&2 \
            || why="npm could not install ccusage@$ccusage_version"
    else
        why="npm is not on PATH"
    fi
    if [ -n "$why" ]; then
        if [ "$check" = 1 ]; then
            echo "bench/report.sh --check: $why, so the ccusage target cannot be measured; FAIL (install node and npm, or make the registry reachable)" >&2
            exit 1
        fi
        echo "$why: ccusage is left out of this run (--check would fail)" >&2
    fi
fi
[ -x "$ccusage_bin" ] && ccusage_args=(--ccusage "$ccusage_bin")

mkdir -p "$target/bench"
exec python3 "$root/bench/report.py" --baton "$baton" ${ccusage_args[@]+"${ccusage_args[@]}"} --work "$target/bench" ${args[@]+"${args[@]}"}
