#!/usr/bin/env python3
"""Q11: does the client drop a PostToolUse hook's additionalContext when the hook is slow?

Headless (`claude -p`): the mock answers CALLS turns with a quick Bash call each; PostToolUse
runs slow_hook.sh, which sleeps SLEEP ms and answers additionalContext "PROBE-SLOW-<tool_use_id>".
For every call: did the next request carry that text, and where (the last user message, or
elsewhere); did the client log the hook_additional_context attachment in the transcript; how
long did the hook run. RUNS sessions per sleep value, optionally under stress-ng load.

Run: python3 probe/q11_slow_hook.py VERSION [--load none|cpu|io|disk|suite] [--runs N] [--sleeps 0,50,100,200,500,1000]
Prints one JSON line per call and a table: sleep ms, calls, delivered, missing, logged.
"""
import argparse
import json
import os

from harness import HERE, Load, Mock, Sandbox, bash, headless, loadavg, text

parser = argparse.ArgumentParser()
parser.add_argument("version")
parser.add_argument("--load", default="none")
parser.add_argument("--runs", type=int, default=2)
parser.add_argument("--calls", type=int, default=6)
parser.add_argument("--sleeps", default="0,50,100,200,500,1000")
parser.add_argument("--session-start", action="store_true",
                    help="also wire a SessionStart hook that answers context (as the e2e tests do)")
ARGS = parser.parse_args()
PROMPT = "PROBE-SLOW run the steps"


def script(req):
    if not req.is_turn() or PROMPT not in req.prompt():
        return None
    k = req.assistant_turns()
    return bash(140_000, "echo step%d" % k) if k < ARGS.calls else text(140_000, "done")


def hook_lines(sb):
    """The client's hook_additional_context attachments for PostToolUse, by tool_use_id."""
    logged = {}
    for path in sb.transcripts():
        for line in open(path, encoding="utf-8"):
            d = json.loads(line)
            a = d.get("attachment") if isinstance(d.get("attachment"), dict) else {}
            if a.get("type") == "hook_additional_context" and a.get("hookEvent") == "PostToolUse":
                logged[a.get("toolUseID")] = a.get("content")
    return logged


def one_session(sleep_ms, run):
    sb = Sandbox("slow-%d-%s-%d" % (sleep_ms, ARGS.load, run), ARGS.version)
    command = "%s %d" % (os.path.join(HERE, "slow_hook.sh"), sleep_ms)
    hooks = {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 30}]}]}
    if ARGS.session_start:
        start = "%s 0 SessionStart" % os.path.join(HERE, "slow_hook.sh")
        hooks["SessionStart"] = [{"matcher": "", "hooks": [{"type": "command", "command": start, "timeout": 30}]}]
    sb.settings({"permissions": {"allow": ["Bash"]}, "hooks": hooks})
    mock = Mock(script, os.path.join(sb.out, "requests-full.jsonl"))
    result = headless(sb, mock, PROMPT, tools="Bash")
    turns = mock.turns_of(PROMPT)
    logged = hook_lines(sb)
    times = {}
    path = os.path.join(sb.capture, "slow.jsonl")
    for line in open(path) if os.path.exists(path) else []:
        r = json.loads(line)
        times[r["tool_use_id"]] = r["ms"]
    records = []
    for k in range(1, len(turns)):
        before, after = turns[k - 1], turns[k]
        # The call's id: the tool_use in the last assistant message of request k.
        ids = [b.get("id") for m in after.messages if m.get("role") == "assistant"
               for b in (m.get("content") or []) if isinstance(b, dict) and b.get("type") == "tool_use"]
        tid = ids[-1] if ids else None
        needle = "PROBE-SLOW-%s" % tid
        found = after.find(needle)
        last_user = len(after.messages) - 1
        records.append({"sleep_ms": sleep_ms, "run": run, "call": k, "tool_use_id": tid,
                        "hook_ms": times.get(tid), "delivered": bool(found),
                        "in_last_user_message": any(i == last_user for i, _, _ in found),
                        "logged": tid in logged})
    sb.save(mock, {"result": result, "calls": records, "load": ARGS.load})
    return records, result


def main():
    table = []
    with Load(ARGS.load):
        for sleep_ms in [int(s) for s in ARGS.sleeps.split(",")]:
            rows = []
            for run in range(ARGS.runs):
                records, result = one_session(sleep_ms, run)
                if result["rc"] != 0:
                    print(json.dumps({"sleep_ms": sleep_ms, "run": run, "rc": result["rc"], "stderr": result["stderr"][-300:]}))
                for r in records:
                    print(json.dumps(r))
                rows += records
            table.append((sleep_ms, len(rows), sum(r["delivered"] for r in rows),
                          sum(not r["delivered"] for r in rows), sum(r["logged"] for r in rows),
                          max((r["hook_ms"] or 0) for r in rows) if rows else 0, loadavg()))
    print("client %s, load %s, %d runs of %d calls per sleep" % (ARGS.version, ARGS.load, ARGS.runs, ARGS.calls))
    print("%8s %6s %10s %8s %7s %12s %8s" % ("sleep ms", "calls", "delivered", "missing", "logged", "max hook ms", "loadavg"))
    for row in table:
        print("%8d %6d %10d %8d %7d %12d %8s" % row)


main()
