#!/usr/bin/env bash
# Runs baton's Windows build under Wine the way the tests run the Linux one:
#   tests/windows/run.sh path/to/baton.exe ARGS...
# The integration tests call it themselves when $BATON_TEST_BIN is a Windows binary
# (tests/common/binary.rs); tests/windows/prepare.sh must have made the prefix first.
# What the sandbox sets for a Unix build is handed on in the form the Windows build reads:
#   - TMPDIR becomes TEMP and TMP (through %BATON_WINE_TEMP%, see prepare.sh), and is unset;
#   - HOME becomes CLAUDE_CONFIG_DIR=<HOME>/.claude and XDG_CONFIG_HOME (or ~/.config)
#     becomes BATON_CONFIG=<it>/baton/config.json, unless the test set those itself: the
#     Windows build finds its home in the Wine profile, which no test controls;
#   - PATH's directories go on the Windows PATH (WINEPATH);
#   - an absolute Unix path, in an argument or in one of the path variables, becomes the
#     Windows path Wine maps it to (`/tmp/x` is `Z:\tmp\x`). An argument counts as a path
#     when its first directory exists (so `/gsd:progress` stays what it is).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
exe="$1"
shift
export WINEPREFIX="${BATON_WINE_PREFIX:-$root/target/wine/prefix}" WINEDEBUG=-all
if [ ! -f "$WINEPREFIX/.baton-ready" ]; then
    echo "tests/windows/run.sh: no Wine prefix at $WINEPREFIX: run tests/windows/prepare.sh" >&2
    exit 127
fi

# Z: is the Unix root in every Wine prefix.
windows_path() {
    local p="Z:$1"
    printf '%s' "${p//\//\\}"
}
is_unix_path() {
    local first="${1#/}"
    first="${first%%/*}"
    [[ "$1" == /* && -n "$first" && -d "/$first" ]]
}

export BATON_WINE_TEMP
BATON_WINE_TEMP="$(windows_path "${TMPDIR:-/tmp}")"
if [ -z "${CLAUDE_CONFIG_DIR:-}" ] && [ -n "${HOME:-}" ]; then
    export CLAUDE_CONFIG_DIR="$HOME/.claude"
fi
if [ -z "${BATON_CONFIG:-}" ] && [ -n "${HOME:-}" ]; then
    export BATON_CONFIG="${XDG_CONFIG_HOME:-$HOME/.config}/baton/config.json"
fi
for name in CLAUDE_CONFIG_DIR BATON_CONFIG BATON_LOG BATON_PREFIX CLAUDE_PROJECT_DIR CLAUDE_CODE_PLUGIN_CACHE_DIR; do
    value="${!name:-}"
    if [[ "$value" == /* ]]; then
        export "$name=$(windows_path "$value")"
    fi
done
winepath_dirs=()
IFS=: read -r -a path_dirs <<<"${PATH:-}"
for dir in ${path_dirs[@]+"${path_dirs[@]}"}; do
    [[ "$dir" == /* ]] && winepath_dirs+=("$(windows_path "$dir")")
done
export WINEPATH
WINEPATH="$(IFS=';'; printf '%s' "${winepath_dirs[*]-}")"

args=()
for arg in "$@"; do
    if is_unix_path "$arg"; then
        args+=("$(windows_path "$arg")")
    else
        args+=("$arg")
    fi
done
# Wine keeps its server's socket under $TMPDIR: with each test's own TMPDIR every run would
# start (and boot) a server of its own. The Windows build reads TEMP, not TMPDIR.
unset TMPDIR
# A server that a run starts itself boots the prefix, and what the boot leaves running
# (services.exe, explorer.exe) would hold the test's pipes open long after baton exits:
# without one, start one and boot it apart from them (test.sh starts it once for a run).
if wineserver -p60 </dev/null >/dev/null 2>&1; then
    wine wineboot </dev/null >/dev/null 2>&1 || true
fi
exec wine "$exe" ${args[@]+"${args[@]}"}
