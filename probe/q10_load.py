#!/usr/bin/env python3
"""Q10: under CPU and disk load, when does the reply that made a tool call reach the transcript,
relative to its PostToolUse hook? (q8_lag.py on a quiet machine, repeated, with stress-ng.)

The mock answers turn k at START + STEP k tokens (10,000 unless --step) with a quick Bash call (CALLS calls).
PostToolUse runs lag_hook.sh (is the call's tool_use_id in the transcript a few ms after the
hook starts? if not, when does it arrive, and what is the longest stretch without the file
growing before it does?) and, beside it, lag_baton.sh (`baton hook`, timed, what it said).
RUNS sessions, headless (`claude -p`) or interactive (tmux, baton's statusline).

Run: python3 probe/q10_load.py VERSION headless|interactive [--load none|cpu|io|disk|suite] [--runs N]
     [--start TOKENS] [--step TOKENS] [--calls N] [--slow-writes MS]
     (BATON_BIN = a built baton; default target/debug/baton)
Prints one JSON line per hook run and a summary of counts.
"""
import argparse
import json
import os
import re
import time
import uuid

from harness import HERE, REPO, Load, Mock, Sandbox, Tmux, bash, headless, loadavg, project_slug, text

parser = argparse.ArgumentParser()
parser.add_argument("version")
parser.add_argument("mode", choices=["headless", "interactive"])
parser.add_argument("--load", default="none")
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--calls", type=int, default=8)
parser.add_argument("--start", type=int, default=100_000)
parser.add_argument("--step", type=int, default=10_000, help="tokens each request adds")
parser.add_argument("--slow-writes", type=int, default=0, metavar="MS",
                    help="headless: every write to the session's transcript takes MS longer (strace's "
                         "delay injection on that path only), the way a stalled disk holds up an append")
ARGS = parser.parse_args()
PROMPT = "PROBE-LOAD run the growing steps"


def script(req):
    if not req.is_turn() or PROMPT not in req.prompt():
        return None
    k = req.assistant_turns()
    tokens = ARGS.start + ARGS.step * k
    return bash(tokens, "echo step%d" % k) if k < ARGS.calls else text(tokens, "done")


def one_session(run, baton):
    sb = Sandbox("load-%s-%s-%d-%d" % (ARGS.mode, ARGS.load, ARGS.slow_writes, run), ARGS.version)
    hook = [{"matcher": "", "hooks": [{"type": "command", "command": os.path.join(HERE, name), "timeout": 30}
                                      for name in ("lag_hook.sh", "lag_baton.sh")]}]
    settings = {"permissions": {"allow": ["Bash"]}, "hooks": {"PostToolUse": hook}}
    if ARGS.mode == "interactive":
        settings["statusLine"] = {"type": "command", "command": os.path.join(HERE, "lag_statusline.sh"),
                                  "padding": 0}
    sb.settings(settings)
    mock = Mock(script, os.path.join(sb.out, "requests-full.jsonl"))
    env = {"BATON_BIN": baton}
    if ARGS.mode == "headless":
        args, prefix = (), ()
        if ARGS.slow_writes:
            session = str(uuid.uuid4())
            transcript = os.path.join(sb.home, ".claude/projects", project_slug(sb.project), session + ".jsonl")
            args = ("--session-id", session)
            prefix = ("strace", "-f", "-qq", "--seccomp-bpf", "-o", "/dev/null", "-P", transcript, "-e", "trace=write",
                      "-e", "inject=write:delay_enter=%d" % (ARGS.slow_writes * 1000))
        result = headless(sb, mock, PROMPT, tools="Bash", env=env, args=args, prefix=prefix)
    else:
        sb.trust()
        tmux = Tmux(sb, mock, env=env)
        try:
            tmux.submit(PROMPT)
            t0 = time.time()
            while time.time() - t0 < 180 and not any(r.assistant_turns() >= ARGS.calls for r in mock.turns_of(PROMPT)):
                time.sleep(0.3)
            time.sleep(3)
            result = {"screen": tmux.screen()[-1500:]}
        finally:
            tmux.kill()
    path = os.path.join(sb.capture, "lag.jsonl")
    records = [json.loads(line) for line in open(path)] if os.path.exists(path) else []
    hooks = sorted((r for r in records if r["event"] == "PostToolUse"), key=lambda r: r["t0_ns"])
    batons = sorted((r for r in records if r["event"] == "baton-hook"), key=lambda r: r["t0_ns"])
    for call, (h, b) in enumerate(zip(hooks, batons), start=1):
        h["call"], h["run"], h["baton_ms"], h["baton_said"] = call, run, b["ms"], b["said"]
    waits = []
    log = os.path.join(sb.capture, "baton.log")
    for line in open(log) if os.path.exists(log) else []:
        m = re.search(r"waited (\d+) ms for the reply that made (\S+): (written|not written)", line)
        if m:
            waits.append({"run": run, "ms": int(m.group(1)), "tool_use_id": m.group(2), "written": m.group(3) == "written"})
    sb.save(mock, {"result": result, "records": records, "baton_waits": waits, "load": ARGS.load})
    return hooks, waits


def main():
    baton = os.environ.get("BATON_BIN") or os.path.join(REPO, "target/debug/baton")
    rows, waits = [], []
    with Load(ARGS.load):
        for run in range(ARGS.runs):
            hooks, waited = one_session(run, baton)
            for h in hooks:
                h.pop("t0_ns", None)
                print(json.dumps(h))
                rows.append(h)
            waits += waited
        load = loadavg()
    late = [r for r in rows if not r["in_transcript_at_start"]]
    arrived = [r["arrived_ms"] for r in late if r["arrived_ms"] is not None]
    idle = [r["longest_idle_ms"] for r in late if r["longest_idle_ms"] is not None]
    summary = {
        "client": ARGS.version, "mode": ARGS.mode, "load": ARGS.load, "slow_writes_ms": ARGS.slow_writes, "loadavg_at_end": load,
        "runs": ARGS.runs, "hook_runs": len(rows),
        "line_missing_at_hook_start": len(late),
        "arrived_within_250ms": sum(a <= 250 for a in arrived),
        "arrived_within_1s": sum(a <= 1000 for a in arrived),
        "arrived_later": sorted(a for a in arrived if a > 1000),
        "never_in_10s": len(late) - len(arrived),
        "max_arrival_ms": max(arrived, default=None),
        "idle_over_250ms_before_arrival": sum(i > 250 for i in idle),
        "max_idle_ms": max(idle, default=None),
        "max_baton_ms": max((r.get("baton_ms") or 0 for r in rows), default=None),
        "baton_waited": len(waits),
        "baton_wait_found_line": sum(w["written"] for w in waits),
        "baton_wait_gave_up_ms": sorted(w["ms"] for w in waits if not w["written"]),
        "baton_wait_found_after_ms": sorted(w["ms"] for w in waits if w["written"]),
        "baton_first_warning_at_call": [next((r["call"] for r in rows if r["run"] == run and r.get("baton_said")), None)
                                        for run in range(ARGS.runs)],
        "baton_warned_at_calls": [[r["call"] for r in rows if r["run"] == run and r.get("baton_said")]
                                  for run in range(ARGS.runs)],
    }
    print("SUMMARY " + json.dumps(summary))


main()
