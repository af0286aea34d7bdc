#!/bin/sh
# Statusline probe for q8_lag.py: notes when each render ran and the figure it was given,
# then renders with baton (which writes the bridge file the monitor reads).
t0=$(date +%s%N)
payload=$(cat)
tokens=$(printf '%s' "$payload" | python3 -c 'import json,sys; u=(json.load(sys.stdin).get("context_window") or {}).get("current_usage") or {}; print(sum(u.get(k,0) or 0 for k in ("input_tokens","cache_read_input_tokens","cache_creation_input_tokens")))')
printf '{"event":"statusline","t0_ns":%s,"tokens":%s}\n' "$t0" "${tokens:-null}" >> "$PROBE_CAPTURE/lag.jsonl"
printf '%s' "$payload" | "$BATON_BIN" statusline
