#!/bin/sh
# Q4: Claude Code's own footer vs usage, window and overrides (interactive client under tmux).
# Reads cases "USAGE [MODEL=..] [ENV=VAL ..]" from stdin; prints one line per case.
# Run: printf '150000\n100000 CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50\n' | sh probe/q4_footer_batch.sh 2.1.332
V=${1:-2.1.332}
cd "$(dirname "$0")"
while read -r usage rest; do
  [ -z "$usage" ] && continue
  out=$(python3 q5_interactive.py "$V" footer $usage $rest)
  printf '%-8s %-8s %-72s %-28s | %s\n' "$V" "$usage" "$rest" "$(echo "$out" | grep '^footer_after_reply' | cut -d: -f2-)" \
    "$(echo "$out" | grep '^sl after cw' | python3 -c 'import sys,json; l=sys.stdin.read().split(":",1)[1]; d=json.loads(l) if l.strip()!="null" else {}; print("statusline: context_window_size=%s used_percentage=%s" % (d.get("context_window_size"), d.get("used_percentage")))')"
done
