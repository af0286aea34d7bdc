#!/usr/bin/env bash
# Benchmark of the context store (`baton ctx`): `get` and `set` on a store with 100,000
# versions and a 10 MB document, beside a store with the same document and 10 versions; the
# journal's growth per write on the 10 MB document beside a 1 KB one; the store's size.
#
#   bench/store.sh                  # release build, 15 rounds
#   bench/store.sh -n 31 --check    # exit 1 when a target fails
#   bench/store.sh --no-build       # use the existing release binary
#
# The stores are generated afresh under $TARGET/bench/store/ each run: the document is
# written as JSON, started with `baton ctx init --from`, and the 99,999 further versions are
# written by `baton ctx batch` (one version per JSON line, one process; the generation time
# is printed). Other options go to bench/store.py (`python3 bench/store.py --help`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
build=1
args=()
for a in "$@"; do
    case "$a" in
        --no-build) build=0 ;;
        -h|--help)
            sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
            exec python3 "$root/bench/store.py" --help ;;
        *) args+=("$a") ;;
    esac
done
if [ "$build" = 1 ]; then
    echo "building baton (release, as installed)…" >&2
    "$root/scripts/build-release.sh" >/dev/null
fi
mkdir -p "$target/bench"
exec python3 "$root/bench/store.py" --baton "$("$root/scripts/build-release.sh" --path)" \
    --work "$target/bench/store" ${args[@]+"${args[@]}"}
