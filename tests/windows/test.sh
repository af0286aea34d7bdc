#!/usr/bin/env bash
# Runs the integration tests against baton's Windows build under Wine:
#   tests/windows/test.sh [path/to/baton.exe]
# (default: target/x86_64-pc-windows-gnullvm/debug/baton.exe, built with
# `cargo zigbuild --target x86_64-pc-windows-gnullvm`). Every test runs except the end-to-end
# tests (the Claude Code client here is a Linux build), the kill tests (strace) and those
# tests/windows/skip.txt names under the reason each is left out (a line ending in `::` names
# every test of a module). A name there that is no test fails the run, so the list cannot go
# stale. Extra arguments after the binary go to the test harness
# (`tests/windows/test.sh baton.exe --test-threads 1`).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
exe="$(realpath "${1:-target/x86_64-pc-windows-gnullvm/debug/baton.exe}")"
shift $(($# > 0 ? 1 : 0))
export WINEPREFIX="${BATON_WINE_PREFIX:-$root/target/wine/prefix}" WINEDEBUG=-all
tests/windows/prepare.sh

all="$(cargo test --locked --test integration -- --list 2>/dev/null | sed -n 's/: test$//p')"
skips=()
declare -A per_reason=()
reason=""
while IFS= read -r line; do
    case "$line" in
        "## "*)
            reason="${line#\#\# }"
            reason="${reason%%:*}"
            ;;
        "#"* | "") ;;
        *::)
            # A module: every test under it.
            under="$(grep -F "$line" <<<"$all" | grep "^$line" || true)"
            if [ -z "$under" ]; then
                echo "tests/windows/skip.txt: no tests under $line" >&2
                exit 2
            fi
            while IFS= read -r name; do
                skips+=("$name")
                per_reason[$reason]=$((${per_reason[$reason]:-0} + 1))
            done <<<"$under"
            ;;
        *)
            if ! grep -qxF "$line" <<<"$all"; then
                echo "tests/windows/skip.txt: no test named $line" >&2
                exit 2
            fi
            skips+=("$line")
            per_reason[$reason]=$((${per_reason[$reason]:-0} + 1))
            ;;
    esac
done <tests/windows/skip.txt
elsewhere="$(grep -E '^(e2e|kill)::' <<<"$all" || true)"
while IFS= read -r name; do
    [ -n "$name" ] && skips+=("$name")
done <<<"$elsewhere"

# A test of a listed module may also be listed by name, under a reason of its own.
mapfile -t skips < <(printf '%s\n' "${skips[@]}" | sort -u)
total=$(grep -c . <<<"$all")
listed=$((${#skips[@]} - $(grep -c . <<<"$elsewhere")))
echo "Windows build under Wine: $((total - ${#skips[@]})) of $total integration tests run;" \
    "$(grep -c . <<<"$elsewhere") end-to-end and kill tests and $listed of tests/windows/skip.txt left out"
for r in "${!per_reason[@]}"; do echo "  skipped, $r: ${per_reason[$r]}"; done

# One server for the whole run, booted before the first test (each start of one boots the
# prefix, ~2 s, and leaves processes that would hold a test's pipes), stopped at the end.
# One already running (another run's) is as good, and is left running.
if wineserver -p </dev/null >/dev/null 2>&1; then
    trap 'wineserver -k 2>/dev/null || true' EXIT
fi
wine wineboot </dev/null >/dev/null 2>&1

skip_args=()
for name in "${skips[@]}"; do skip_args+=(--skip "$name"); done
BATON_TEST_BIN="$exe" cargo test --locked --test integration -- --exact "${skip_args[@]}" "$@"
