#!/usr/bin/env python3
"""Q9 (interactive): the mod's ui.render hooks (AgentRow, AbovePrompt, StatusLine) on the real
client in tmux, with probe/mod/probe-mod loaded by --plugin-dir and a statusLine command wired.
The main agent starts a background subagent whose requests are held ~6 s each, so its row stays
on screen; the screen is captured every second.

Run: python3 probe/q9_ui.py [2.1.332]
Out: probe/out/<version>/q9-ui/ (result.json with the screens that show a probe mark, mod.jsonl)
"""
import json
import os
import sys
import time

from harness import HOOK, Mock, Sandbox, Tmux, bash, text, tool
from q9_mod import MOD, mod_log, save_log

VERSION = sys.argv[1] if len(sys.argv) > 1 else "2.1.332"
MAIN = "PROBE-UI delegate to a subagent"
SUB = "PROBE-UI-SUB slow sub work"


def script(req):
    if not req.is_turn():
        return None
    n = req.assistant_turns()
    if SUB in req.prompt():
        time.sleep(6)
        if n < 3:
            return bash(100000 + 20000 * n, "echo sub-%d" % n, cache_read=1000)
        return text(170000, "Sub done.", cache_read=1000)
    if MAIN not in "\n".join(req.all_texts()):
        return None
    if n == 0:
        agent = {"description": "slow sub work", "prompt": SUB, "subagent_type": "general-purpose"}
        return tool(30000, "Agent", agent, cache_read=5000)
    return text(40000 + 1000 * n, "main done %d" % n)


def main():
    sb = Sandbox("q9-ui", VERSION)
    sb.trust()
    sb.settings({"statusLine": {"type": "command", "command": HOOK + " statusline", "padding": 0}})
    log = os.path.join(sb.root, "mod.jsonl")
    mock = Mock(script)
    tm = Tmux(sb, mock, args=("--plugin-dir", MOD), env={"PROBE_MOD_LOG": log})
    screens = []
    try:
        tm.submit(MAIN)
        t0 = time.time()
        while time.time() - t0 < 40:
            s = tm.screen()
            if not screens or screens[-1]["screen"] != s:
                # With -e the capture keeps the escape sequences: the colours drawn.
                styled = tm.run("capture-pane", "-p", "-e", "-t", "p")
                screens.append({"t": round(time.time() - t0, 1), "screen": s, "styled": styled})
            time.sleep(1)
    finally:
        tm.kill()
    entries = mod_log(log)
    marks = ("PROBE-ROW", "PROBE-BAND", "PROBE-SL")
    res = {"screens_with": {m: [x["t"] for x in screens if m in x["screen"]] for m in marks},
           "kinds": sorted({e["kind"] for e in entries}),
           "screens": [x for x in screens if any(m in x["screen"] for m in marks)][:12]}
    sb.save(mock, res)
    save_log(sb, entries)
    for x in res["screens"][:6]:
        print("---- t=%s" % x["t"]); print(x["screen"])
    print(json.dumps(res["screens_with"]), res["kinds"])


if __name__ == "__main__":
    main()
