#!/usr/bin/env bash
# Times `baton bridge` over a generated repository of 10,000 files: a full run beside the bare
# tree-sitter parse of the same signal files (the floor) and ripgrep (a reference, installed
# with apt if missing), and a typical agent run (200 changed files, --since).
#   bench/bridge.sh [--no-build] [-n ROUNDS] [--files N] [--check]
set -euo pipefail
bench=bridge help_lines=2,4
source "$(dirname "${BASH_SOURCE[0]}")/wrapper.sh"
if ! command -v rg >/dev/null; then
    echo "installing ripgrep…" >&2
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get install -y -qq ripgrep >/dev/null || { $sudo apt-get update -qq && $sudo apt-get install -y -qq ripgrep >/dev/null; }
fi
bench_baton
exec python3 "$root/bench/bridge.py" --baton "$baton" --work "$target/bench" ${args[@]+"${args[@]}"}
