#!/usr/bin/env bash
# Benchmark of the context store (`baton ctx`): `get` and `set` on a store with 100,000
# versions and a 10 MB document, beside a store with the same document and 10 versions; the
# SubagentStart hook on the 10 MB document; the journal's growth per write on the 10 MB
# document beside a 1 KB one; the store's size.
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
bench=store help_lines=2,13
source "$(dirname "${BASH_SOURCE[0]}")/wrapper.sh"
bench_baton
exec python3 "$root/bench/store.py" --baton "$baton" --work "$target/bench/store" ${args[@]+"${args[@]}"}
