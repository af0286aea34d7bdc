#!/bin/sh
# The plugin's classic hook beside the module: logs that it ran (and when), answers nothing.
log="${PROBE_MOD_LOG:-/dev/null}"
payload="$(cat)"
now="$(date +%s%3N)"
printf '{"kind":"classic","event":"%s","t":%s,"payload":%s}\n' "$1" "$now" "$payload" >> "$log"
