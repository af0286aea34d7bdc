#!/usr/bin/env bash
# Side-by-side benchmark of baton's statusline and context monitor against GSD's Node
# hooks and a no-op process, on the same payloads, interleaved in one run.
#
#   bench/hooks.sh                 # 300 rounds (default)
#   bench/hooks.sh --quick         # 40 rounds
#   bench/hooks.sh -n 1000 --check # exit 1 when a target fails
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
args=()
for a in "$@"; do
    case "$a" in
        --no-build) build=0 ;;
        -h|--help)
            sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
            exec python3 "$root/bench/hooks.py" --help ;;
        *) args+=("$a") ;;
    esac
done

baton="$("$root/scripts/build-release.sh" --path)"
if [ "$build" = 1 ]; then
    echo "building baton (release, as installed)…" >&2
    if ! "$root/scripts/build-release.sh" >/dev/null; then
        [ -x "$baton" ] || { echo "build failed and there is no $baton" >&2; exit 1; }
        echo "build failed: benchmarking the existing $baton" >&2
    fi
fi

gsd_args=()
if [ ! -f "$gsd_hooks/gsd-context-monitor.js" ]; then
    if command -v npm >/dev/null 2>&1; then
        echo "installing get-shit-done-cc@$gsd_version under $gsd_prefix…" >&2
        mkdir -p "$gsd_prefix"
        npm install --no-audit --no-fund --silent --prefix "$gsd_prefix" "get-shit-done-cc@$gsd_version" >&2 \
            || echo "npm install failed: GSD will be skipped" >&2
    else
        echo "npm not found: GSD will be skipped" >&2
    fi
fi
[ -f "$gsd_hooks/gsd-context-monitor.js" ] && gsd_args=(--gsd "$gsd_hooks")

exec python3 "$root/bench/hooks.py" --baton "$baton" ${gsd_args[@]+"${gsd_args[@]}"} --work "$target/bench" ${args[@]+"${args[@]}"}
