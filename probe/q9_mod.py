#!/usr/bin/env python3
"""Q9: a mod (probe/mod/probe-mod, loaded with --plugin-dir) beside the same plugin's classic hooks.
What $.session.usage(), turn.step, $.agent.list(), tool.call's `context`, agent.spawn and
$.process.run give on this client; whether the plugin's hooks.json runs both its `hooks` and its
`modules`; where the mod's context lands in the request. Headless, with a foreground subagent.

Run: python3 probe/q9_mod.py [2.1.332|2.1.197]
Out: probe/out/<version>/q9-mod/ (result.json, mod.jsonl = the mod's log, requests.jsonl)
"""
import json
import os
import sys

from harness import HERE, Mock, Sandbox, bash, headless, text, tool

VERSION = sys.argv[1] if len(sys.argv) > 1 else "2.1.332"
MAIN = "PROBE-MAIN delegate to a subagent"
SUB = "PROBE-SUB do the sub work"
MOD = os.path.join(HERE, "mod", "probe-mod")


def script(req):
    if not req.is_turn():
        return None
    n = req.assistant_turns()
    if SUB in req.prompt():
        if n == 0:
            return bash(140000, "echo sub-step-1", cache_read=1000)
        if n == 1:
            return bash(150000, "echo sub-step-2", cache_read=2000, cache_creation=500)
        return text(152000, "Sub done.", cache_read=1000)
    if n == 0:
        return bash(20000, "echo main-step-1", cache_read=5000, cache_creation=1000)
    if n == 1:
        agent = {"description": "sub work", "prompt": SUB, "subagent_type": "general-purpose",
                 "run_in_background": False}
        return tool(30000, "Agent", agent, cache_read=5000)
    return text(40000, "done")


def mod_log(path):
    """The probe mod's log: one JSON object a line."""
    return [json.loads(line) for line in open(path)] if os.path.exists(path) else []


def save_log(sb, entries):
    """The mod's log into the out dir, paths scrubbed."""
    with open(os.path.join(sb.out, "mod.jsonl"), "w") as f:
        for e in entries:
            f.write(sb.scrub(json.dumps(e)) + "\n")


def main():
    sb = Sandbox("q9-mod", VERSION)
    sb.settings({})
    log = os.path.join(sb.root, "mod.jsonl")
    mock = Mock(script)
    run = headless(sb, mock, MAIN, args=("--plugin-dir", MOD), env={"PROBE_MOD_LOG": log})
    entries = mod_log(log)
    res = {"run": run, "kinds": [e["kind"] + ("/" + e.get("event", "") if e["kind"] == "classic" else "") for e in entries]}
    for r in mock.turns():
        who = "sub" if SUB in r.prompt() else "main"
        res.setdefault("requests", []).append({
            "who": who, "assistant_turns": r.assistant_turns(),
            "mod_ctx": r.find("PROBE-MOD-CTX"), "spawn": r.find("PROBE-MOD-SPAWN"),
        })
    sb.save(mock, res)
    save_log(sb, entries)
    print(json.dumps(res, indent=1)[:6000])


if __name__ == "__main__":
    main()
