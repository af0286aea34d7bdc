#!/usr/bin/env bash
# Runs the end-to-end suite (tests/e2e/, the real Claude Code client against the mock) N times
# on each client while stress-ng loads the CPU and the disk, and prints the pass rate of every
# scenario per client. Busy machines are where timing bugs show: a user's build or test suite
# runs while the agent works.
#
#   scripts/stress-e2e.sh [N]                 N rounds (default 5) on 2.1.332 and 2.1.197
#   scripts/stress-e2e.sh 20 --with-integration
#                                             the integration suite (everything but e2e) runs at
#                                             the same time as each e2e run, on top of the load
#   scripts/stress-e2e.sh 3 --clients 2.1.332 --filter e2e::monitor
#   scripts/stress-e2e.sh 3 --no-load         the same rounds on an unloaded machine
#   scripts/stress-e2e.sh 5 --baton /tmp/old/baton
#                                             the same tests against another baton build (an
#                                             older one, to see what a fix changed)
#   STRESS="--cpu 4 --hdd 2" scripts/stress-e2e.sh 5
#                                             another load (default: --cpu 2 --io 2 --hdd 1)
#
# The tests run in parallel, as in CI. Each failing run's output is kept under
# target/stress-e2e/<client>-<round>.log (`--out DIR`, relative to the repository, for another
# directory, so that two runs can go at once). Exits 1 when any scenario failed in any round.
# Needs stress-ng (apt) unless --no-load; the clients install themselves (npm) on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target_dir="${CARGO_TARGET_DIR:-$root/target}"

rounds=5
clients=(2.1.332 2.1.197)
filter=e2e
with_integration=0
load=1
baton=""
out="$target_dir/stress-e2e"
while [ $# -gt 0 ]; do
    case "$1" in
        --with-integration) with_integration=1 ;;
        --no-load) load=0 ;;
        --clients) IFS=, read -r -a clients <<<"$2"; shift ;;
        --filter) filter=$2; shift ;;
        --baton) baton=$2; shift ;;
        --out) out=$2; shift ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        [0-9]*) rounds=$1 ;;
        *) echo "stress-e2e.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
stress_args=${STRESS:---cpu 2 --io 2 --hdd 1}
if [ "$load" = 1 ] && ! command -v stress-ng >/dev/null 2>&1; then
    echo "stress-e2e.sh: stress-ng is not installed (apt-get install stress-ng), or pass --no-load" >&2
    exit 2
fi

mkdir -p "$out"
out=$(cd "$out" && pwd) # the tests run baton from other directories
echo "building the test binary…" >&2
cargo build --quiet
tests_bin=$(cargo test --no-run --test integration --message-format=json 2>/dev/null |
    grep '"kind":\["test"\],"crate_types":\["bin"\],"name":"integration"' |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
# (grep -c reads the whole list: with -q the test binary could die of SIGPIPE, failing the pipe.)
if [ ! -x "$tests_bin" ] || ! "$tests_bin" --list "$filter" 2>/dev/null | grep -c ': test$' >/dev/null; then
    echo "stress-e2e.sh: no integration test binary with tests matching '$filter' (cargo test --no-run --test integration)" >&2
    exit 1
fi
# Copies of both binaries: a build during the rounds must not change what is tested.
mkdir -p "$out/bin"
cp "$tests_bin" "$out/bin/integration"
cp "${baton:-$target_dir/debug/baton}" "$out/bin/baton"
tests_bin="$out/bin/integration"
export BATON_TEST_BIN="$out/bin/baton"

# What this script started and is still running: stress-ng's process group, the test runs.
stress=""
running=()
cleanup() {
    [ -n "$stress" ] && kill -- "-$stress" 2>/dev/null
    for pid in "${running[@]}"; do kill "$pid" 2>/dev/null; done
    return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ "$load" = 1 ]; then
    # Its own process group, so every stressor ends with it; --hdd writes stay small.
    # shellcheck disable=SC2086
    setsid stress-ng $stress_args --hdd-bytes 256M --temp-path "$out" --timeout 24h >/dev/null 2>&1 &
    stress=$!
fi

# Installs each client before the clock starts (the first test to need it would): one short
# scenario on each, not counted.
for client in "${clients[@]}"; do
    BATON_E2E_CLAUDE_VERSION=$client "$tests_bin" --exact e2e::monitor::stand_in_hook_context_reaches_the_model \
        >/dev/null 2>&1 || true
done

results="$out/results.txt"
: >"$results"
rm -f "$out"/*.log
started=$SECONDS
for round in $(seq 1 "$rounds"); do
    for client in "${clients[@]}"; do
        log="$out/$client-$round.log"
        integration=""
        if [ "$with_integration" = 1 ]; then
            "$tests_bin" --skip e2e >"$out/integration-$client-$round.log" 2>&1 &
            integration=$!
        fi
        BATON_E2E_CLAUDE_VERSION=$client "$tests_bin" "$filter" >"$log" 2>&1 &
        running=($! $integration)
        wait "${running[0]}" || true
        if [ -n "$integration" ]; then
            ilog="$out/integration-$client-$round.log"
            if wait "$integration"; then
                echo "$client alongside:(the-integration-suite) ok" >>"$results"
                rm -f "$ilog"
            else
                echo "$client alongside:(the-integration-suite) FAILED" >>"$results"
                echo "round $round on $client: the integration suite failed (log: $ilog)" >&2
            fi
            # Its tests are listed only where one failed in some round.
            sed -n "s/^test \([^ ]*\) \.\.\. \(ok\|FAILED\)$/$client alongside:\1 \2/p" "$ilog" 2>/dev/null >>"$results" || true
        fi
        running=()
        sed -n "s/^test \(e2e::[^ ]*\) \.\.\. \(ok\|FAILED\)$/$client \1 \2/p" "$log" >>"$results"
        if ! grep -q "^test result: ok" "$log"; then
            # A run that ended before its summary (a crash, a failed install) fails as a whole.
            grep -q "^test result:" "$log" || echo "$client (the-whole-run) FAILED" >>"$results"
            echo "round $round on $client: failures (log: $log)" >&2
        else
            rm -f "$log"
        fi
        printf 'round %d/%d on %s done (%ds, load average %s)\n' "$round" "$rounds" "$client" \
            $((SECONDS - started)) "$(cut -d' ' -f1 /proc/loadavg)" >&2
    done
done

echo
echo "stress-e2e: $rounds rounds, load: $([ "$load" = 1 ] && echo "stress-ng $stress_args" || echo none)$(
    [ "$with_integration" = 1 ] && echo ", integration suite alongside"), $((SECONDS - started)) s"
printf '%-8s %-86s %s\n' client scenario passed
sort "$results" | awk '
    { key = $1 " " $2; if (key != last) { if (last != "") print last, ok, n; last = key; ok = 0; n = 0 }
      n++; if ($3 == "ok") ok++ }
    END { if (last != "") print last, ok, n }' | while read -r client scenario ok n; do
    case "$scenario" in alongside:*\(*) ;; alongside:*) [ "$ok" = "$n" ] && continue ;; esac
    printf '%-8s %-86s %d/%d\n' "$client" "$scenario" "$ok" "$n"
done
! grep -qv ' ok$' "$results"
