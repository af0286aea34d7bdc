#!/bin/sh
# PostToolUse probe for q8_lag.py: at once (a few ms after the client starts it), does the
# transcript mention this call's tool_use_id, how long is it, what does the bridge file say?
# Then hands over to lag_hook.py for the details.
t0=$(date +%s%N)
payload=$(cat)
id=$(printf '%s' "$payload" | sed -n 's/.*"tool_use_id":"\([^"]*\)".*/\1/p')
tp=$(printf '%s' "$payload" | sed -n 's/.*"transcript_path":"\([^"]*\)".*/\1/p')
sid=$(printf '%s' "$payload" | sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p')
size=$(stat -c %s "$tp" 2>/dev/null || echo 0)
if grep -q "$id" "$tp" 2>/dev/null; then seen=1; else seen=0; fi
bridge=$(cat "${TMPDIR:-/tmp}/claude-ctx-$sid.json" 2>/dev/null)
t1=$(date +%s%N)
printf '%s' "$payload" | LAG_BRIDGE="$bridge" python3 "$(dirname "$0")/lag_hook.py" "$t0" "$t1" "$seen" "$size"
