#!/usr/bin/env bash
# Times `baton progress` on a generated GSD project of 200 phases and 2,000 plans.
#   bench/progress.sh [--no-build] [-n RUNS] [--phases N] [--plans N] [--check]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
build=1
args=()
for a in "$@"; do
    case "$a" in
        --no-build) build=0 ;;
        *) args+=("$a") ;;
    esac
done
[ "$build" = 1 ] && "$root/scripts/build-release.sh" >/dev/null
mkdir -p "$target/bench"
exec python3 "$root/bench/progress.py" --baton "$("$root/scripts/build-release.sh" --path)" --work "$target/bench" ${args[@]+"${args[@]}"}
