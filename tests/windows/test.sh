#!/usr/bin/env bash
# Runs the integration tests against baton's Windows build under Wine:
#   tests/windows/test.sh [path/to/baton.exe]
# (default: target/x86_64-pc-windows-gnullvm/debug/baton.exe, built with
# `cargo zigbuild --target x86_64-pc-windows-gnullvm`). Every test runs except the end-to-end
# tests (the Claude Code client here is a Linux build), the kill tests (strace) and those
# tests/windows/skip.txt names under the reason each is left out (a line ending in `::` names
# every test of a module). A name there that is no test fails the run, so the list cannot go
# stale. BATON_WINE_FULL=1 also runs the tests left out only to keep CI short (reasons marked
# `(time)`). Extra arguments after the binary go to the test harness
# (`tests/windows/test.sh baton.exe --test-threads 1`).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
exe="$(realpath "${1:-target/x86_64-pc-windows-gnullvm/debug/baton.exe}")"
shift $(($# > 0 ? 1 : 0))
export WINEPREFIX="${BATON_WINE_PREFIX:-$root/target/wine/prefix}" WINEDEBUG=-all
tests/windows/prepare.sh

# The test names (the build's errors, if it fails, shown as they are).
listed_err="$(mktemp)"
if ! list="$(cargo test --locked --test integration -- --list 2>"$listed_err")"; then
    cat "$listed_err" >&2
    exit 1
fi
rm -f "$listed_err"
all="$(sed -n 's/: test$//p' <<<"$list")"
skips=()
declare -A per_reason=()
reason=""
skipping=1
while IFS= read -r line; do
    case "$line" in
        "## "*)
            reason="${line#\#\# }"
            reason="${reason%%:*}"
            # A reason that only saves time is dropped for a full run.
            skipping=1
            if [ -n "${BATON_WINE_FULL:-}" ] && [[ "$reason" == *" (time)" ]]; then skipping=0; fi
            ;;
        "#"* | "") ;;
        *) [ "$skipping" = 1 ] || continue ;;&
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
stop_server=0
if wineserver -p </dev/null >/dev/null 2>&1; then stop_server=1; fi
wine wineboot </dev/null >/dev/null 2>&1

skip_args=()
for name in "${skips[@]}"; do skip_args+=(--skip "$name"); done
log="$(mktemp)"
trap 'rm -f "$log"; [ "$stop_server" = 0 ] || wineserver -k 2>/dev/null || true' EXIT
if BATON_TEST_BIN="$exe" cargo test --locked --test integration -- --exact "${skip_args[@]}" "$@" 2>&1 | tee "$log"; then
    exit 0
fi
# A failed test runs once more, alone. Under parallel load Wine itself now and then kills the
# Windows process it runs or stalls starting it (seen 2 in 226 runs here: a run that printed
# its whole answer, then died of a signal; a start that hung past the test's 10 s), which no
# change to baton can cause or fix. A test that fails twice fails the step; one that passes
# the second time is named, so that a real flake in baton cannot hide here for long.
mapfile -t failed < <(sed -n 's/^test \(.*\) \.\.\. FAILED$/\1/p' "$log")
if [ ${#failed[@]} -eq 0 ] || [ ${#failed[@]} -gt 5 ]; then
    echo "Windows build under Wine: ${#failed[@]} tests failed (not retried: only up to 5 are)" >&2
    exit 1
fi
echo "Windows build under Wine: ${#failed[@]} failed; once more, one at a time: ${failed[*]}" >&2
BATON_TEST_BIN="$exe" cargo test --locked --test integration -- --exact --test-threads 1 "${failed[@]}"
echo "Windows build under Wine: passed the second time (a Wine flake, or baton's?): ${failed[*]}" >&2
