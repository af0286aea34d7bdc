#!/usr/bin/env bash
# Times a full `baton bridge --files … --json` over a generated repository of 10,000 files
# beside ripgrep matching the same signals on the same files (installed with apt if missing).
#   bench/bridge.sh [--no-build] [-n ROUNDS] [--files N] [--check]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
build=1
args=()
for a in "$@"; do
    case "$a" in
        --no-build) build=0 ;;
        -h|--help) sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'; exec python3 "$root/bench/bridge.py" --help ;;
        *) args+=("$a") ;;
    esac
done
if ! command -v rg >/dev/null; then
    echo "installing ripgrep…" >&2
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get install -y -qq ripgrep >/dev/null || { $sudo apt-get update -qq && $sudo apt-get install -y -qq ripgrep >/dev/null; }
fi
[ "$build" = 1 ] && "$root/scripts/build-release.sh" >/dev/null
mkdir -p "$target/bench"
exec python3 "$root/bench/bridge.py" --baton "$("$root/scripts/build-release.sh" --path)" --work "$target/bench" ${args[@]+"${args[@]}"}
