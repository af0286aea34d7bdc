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
bench=hooks help_lines=2,11
source "$(dirname "${BASH_SOURCE[0]}")/wrapper.sh"
gsd_version="1.42.3"
gsd_prefix="$target/bench/gsd"
gsd_hooks="$gsd_prefix/node_modules/get-shit-done-cc/hooks"

bench_baton
# GSD's hooks are what two targets compare against.
bench_npm_tool "get-shit-done-cc@$gsd_version" "$gsd_prefix" "$gsd_hooks/gsd-context-monitor.js" "the GSD targets"
gsd_args=()
[ -f "$gsd_hooks/gsd-context-monitor.js" ] && gsd_args=(--gsd "$gsd_hooks")

exec python3 "$root/bench/hooks.py" --baton "$baton" ${gsd_args[@]+"${gsd_args[@]}"} --work "$target/bench" ${args[@]+"${args[@]}"}
