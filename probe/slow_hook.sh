#!/bin/sh
# Hook for q11_slow_hook.py: sleeps $1 ms, then answers additionalContext PROBE-SLOW-<tool_use_id>
# for event $2 (PostToolUse unless given); notes how long it ran in $PROBE_CAPTURE/slow.jsonl.
t0=$(date +%s%N)
event=${2:-PostToolUse}
payload=$(cat)
id=$(printf '%s' "$payload" | sed -n 's/.*"tool_use_id":"\([^"]*\)".*/\1/p')
sleep "$(awk "BEGIN { print $1 / 1000 }")"
printf '{"hookSpecificOutput":{"hookEventName":"%s","additionalContext":"PROBE-SLOW-%s"}}\n' "$event" "${id:-start}"
t1=$(date +%s%N)
printf '{"tool_use_id":"%s","ms":%s}\n' "${id:-start}" "$(( (t1 - t0) / 1000000 ))" >> "$PROBE_CAPTURE/slow.jsonl"
