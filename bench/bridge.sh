#!/usr/bin/env bash
# Times a full `baton bridge --files … --json` over a generated repository of 10,000 files
# beside ripgrep matching the same signals on the same files (installed with apt if missing).
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
