#!/usr/bin/env bash
# Prepares the Wine prefix that runs baton's Windows build in the tests (tests/windows/run.sh):
#   - builds bcryptprimitives.dll from bcryptprimitives.c with zig (the C compiler of the
#     cross builds, scripts/zig-cc) and installs it in the prefix's system32: Wine 8.0 has no
#     ProcessPrng, without which a Rust binary does not start;
#   - points the prefix's TEMP and TMP at %BATON_WINE_TEMP%, so that each run gets the temp
#     dir its test chose (Wine takes TEMP and TMP from the registry, not from the caller).
# The prefix is $BATON_WINE_PREFIX, else target/wine/prefix; it is made once and reused
# (delete it to start again). Needs wine (apt: wine64) and zig (pip: ziglang).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
prefix="${BATON_WINE_PREFIX:-$root/target/wine/prefix}"
stub="$root/target/wine/bcryptprimitives.dll"
export WINEPREFIX="$prefix" WINEDEBUG=-all
# No Mono or Gecko: nothing here needs .NET or a browser, and their installers would ask.
export WINEDLLOVERRIDES="mscoree,mshtml="
ready="$prefix/.baton-ready"
if [ -f "$ready" ] && [ "$ready" -nt "$root/tests/windows/bcryptprimitives.c" ]; then
    exit 0
fi

mkdir -p "$(dirname "$stub")" "$(dirname "$prefix")"
if command -v zig >/dev/null 2>&1; then zig=(zig); else zig=(python3 -m ziglang); fi
"${zig[@]}" cc -target x86_64-windows-gnu -shared -O2 -s -o "$stub" \
    "$root/tests/windows/bcryptprimitives.c" -ladvapi32

wineboot --init >/dev/null 2>&1
cp "$stub" "$prefix/drive_c/windows/system32/bcryptprimitives.dll"
session='HKLM\System\CurrentControlSet\Control\Session Manager\Environment'
for key in 'HKCU\Environment' "$session"; do
    for name in TEMP TMP; do
        wine reg add "$key" /v "$name" /t REG_EXPAND_SZ /d '%BATON_WINE_TEMP%' /f >/dev/null 2>&1
    done
done
wineserver --wait
touch "$ready"
