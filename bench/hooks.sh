#!/usr/bin/env bash
# Side-by-side benchmark of baton's statusline and context monitor against GSD's Node
# hooks and a no-op process, on the same payloads, interleaved in one run.
#
#   bench/hooks.sh                 # 300 rounds (default)
#   bench/hooks.sh --quick         # 40 rounds
#   bench/hooks.sh -n 1000 --check # exit 1 when a target fails or cannot be measured
#   bench/hooks.sh --no-build      # use the existing release binary
#
# Other options go to bench/hooks.py (see `python3 bench/hooks.py --help`).
# Needs: cargo, node + npm (GSD is installed once under $TARGET/bench/gsd), python3.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
gsd_version="1.42.3"
gsd_prefix="$target/bench/gsd"
gsd_hooks="$gsd_prefix/node_modules/get-shit-done-cc/hooks"

build=1
check=0
args=()
for a in "$@"; do
    case "$a" in
        --no-build) build=0 ;;
        --check) check=1; args+=("$a") ;;
        -h|--help)
            sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
            exec python3 "$root/bench/hooks.py" --help ;;
        *) args+=("$a") ;;
    esac
done

# A failed build stops here: benchmarking the binary of an older build would measure the
# wrong code (--no-build measures the existing binary on purpose).
if [ "$build" = 1 ]; then
    echo "building baton (release, as installed)…" >&2
    if ! "$root/scripts/build-release.sh" >/dev/null; then
        echo "bench/hooks.sh: the build failed, so there is nothing current to measure; fix the build (or pass --no-build to measure the existing binary)" >&2
        exit 1
    fi
fi
baton="$("$root/scripts/build-release.sh" --path)"
[ -x "$baton" ] || { echo "bench/hooks.sh: no binary at $baton; build it (drop --no-build)" >&2; exit 1; }

# GSD's hooks are what two targets compare against: without them --check cannot pass.
gsd_args=()
if [ ! -f "$gsd_hooks/gsd-context-monitor.js" ]; then
    why=""
    if command -v npm >/dev/null 2>&1; then
        echo "installing get-shit-done-cc@$gsd_version under $gsd_prefix…" >&2
        mkdir -p "$gsd_prefix"
        npm install --no-audit --no-fund --silent --prefix "$gsd_prefix" "get-shit-done-cc@$gsd_version" >&2 \
            || why="npm could not install get-shit-done-cc@$gsd_version"
    else
        why="npm is not on PATH"
    fi
    if [ -n "$why" ]; then
        if [ "$check" = 1 ]; then
            echo "bench/hooks.sh --check: $why, so the GSD targets cannot be measured; FAIL (install node and npm, or make the registry reachable)" >&2
            exit 1
        fi
        echo "$why: GSD is left out of this run (--check would fail)" >&2
    fi
fi
[ -f "$gsd_hooks/gsd-context-monitor.js" ] && gsd_args=(--gsd "$gsd_hooks")

exec python3 "$root/bench/hooks.py" --baton "$baton" ${gsd_args[@]+"${gsd_args[@]}"} --work "$target/bench" ${args[@]+"${args[@]}"}
