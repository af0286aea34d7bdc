#!/usr/bin/env python3
"""Q8: when does the reply that made a tool call reach the transcript, relative to its
PostToolUse hook, and how far behind is the statusline's bridge file then?

The mock answers turn k at 100,000 + 10,000 k tokens with a Bash call (8 calls, then "done").
PostToolUse runs lag_hook.sh (checks the transcript for the call's tool_use_id within a few ms
of starting, notes the bridge file, then waits for the id) and, beside it, lag_baton.sh (`baton
hook`, timed, and what it told the model); the statusline runs lag_statusline.sh (notes each
render, then `baton statusline`, writing the bridge file).

Run: python3 probe/q8_lag.py 2.1.332 interactive|headless [ENV=VALUE ..]   (BATON_BIN = a built baton)
"""
import json
import os
import sys
import time

from harness import HERE, REPO, Mock, Sandbox, Tmux, bash, headless, text

VERSION, MODE = sys.argv[1], sys.argv[2]
ENV = dict(a.split("=", 1) for a in sys.argv[3:] if "=" in a)
PROMPT = "PROBE-LAG run the growing steps"
CALLS = 8


ARRIVALS = []


def script(req):
    if not req.is_turn() or PROMPT not in req.prompt():
        return None
    k = req.assistant_turns()
    ARRIVALS.append({"event": "request", "t0_ns": time.time_ns(), "turns": k, "tokens": 100_000 + 10_000 * k})
    tokens = 100_000 + 10_000 * k
    return bash(tokens, "echo step%d" % k) if k < CALLS else text(tokens, "done")


def main():
    sb = Sandbox("lag-" + MODE + "".join("-" + k for k in ENV), VERSION)
    baton = os.environ.get("BATON_BIN") or os.path.join(REPO, "target/debug/baton")
    hook = [{"matcher": "", "hooks": [{"type": "command", "command": os.path.join(HERE, name), "timeout": 30}
                                      for name in ("lag_hook.sh", "lag_baton.sh")]}]
    settings = {"permissions": {"allow": ["Bash"]}, "hooks": {"PostToolUse": hook}}
    if MODE == "interactive":
        settings["statusLine"] = {"type": "command", "command": os.path.join(HERE, "lag_statusline.sh"),
                                  "padding": 0}
    sb.settings(settings)
    mock = Mock(script, os.path.join(sb.out, "requests-full.jsonl"))
    env = {"BATON_BIN": baton, **ENV}
    if MODE == "headless":
        result = headless(sb, mock, PROMPT, tools="Bash", env=env)
    else:
        sb.trust()
        tmux = Tmux(sb, mock, env=env)
        try:
            tmux.submit(PROMPT)
            t0 = time.time()
            while time.time() - t0 < 120 and not any(r.assistant_turns() >= CALLS for r in mock.turns_of(PROMPT)):
                time.sleep(0.3)
            time.sleep(3)
            result = {"screen": tmux.screen()[-1500:]}
        finally:
            tmux.kill()
    records = []
    path = os.path.join(sb.capture, "lag.jsonl")
    for line in open(path) if os.path.exists(path) else []:
        records.append(json.loads(line))
    records += ARRIVALS
    records.sort(key=lambda r: r["t0_ns"])
    start = records[0]["t0_ns"] if records else 0
    for r in records:
        r["at_ms"] = round((r.pop("t0_ns") - start) / 1e6)
        print(json.dumps(r))
    sb.save(mock, {"result": result, "timeline": records})


main()
