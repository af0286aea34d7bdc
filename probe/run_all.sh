#!/bin/sh
# Re-runs every probe behind FINDINGS.md (about 15 minutes on 2 cores; one client at a time).
# Needs: target/claude-code-2.1.332 (npm install --prefix target/claude-code-2.1.332
# @anthropic-ai/claude-code@2.1.332, installed by cargo test), target/claude-code-2.1.197
# (BATON_E2E_CLAUDE_VERSION=2.1.197 cargo test --test integration -- e2e installs it), tmux, python3.
# Output: probe/out/<version>/<case>/ (result.json, captures/, requests.jsonl, transcripts.json),
# footer table in probe/out/footer.txt. Sandboxes (full transcripts) stay in /tmp/baton-probe/.
set -e
cd "$(dirname "$0")"
W=CLAUDE_CODE_AUTO_COMPACT_WINDOW
P=CLAUDE_AUTOCOMPACT_PCT_OVERRIDE
# Q1 subagents
python3 q1_subagent.py 2.1.332 > /dev/null
python3 q1_subagent.py 2.1.332 fg > /dev/null
python3 q1_subagent.py 2.1.197 > /dev/null
# Q2 additionalContext cap
for ev in SessionStart PostToolUse SubagentStart; do python3 q2_cap.py 2.1.332 $ev; done > out/cap-2.1.332.txt
for ev in SessionStart PostToolUse; do python3 q2_cap.py 2.1.197 $ev; done > out/cap-2.1.197.txt
# Q3/Q4/Q6 compaction, headless
{
for c in "auto 190000" "auto 199000" "auto 190000 PTL=1" "auto 166950 $W=200000" "auto 167000 $W=200000" \
         "auto 190000 $W=200000" "auto 100000 $P=50" "auto 89950 $P=50 $W=200000" "auto 90000 $P=50 $W=200000" \
         "auto 66950 $W=100000" "auto 67000 $W=100000" "auto 190000 MODEL=claude-sonnet-4-6" \
         "auto 190000 MODEL=claude-opus-4-5" "auto 190000 MODEL=claude-haiku-4-5" \
         "auto 170000 $W=200000 PC=plain" "auto 170000 $W=200000 PC=sysmsg" "manual"; do
  echo "== 2.1.332 $c"; python3 q3_compact.py 2.1.332 $c
done
for c in "auto 190000" "auto 190000 PTL=1" "auto 166950 $W=200000" "auto 167000 $W=200000" "manual"; do
  echo "== 2.1.197 $c"; python3 q3_compact.py 2.1.197 $c
done
} > out/compact-headless.txt 2>&1
python3 q6_matcher.py 2.1.332 > out/matcher.txt
python3 q6_matcher.py 2.1.332 bare >> out/matcher.txt
python3 q6_matcher.py 2.1.197 >> out/matcher.txt
# Q4 footer (interactive)
sh q4_footer_batch.sh 2.1.332 > out/footer.txt <<CASES
140000
147000
148000
150000
175000
185000
60000 $P=50
75000 $P=50
100000 $P=50
150000 $W=200000
60000 $W=100000
60000 $W=50000
60000 $W=100k
80000 $P=50 $W=200000
150000 MODEL=claude-sonnet-4-6
150000 MODEL=claude-sonnet-4-5[1m]
900000 MODEL=claude-sonnet-4-5[1m]
960000 MODEL=claude-sonnet-4-5[1m]
150000 MODEL=claude-opus-4-8
960000 MODEL=claude-opus-4-8
CASES
sh q4_footer_batch.sh 2.1.197 >> out/footer.txt <<CASES
150000
100000 $P=50
150000 $W=200000
150000 MODEL=claude-sonnet-4-6
960000 MODEL=claude-sonnet-4-5[1m]
CASES
# Q3/Q5 interactive: statusline payloads, /compact, auto-compaction
{
for c in "compact 150000" "compact 150000 PC=plain" "compact 150000 PC=sysmsg" "auto 170000 MODEL=claude-sonnet-4-6" \
         "auto 190000" "cache 150000"; do
  echo "== 2.1.332 $c"; python3 q5_interactive.py 2.1.332 $c
done
for c in "compact 150000" "compact2 150000"; do
  echo "== 2.1.197 $c"; python3 q5_interactive.py 2.1.197 $c
done
} > out/interactive.txt 2>&1
# Q9 a plugin install from the marketplace (needs target/debug/baton)
python3 q9_plugin.py 2.1.332 > /dev/null
# Q12 slash command arguments and allowed-tools, HOME with a space
python3 q12_slash_args.py 2.1.332 > /dev/null
python3 q12_slash_args.py 2.1.197 > /dev/null
echo done
