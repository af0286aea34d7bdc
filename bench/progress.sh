#!/usr/bin/env bash
# Times `baton progress` on a generated GSD project of 200 phases and 2,000 plans.
#   bench/progress.sh [--no-build] [-n RUNS] [--phases N] [--plans N] [--check]
set -euo pipefail
bench=progress help_lines=2,3
source "$(dirname "${BASH_SOURCE[0]}")/wrapper.sh"
bench_baton
exec python3 "$root/bench/progress.py" --baton "$baton" --work "$target/bench" ${args[@]+"${args[@]}"}
