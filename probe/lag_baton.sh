#!/bin/sh
# PostToolUse for q8_lag.py and q10_load.py: `baton hook`, timed; notes how long it took and what
# it said (and, in $PROBE_CAPTURE/baton.log, how long it waited for the reply line).
t0=$(date +%s%N)
out=$(BATON_LOG="$PROBE_CAPTURE/baton.log" "$BATON_BIN" hook)
t1=$(date +%s%N)
said=$(printf '%s' "$out" | sed -n 's/.*"additionalContext":"\(CONTEXT [A-Z]*: Usage at [0-9]*%\).*/\1/p')
printf '{"event":"baton-hook","t0_ns":%s,"ms":%s,"said":"%s"}\n' "$t0" "$(( (t1 - t0) / 1000000 ))" "$said" >> "$PROBE_CAPTURE/lag.jsonl"
printf '%s' "$out"
