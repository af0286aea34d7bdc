#!/usr/bin/env python3
"""Side-by-side latency benchmark: baton vs GSD's Node hooks vs a no-op process.

Every command is run on the same payload files, interleaved: each iteration runs every
command once, in a freshly shuffled order, so machine noise hits all of them alike.
Timing is perf_counter_ns around posix_spawn + wait4 (stdin = payload file as fd 0,
stdout/stderr = /dev/null), so the harness cost is small and the same for every command.

Scenarios (each has its own session id; TMPDIR and HOME are fresh directories):
  statusline   statusline-after-reply.json (75% used), with the previous render's bridge file (60% used)
               rewritten before every run: no-op, baton statusline, gsd-statusline.js
  monitor      posttooluse-bash.json with a fresh GSD bridge file at 30% remaining, rewritten
               before every run, and the 1 MB transcript holding the reply that made the call:
               no-op, baton hook, gsd-context-monitor.js (warning path); and baton hook when
               that reply is not written yet (as quick tools on Claude Code 2.1.332 usually
               find it) with no threshold within one request's reach (thresholds at 10%/5%
               remaining in the project "proj-far"): the monitor must not wait for the line
  transcript   baton statusline with null usage and baton hook with no bridge file, reading
               the tail of a generated 1 MB and 1 GB transcript (last usage: 140k of 200k)
  big project  baton statusline (as in `statusline`, run in the project) in a GSD project of
               200 phases x 10 plans whose files are an hour old: bench/progress.py's shape
               (a quarter done, 150 phases open); informational, the same project with 190
               phases done (late), and with STATE.md written just before each render (new);
               big - late, per open phase directory, is what checking one costs
  all          every statusline segment on (cost, duration, usage limits, prompt cache and the
               compaction count besides the default ones) with a 2.1.332 payload carrying
               rate_limits and prompt_cache, and the forecast from the 1 MB transcript's last
               requests; and the monitor warning on every call (a debounce of 1), so each run
               also reads the forecast from the tail; and that warning on a transcript that
               grew by one tool round trip (7 KB, a request with a Bash result) since the call
               before, so each run also walks the new bytes into the saved attribution of what
               fills the context and names its largest items

Targets (per-round paired ratios, median): baton <= 1.5x the no-op, also with every segment
on, on every warning with its forecast, and before the reply is written; GSD >= 50x baton;
1 GB transcript <= 1.25x the 1 MB one; the big project's render <= 1.5x the no-op and
<= 1.2x the render in a plain directory. Plus sanity checks of what each command printed.

Python 3 standard library only. Usually started by bench/hooks.sh; see --help.
"""

import argparse
import gc
import json
import math
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time

from progress import make_project

# ---------------------------------------------------------------------------
# Payloads, copied from the Claude Code 2.1.197 fixtures
# (fixtures/claude-code-2.1.197/statusline-after-reply.json, posttooluse-bash.json).
# Session ids, paths and usage fields are replaced per scenario.

STATUSLINE_AFTER_REPLY = {
    "session_id": "4106d464-75bb-44ee-b810-e0e678a180ac",
    "transcript_path": "/home/user/.claude/projects/-home-user-proj/4106d464-75bb-44ee-b810-e0e678a180ac.jsonl",
    "cwd": "/home/user/proj",
    "prompt_id": "1b1a5bdb-8c88-4bd5-93cf-0feac1b8054e",
    "model": {"id": "claude-sonnet-4-5", "display_name": "Sonnet 4.5"},
    "workspace": {"current_dir": "/home/user/proj", "project_dir": "/home/user/proj", "added_dirs": []},
    "version": "2.1.197",
    "output_style": {"name": "default"},
    "cost": {"total_cost_usd": 0.9001499999999999, "total_duration_ms": 13976, "total_api_duration_ms": 289,
             "total_lines_added": 0, "total_lines_removed": 0},
    "context_window": {"total_input_tokens": 150000, "total_output_tokens": 5, "context_window_size": 200000,
                       "current_usage": {"input_tokens": 150000, "output_tokens": 5,
                                         "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
                       "used_percentage": 75, "remaining_percentage": 25},
    "exceeds_200k_tokens": False,
    "fast_mode": False,
    "thinking": {"enabled": True},
}

POSTTOOLUSE_BASH = {
    "session_id": "2ce07739-e512-40fe-b9e8-343880ca9de9",
    "transcript_path": "/home/user/.claude/projects/-home-user-proj/2ce07739-e512-40fe-b9e8-343880ca9de9.jsonl",
    "cwd": "/home/user/proj",
    "prompt_id": "ec3777a3-ae3f-47c7-b7d2-bef4e2b4bd54",
    "permission_mode": "default",
    "hook_event_name": "PostToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "echo step1", "description": "echo"},
    "tool_response": {"stdout": "step1", "stderr": "", "interrupted": False, "isImage": False,
                      "noOutputExpected": False},
    "tool_use_id": "toolu_1",
    "duration_ms": 81,
}

STATE_MD = """---
gsd_state_version: 1.0
milestone: v1.2
milestone_name: Billing
current_phase: 3
current_phase_name: invoices
current_plan: 2
status: executing
stopped_at: null
paused_at: null
last_updated: 2026-11-29T18:00:00Z
last_activity: 2026-11-29
progress:
  total_phases: 8
  completed_phases: 2
  total_plans: 24
  completed_plans: 9
  percent: 37
---

# Project State

## Current Position

Phase: 3 of 8 (invoices)
Plan: 2 of 4
Status: Executing
Last activity: 2026-11-29 - finished 03-01
Progress: [████░░░░░░] 37%

## Accumulated Context

### Decisions
- Invoices are immutable once issued.

### Pending Todos
None.

### Blockers/Concerns
None.

## Session Continuity

Last session: 2026-11-29 18:00
Stopped at: 03-02 task 1
Resume file: None
"""

# One session id per scenario (uuid-shaped, like Claude Code's).
SID_STATUSLINE = "b47c0001-0000-4000-8000-000000000001"
SID_MONITOR = "b47c0002-0000-4000-8000-000000000002"
SID_SL_1MB = "b47c0003-0000-4000-8000-000000000003"
SID_SL_1GB = "b47c0004-0000-4000-8000-000000000004"
SID_MON_1MB = "b47c0005-0000-4000-8000-000000000005"
SID_MON_1GB = "b47c0006-0000-4000-8000-000000000006"
SID_MISSING = "b47c0007-0000-4000-8000-000000000007"
SID_BIG = "b47c0008-0000-4000-8000-000000000008"
SID_BIG_LATE = "b47c0009-0000-4000-8000-000000000009"
SID_BIG_NEW = "b47c000a-0000-4000-8000-00000000000a"
BIG_PHASES, BIG_PLANS = 200, 10
# Open phases (planned, not checked in the roadmap) of the "big" and "late" projects.
BIG_OPEN, LATE_OPEN = BIG_PHASES - BIG_PHASES // 4, 10
SID_SL_ALL = "b47c000b-0000-4000-8000-00000000000b"
SID_MON_ALL = "b47c000c-0000-4000-8000-00000000000c"
SID_MON_UNWRITTEN = "b47c000d-0000-4000-8000-00000000000d"
SID_MON_GROWING = "b47c000e-0000-4000-8000-00000000000e"

# Thresholds no request can reach from the transcripts' 30% remaining (bench project "proj-far").
FAR_THRESHOLDS = {"monitor": {"warning_remaining": 10, "critical_remaining": 5}}
# A tool call whose reply the transcripts do not hold (not written yet).
UNWRITTEN_TOOL_USE_ID = "toolu_01BenchUnwrittenQ4nT8w"

# Every statusline segment, in a configured order, and a monitor that warns on every call
# (bench project "proj-all").
ALL_SEGMENTS = {"statusline": {"segments": ["model", "task", "dir", "context", "limits", "cost", "duration",
                                            "cache", "compactions"]},
                "monitor": {"debounce_calls": 1}}

TRANSCRIPT_SID = "2ce07739-e512-40fe-b9e8-343880ca9de9"
TRANSCRIPT_VERSION = "v3"  # bump when the generator changes, so old files are not reused
# The tool call of the last turn; the monitor payloads carry it as tool_use_id (baton waits
# for the transcript to mention it, as Claude Code may run the hook before writing the line).
TAIL_TOOL_USE_ID = "toolu_01BenchTailXq7Vd3kP9mZr2"
LAST_INPUT_TOKENS = 140000  # context on the last assistant line (70% of 200k, 30% remaining)
BODY_INPUT_TOKENS = 60000   # context on every earlier assistant line (a wrong reader shows 30%)
HISTORY_TURNS = 8           # turns before the last growing by 10k (5k a request): the forecast's history

# ---------------------------------------------------------------------------
# Transcript generation (line shapes from transcript-headless-3-tools.jsonl)

_COMMON = {"userType": "external", "entrypoint": "sdk-cli", "cwd": "/home/user/proj",
           "sessionId": TRANSCRIPT_SID, "version": "2.1.197", "gitBranch": "HEAD"}


def _uuid(n):
    return "%08x-0000-4000-8000-%012x" % (n & 0xFFFFFFFF, n)


def _ts(n):
    return "2026-11-30T%02d:%02d:%02d.%03dZ" % ((n // 3600000) % 24, (n // 60000) % 60, (n // 1000) % 60, n % 1000)


def _usage(total, output_tokens):
    # Realistic split: almost everything is a cache read; the three inputs sum to `total`.
    cache_read = total * 9 // 10
    cache_creation = total - cache_read - 3
    return {"input_tokens": 3, "cache_creation_input_tokens": cache_creation,
            "cache_read_input_tokens": cache_read, "output_tokens": output_tokens,
            "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
            "service_tier": "standard",
            "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": cache_creation},
            "inference_geo": "", "iterations": [], "speed": "standard"}


def _dump(obj):
    return (json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


_OUTPUT = "".join("src/module_%04d.rs:%d: warning: unused variable `x%d` (compiled in %d ms)\n" % (i, i * 7, i, i % 97)
                  for i in range(400))


def _turn(n, tokens, result_bytes, tool_id=None, grown=0):
    """One tool round trip: user prompt, assistant tool_use, tool_result, hook attachment,
    assistant text (its context `grown` tokens larger). n makes ids unique within a chunk."""
    u = [_uuid(n * 8 + i) for i in range(6)]
    tool_id = tool_id or "toolu_01Bench%017d" % n
    out = _OUTPUT[:result_bytes]
    lines = [
        dict(parentUuid=None, isSidechain=False, promptId=_uuid(n), type="user",
             message={"role": "user", "content": "run step %d of the plan and report what changed" % n},
             uuid=u[0], timestamp=_ts(n * 7), permissionMode="default", promptSource="sdk", **_COMMON),
        dict(parentUuid=u[0], isSidechain=False,
             message={"id": "msg_%d" % n, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                      "content": [{"type": "tool_use", "id": tool_id, "name": "Bash",
                                   "input": {"command": "make step%d" % n, "description": "step"}}],
                      "stop_reason": "tool_use", "stop_sequence": None,
                      "usage": _usage(tokens, 20), "stop_details": None},
             requestId="req_%d" % n, type="assistant", uuid=u[1], timestamp=_ts(n * 7 + 1), **_COMMON),
        dict(parentUuid=u[1], isSidechain=False, promptId=_uuid(n), type="user",
             message={"role": "user", "content": [{"tool_use_id": tool_id, "type": "tool_result",
                                                   "content": out, "is_error": False}]},
             uuid=u[2], timestamp=_ts(n * 7 + 2),
             toolUseResult={"stdout": out, "stderr": "", "interrupted": False, "isImage": False,
                            "noOutputExpected": False},
             sourceToolAssistantUUID=u[1], **_COMMON),
        dict(parentUuid=u[2], isSidechain=False,
             attachment={"type": "hook_success", "hookName": "PostToolUse:Bash", "toolUseID": tool_id,
                         "hookEvent": "PostToolUse", "content": "", "stdout": "", "stderr": "", "exitCode": 0,
                         "command": "baton hook", "durationMs": 2},
             type="attachment", uuid=u[3], timestamp=_ts(n * 7 + 3), **_COMMON),
        dict(parentUuid=u[3], isSidechain=False,
             message={"id": "msg_%d_b" % n, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                      "content": [{"type": "text", "text": "Step %d done; the build is green." % n}],
                      "stop_reason": "end_turn", "stop_sequence": None,
                      "usage": _usage(tokens + grown, 12), "stop_details": None},
             requestId="req_%d_b" % n, type="assistant", uuid=u[4], timestamp=_ts(n * 7 + 4), **_COMMON),
    ]
    return b"".join(_dump(x) for x in lines)


def _tail():
    """The same last lines in every transcript: HISTORY_TURNS turns whose context grows by
    10k a turn up to LAST_INPUT_TOKENS (the forecast's history), then the last assistant line
    at LAST_INPUT_TOKENS, followed by a 16 KB tool result and its hook attachment (the moment
    a PostToolUse hook runs)."""
    n = 999999
    history = b"".join(_turn(n - HISTORY_TURNS + i, LAST_INPUT_TOKENS - 10000 * (HISTORY_TURNS - i), 2000,
                             grown=5000) for i in range(HISTORY_TURNS))
    t = _turn(n, LAST_INPUT_TOKENS, 16 * 1024, TAIL_TOOL_USE_ID).splitlines(keepends=True)
    return history + b"".join(t[:4])  # prompt, assistant(tool_use, usage), tool_result, hook attachment


def _body_chunk(target):
    """~target bytes of turns with tool results of varied size (200 B .. 12 KB)."""
    parts, size, n = [], 0, 0
    rng = random.Random(7)
    while size < target:
        b = _turn(n, BODY_INPUT_TOKENS, rng.choice((200, 800, 2000, 5000, 12000)))
        parts.append(b)
        size += len(b)
        n += 1
    return b"".join(parts)


def ensure_transcript(path, size):
    """Write a transcript of about `size` bytes (reused when already there)."""
    if os.path.exists(path) and os.path.getsize(path) >= size * 0.98:
        return False
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):  # transcripts of older generator versions
        if old.startswith("transcript-") and not old.endswith("." + TRANSCRIPT_VERSION + ".jsonl"):
            os.unlink(os.path.join(folder, old))
    tail = _tail()
    chunk = _body_chunk(min(size, 4 << 20))
    tmp = path + ".tmp"
    with open(tmp, "wb", buffering=0) as f:
        written = 0
        body = size - len(tail)
        while written + len(chunk) <= body:
            f.write(chunk)
            written += len(chunk)
        cut = chunk.rfind(b"\n", 0, body - written) + 1  # the rest: part of a chunk, whole lines
        if cut > 0:
            f.write(chunk[:cut])
        f.write(tail)
    os.replace(tmp, path)
    return True


# ---------------------------------------------------------------------------
# Commands and scenarios


class Cmd:
    def __init__(self, name, argv, payload, group, prepare=None, cwd=None, env=None):
        self.name, self.argv, self.payload, self.group, self.prepare = name, argv, payload, group, prepare
        self.cwd = cwd  # None: the plain project (Claude Code runs hooks in the session's directory)
        self.env = env  # replaces the common environment when set
        self.fd = None
        self.ns, self.cpu_ns = {}, []  # ns: round -> wall time
        self.failures = 0
        self.rss_kb = None


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, separators=(",", ":"))


def statusline_payload(sid, proj, transcript, usage=True):
    p = json.loads(json.dumps(STATUSLINE_AFTER_REPLY))
    p["session_id"] = sid
    p["transcript_path"] = transcript
    p["cwd"] = proj
    p["workspace"] = {"current_dir": proj, "project_dir": proj, "added_dirs": []}
    if not usage:  # as at session start: nothing usable in the payload, read the transcript
        cw = p["context_window"]
        cw.update(total_input_tokens=0, total_output_tokens=0, current_usage=None,
                  used_percentage=None, remaining_percentage=None)
    return p


def statusline_all_payload(sid, proj, transcript, now):
    """The 2.1.332 shape after a reply: rate_limits (a subscription login) and a warm
    prompt_cache, at 140k of 200k."""
    p = statusline_payload(sid, proj, transcript)
    p["version"] = "2.1.332"
    p["cost"]["total_duration_ms"] = 4800000
    p["context_window"]["current_usage"] = {"input_tokens": 3, "output_tokens": 20,
                                            "cache_creation_input_tokens": 13997,
                                            "cache_read_input_tokens": 126000}
    p["context_window"].update(total_input_tokens=140000, used_percentage=70, remaining_percentage=30)
    p["rate_limits"] = {"five_hour": {"used_percentage": 42, "resets_at": now + 4800},
                        "seven_day": {"used_percentage": 12, "resets_at": now + 3 * 86400}}
    p["prompt_cache"] = {"warm": True, "caching_observed": True, "ttl": "5m", "expires_at": now + 3000,
                         "requests": 9, "misses": 1, "expected_rebuilds": 0, "hit_ratio": 0.9,
                         "cache_write_tokens": 45000, "miss_recache_tokens": 5000, "last_miss_at": None,
                         "last_miss_cause": None, "miss_causes": {}, "recache_tokens_if_cold": 140000}
    return p


def post_compact_payload(sid, proj):
    """A PostCompact hook payload (2.1.332's capture)."""
    return {"session_id": sid, "transcript_path": "/home/user/.claude/projects/-home-user-proj/%s.jsonl" % sid,
            "cwd": proj, "hook_event_name": "PostCompact", "trigger": "auto",
            "compact_summary": "<analysis>bench</analysis>\n<summary>bench</summary>"}


def monitor_payload(sid, proj, transcript):
    p = json.loads(json.dumps(POSTTOOLUSE_BASH))
    p["session_id"] = sid
    p["transcript_path"] = transcript
    p["cwd"] = proj
    p["tool_use_id"] = TAIL_TOOL_USE_ID
    return p


def snapshot(src, dst):
    shutil.copy2(src, dst)
    return dst


def fs_type(path):
    """The file system type of the mount holding path (from /proc/mounts)."""
    best, kind = "", "?"
    try:
        real = os.path.realpath(path)
        for line in open("/proc/mounts"):
            f = line.split()
            mnt = f[1].replace("\\040", " ")
            if (real == mnt or real.startswith(mnt.rstrip("/") + "/")) and len(mnt) > len(best):
                best, kind = mnt, f[2]
    except OSError:
        pass
    return kind


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def percentile(sorted_vals, q):
    if not sorted_vals:
        return float("nan")
    k = max(0, math.ceil(q * len(sorted_vals)) - 1)
    return sorted_vals[k]


def median(vals):
    s = sorted(vals)
    n = len(s)
    if n == 0:
        return float("nan")
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baton", help="baton binary (omit to benchmark only the no-op and GSD)")
    ap.add_argument("--gsd", help="GSD hooks directory (holding gsd-statusline.js, gsd-context-monitor.js)")
    ap.add_argument("--node", default=shutil.which("node"), help="node binary (default: from PATH)")
    ap.add_argument("--noop", default="/bin/true", help="the no-op baseline (default /bin/true)")
    ap.add_argument("--monitor-args", default="hook", help="baton arguments for the monitor (default: hook)")
    ap.add_argument("-n", "--iterations", type=int, default=300, help="timed rounds (default 300)")
    ap.add_argument("--warmup", type=int, default=None, help="untimed rounds first (default 10%%, at least 5)")
    ap.add_argument("--quick", action="store_true", help="40 rounds, 5 warm-up rounds")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target fails")
    ap.add_argument("--seed", type=int, default=1, help="seed of the per-round shuffle")
    ap.add_argument("--work", default="target/bench", help="directory for transcripts and run files")
    ap.add_argument("--big-mb", type=int, default=1024, help="size of the big transcript in MB (default 1024)")
    ap.add_argument("--planning", action="store_true",
                    help="make the project GSD-active (.planning/STATE.md and config.json)")
    ap.add_argument("--also", action="append", default=[], metavar="LABEL=PATH",
                    help="another baton build to time on the statusline and monitor scenarios, "
                    "e.g. --also static=path/to/baton (repeatable; informational, no targets)")
    ap.add_argument("--tmpdir", help="put the commands' TMPDIR (bridge and debounce files) in a fresh "
                    "directory under this one, e.g. /dev/shm to see the cost without a disk file system "
                    "(default: under --work)")
    ap.add_argument("--no-rss", action="store_true", help="skip the peak-RSS pass")
    args = ap.parse_args()

    if args.quick:
        args.iterations = 40
        if args.warmup is None:
            args.warmup = 5
    if args.warmup is None:
        args.warmup = max(5, args.iterations // 10)

    work = os.path.abspath(args.work)
    baton = os.path.abspath(args.baton) if args.baton else None
    if baton and not os.access(baton, os.X_OK):
        print("baton binary not found or not executable: %s (skipping baton)" % baton)
        baton = None
    gsd_dir = os.path.abspath(args.gsd) if args.gsd else None
    gsd_sl = gsd_mon = None
    if gsd_dir:
        gsd_sl = os.path.join(gsd_dir, "gsd-statusline.js")
        gsd_mon = os.path.join(gsd_dir, "gsd-context-monitor.js")
        if not (os.path.exists(gsd_sl) and os.path.exists(gsd_mon) and args.node):
            print("GSD hooks or node not found under %s (skipping GSD)" % gsd_dir)
            gsd_dir = None
    node = os.path.realpath(args.node) if args.node else None
    noop = args.noop
    run = os.path.join(work, "run")
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(os.path.join(run, "bin"))
    # Time a snapshot: a concurrent cargo build may replace target/release/baton mid-run.
    if baton:
        baton = snapshot(baton, os.path.join(run, "bin", "baton"))

    # ---- files -----------------------------------------------------------
    t0 = time.monotonic()
    small = os.path.join(work, "transcripts", "transcript-1MB.%s.jsonl" % TRANSCRIPT_VERSION)
    big = os.path.join(work, "transcripts", "transcript-%dMB.%s.jsonl" % (args.big_mb, TRANSCRIPT_VERSION))
    made = []
    for path, size in ((small, 1 << 20), (big, args.big_mb << 20)):
        if ensure_transcript(path, size):
            made.append(path)
    gen_s = time.monotonic() - t0
    big_label = "1GB" if args.big_mb == 1024 else "%dMB" % args.big_mb

    proj = os.path.join(run, "proj")
    home = os.path.join(run, "home")
    pay = os.path.join(run, "payloads")
    for d in (proj, home, pay):
        os.makedirs(d)
    if args.tmpdir:
        tmp = tempfile.mkdtemp(prefix="baton-bench-", dir=args.tmpdir)
    else:
        tmp = os.path.join(run, "tmp")
        os.makedirs(tmp)
    missing = os.path.join(run, "no-such-transcript.jsonl")
    # The project is its own git work tree (so the branch lookup does not depend on where
    # the bench runs) and, with --planning, a GSD-active project.
    os.makedirs(os.path.join(proj, ".git"))
    with open(os.path.join(proj, ".git", "HEAD"), "w") as f:
        f.write("ref: refs/heads/main\n")
    proj_all = os.path.join(run, "proj-all")
    os.makedirs(os.path.join(proj_all, ".git"))
    os.makedirs(os.path.join(proj_all, ".baton"))
    with open(os.path.join(proj_all, ".git", "HEAD"), "w") as f:
        f.write("ref: refs/heads/main\n")
    write_json(os.path.join(proj_all, ".baton", "config.json"), ALL_SEGMENTS)
    proj_far = os.path.join(run, "proj-far")
    os.makedirs(os.path.join(proj_far, ".baton"))
    write_json(os.path.join(proj_far, ".baton", "config.json"), FAR_THRESHOLDS)
    # The big GSD projects, kept between runs and dated an hour back (a project whose files
    # nobody touched in the last seconds); "new" gets its STATE.md rewritten before each render.
    big_projects = {}
    for label, done in (("big", BIG_PHASES - BIG_OPEN), ("late", BIG_PHASES - LATE_OPEN),
                        ("new", BIG_PHASES - BIG_OPEN)):
        path = os.path.join(work, "projects", "gsd-%dx%d-%s" % (BIG_PHASES, BIG_PLANS, label))
        make_project(path, BIG_PHASES, BIG_PLANS, done)
        os.makedirs(os.path.join(path, ".git"), exist_ok=True)
        with open(os.path.join(path, ".git", "HEAD"), "w") as f:
            f.write("ref: refs/heads/main\n")
        hour_ago = time.time() - 3600
        for folder, _, files in os.walk(os.path.join(path, ".planning")):
            for name in files:
                os.utime(os.path.join(folder, name), (hour_ago, hour_ago))
            os.utime(folder, (hour_ago, hour_ago))
        big_projects[label] = path
    if args.planning:
        os.makedirs(os.path.join(proj, ".planning"))
        with open(os.path.join(proj, ".planning", "STATE.md"), "w") as f:
            f.write(STATE_MD)
        write_json(os.path.join(proj, ".planning", "config.json"),
                   {"model_profile": "balanced", "hooks": {"context_warnings": True}})

    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "TMPDIR": tmp, "LANG": "C.UTF-8",
           "COLUMNS": "120", "LINES": "40", "CLAUDE_PROJECT_DIR": proj}

    def bridge(sid):
        return os.path.join(tmp, "claude-ctx-%s.json" % sid)

    def fresh_bridge(sid):
        def f():
            write_json(bridge(sid), {"session_id": sid, "remaining_percentage": 30, "used_pct": 70,
                                     "timestamp": int(time.time())})
        return f

    def earlier_bridge(sid):
        # The statusline's usual situation: a bridge file from the previous render exists, with
        # older figures, so the render must replace it (and GSD's statusline, run on the same
        # payload, would otherwise leave its own file for baton to replace).
        # Left as a render leaves it: a new file moved into a free name. Truncating the old file,
        # or renaming over it, makes ext4 start writing it out (auto_da_alloc), and the timed
        # command would then wait for that I/O: a cost of this harness, not of a real render.
        def f():
            scratch = bridge(sid) + ".bench"
            write_json(scratch, {"session_id": sid, "remaining_percentage": 40, "used_pct": 60,
                                 "timestamp": int(time.time()) - 5})
            try:
                os.unlink(bridge(sid))
            except FileNotFoundError:
                pass
            os.rename(scratch, bridge(sid))
        return f

    def state_just_written(sid):
        state = os.path.join(big_projects["new"], ".planning", "STATE.md")
        earlier = earlier_bridge(sid)

        def f():
            earlier()
            os.utime(state)
        return f

    def no_bridge(sid):
        def f():
            try:
                os.unlink(bridge(sid))
            except FileNotFoundError:
                pass
        return f

    def grown_transcript(sid, path, payload_path):
        """fresh_bridge, and one more tool round trip appended to the transcript at `path`, up
        to the moment its PostToolUse hook runs (prompt, tool_use with usage, its result, the
        hook attachment), its tool_use_id written into the payload (in place: the harness
        keeps the file open; every id has the same length)."""
        bridge_file, turns = fresh_bridge(sid), iter(range(500000, 10 ** 9))

        def f():
            bridge_file()
            n = next(turns)
            tool_id = "toolu_01Bench%017d" % n
            with open(path, "ab") as out:
                out.write(b"".join(_turn(n, LAST_INPUT_TOKENS, 5000, tool_id).splitlines(keepends=True)[:4]))
            with open(payload_path, "rb") as f_in:
                call = json.load(f_in)
            call["tool_use_id"] = tool_id
            with open(payload_path, "r+b") as f_out:
                f_out.write(json.dumps(call, separators=(",", ":")).encode())
        return f

    def payload(name, obj):
        path = os.path.join(pay, name + ".json")
        write_json(path, obj)
        return path

    p_sl = payload("statusline", statusline_payload(SID_STATUSLINE, proj, small))
    p_mon = payload("monitor", monitor_payload(SID_MONITOR, proj, small))
    p_sl_s = payload("statusline-1MB", statusline_payload(SID_SL_1MB, proj, small, usage=False))
    p_sl_b = payload("statusline-" + big_label, statusline_payload(SID_SL_1GB, proj, big, usage=False))
    p_mon_s = payload("monitor-1MB", monitor_payload(SID_MON_1MB, proj, small))
    p_mon_b = payload("monitor-" + big_label, monitor_payload(SID_MON_1GB, proj, big))
    p_sl_x = payload("statusline-missing", statusline_payload(SID_MISSING, proj, missing, usage=False))
    p_mon_x = payload("monitor-missing", monitor_payload(SID_MISSING, proj, missing))
    p_sl_all = payload("statusline-all", statusline_all_payload(SID_SL_ALL, proj_all, small, int(time.time())))
    p_mon_all = payload("monitor-all", monitor_payload(SID_MON_ALL, proj_all, small))
    growing = os.path.join(run, "transcript-growing.jsonl")
    shutil.copyfile(small, growing)
    p_mon_growing = monitor_payload(SID_MON_GROWING, proj_all, growing)
    p_mon_growing["tool_use_id"] = "toolu_01Bench%017d" % 0  # the length grown_transcript writes
    p_mon_growing = payload("monitor-growing", p_mon_growing)
    p_mon_unwritten = monitor_payload(SID_MON_UNWRITTEN, proj_far, small)
    p_mon_unwritten["tool_use_id"] = UNWRITTEN_TOOL_USE_ID
    p_mon_unwritten = payload("monitor-unwritten", p_mon_unwritten)
    p_compacted = payload("post-compact-all", post_compact_payload(SID_SL_ALL, proj_all))
    # Every segment fits a wide terminal (a narrow one drops the optional segments first).
    env_wide = dict(env, COLUMNS="200")
    p_big = {label: payload("statusline-" + label, statusline_payload(sid, big_projects[label], small))
             for label, sid in (("big", SID_BIG), ("late", SID_BIG_LATE), ("new", SID_BIG_NEW))}

    mon_args = args.monitor_args.split()
    cmds = [Cmd("noop statusline", [noop], p_sl, "statusline", earlier_bridge(SID_STATUSLINE))]
    if baton:
        cmds.append(Cmd("baton statusline", [baton, "statusline"], p_sl, "statusline", earlier_bridge(SID_STATUSLINE)))
    if gsd_dir:
        cmds.append(Cmd("gsd statusline", [node, gsd_sl], p_sl, "statusline", earlier_bridge(SID_STATUSLINE)))
    cmds.append(Cmd("noop monitor", [noop], p_mon, "monitor", fresh_bridge(SID_MONITOR)))
    if baton:
        cmds.append(Cmd("baton monitor", [baton] + mon_args, p_mon, "monitor", fresh_bridge(SID_MONITOR)))
    if gsd_dir:
        cmds.append(Cmd("gsd monitor", [node, gsd_mon], p_mon, "monitor", fresh_bridge(SID_MONITOR)))
    if baton:
        cmds.append(Cmd("baton monitor unwritten", [baton] + mon_args, p_mon_unwritten, "monitor",
                        fresh_bridge(SID_MON_UNWRITTEN), proj_far))
    if baton:
        cmds += [
            Cmd("noop all", [noop], p_sl_all, "all", earlier_bridge(SID_SL_ALL), proj_all, env_wide),
            Cmd("baton statusline all", [baton, "statusline"], p_sl_all, "all", earlier_bridge(SID_SL_ALL),
                proj_all, env_wide),
            Cmd("baton monitor all", [baton] + mon_args, p_mon_all, "all", fresh_bridge(SID_MON_ALL),
                proj_all, env_wide),
            Cmd("baton monitor growing", [baton] + mon_args, p_mon_growing, "all",
                grown_transcript(SID_MON_GROWING, growing, p_mon_growing), proj_all, env_wide),
        ]
    also = []
    for spec in args.also:
        label, _, path = spec.partition("=")
        if not path or not os.access(path, os.X_OK):
            print("--also %s: not an executable (ignored)" % spec)
            continue
        path = snapshot(path, os.path.join(run, "bin", "baton-" + label))
        also.append(label)
        cmds.append(Cmd(label + " statusline", [path, "statusline"], p_sl, "statusline", earlier_bridge(SID_STATUSLINE)))
        cmds.append(Cmd(label + " monitor", [path] + mon_args, p_mon, "monitor", fresh_bridge(SID_MONITOR)))
    if baton:
        cmds += [
            Cmd("baton statusline 1MB", [baton, "statusline"], p_sl_s, "transcript", no_bridge(SID_SL_1MB)),
            Cmd("baton statusline " + big_label, [baton, "statusline"], p_sl_b, "transcript", no_bridge(SID_SL_1GB)),
            Cmd("baton monitor 1MB", [baton] + mon_args, p_mon_s, "transcript", no_bridge(SID_MON_1MB)),
            Cmd("baton monitor " + big_label, [baton] + mon_args, p_mon_b, "transcript", no_bridge(SID_MON_1GB)),
            Cmd("baton statusline big", [baton, "statusline"], p_big["big"], "big project",
                earlier_bridge(SID_BIG), big_projects["big"]),
            Cmd("baton statusline big late", [baton, "statusline"], p_big["late"], "big project",
                earlier_bridge(SID_BIG_LATE), big_projects["late"]),
            Cmd("baton statusline big new", [baton, "statusline"], p_big["new"], "big project",
                state_just_written(SID_BIG_NEW), big_projects["new"]),
        ]
    by = {c.name: c for c in cmds}

    os.chdir(proj)  # hooks run in the project directory

    # ---- header ----------------------------------------------------------
    def sh(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout.strip()
        except Exception:
            return "?"

    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    print("baton hook benchmark")
    print("  machine : %s, %d CPUs, %s, Linux %s" % (cpu, os.cpu_count(), platform.machine(), platform.release()))
    if baton:
        desc = ", ".join(x.strip() for x in sh(["file", "-b", baton]).split(",")[:4])
        print("  baton   : %s (%d KB; %s)" % (baton, os.path.getsize(baton) // 1024, desc))
    else:
        print("  baton   : (not benchmarked)")
    if gsd_dir:
        print("  gsd     : %s  (node %s)" % (gsd_dir, sh([node, "--version"])))
    print("  no-op   : %s" % noop)
    print("  transcripts: %s (%.1f MB), %s (%.1f MB)%s" % (
        os.path.basename(small), os.path.getsize(small) / 1e6, os.path.basename(big), os.path.getsize(big) / 1e6,
        "  [generated in %.1f s]" % gen_s if made else "  [reused]"))
    print("  load    : %s (1/5/15 min load average before the run; other work on the machine adds noise)"
          % loadavg())
    print("  TMPDIR  : %s (%s)" % (tmp, fs_type(tmp)))
    print("  rounds  : %d timed + %d warm-up, %d commands per round, order shuffled per round (seed %d)" % (
        args.iterations, args.warmup, len(cmds), args.seed))
    print()

    # ---- sanity: run each command once and look at what it printed ---------
    def run_capture(argv, payload_path, prepare=None, cwd=None, run_env=None):
        if prepare:
            prepare()
        with open(payload_path, "rb") as f:
            try:
                r = subprocess.run(argv, stdin=f, capture_output=True, env=run_env or env, cwd=cwd or proj,
                                   timeout=30)
                return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")
            except subprocess.TimeoutExpired:
                return -1, "", "timeout"

    def short(s, n=110):
        s = s.strip().replace("\n", "\\n")
        return s if len(s) <= n else s[:n] + "…"

    checks = []  # (ok, text)
    print("sanity (one run each, before timing; debounce files are fresh):")
    if baton:
        # Two compactions so far in the all scenario's session, recorded by baton's own hook.
        for _ in range(2):
            run_capture([baton, "hook"], p_compacted, None, proj_all)
    outs = {}
    for c in cmds:
        # Start each from a fresh debounce file: the tools of one scenario share a session.
        for sid in (SID_MONITOR, SID_MON_1MB, SID_MON_1GB):
            try:
                os.unlink(os.path.join(tmp, "claude-ctx-%s-warned.json" % sid))
            except FileNotFoundError:
                pass
        rc, out, err = run_capture(c.argv, c.payload, c.prepare, c.cwd, c.env)
        outs[c.name] = (rc, out, err)
        print("  %-26s rc=%d stdout=%s%s" % (c.name, rc, short(out) or "(empty)",
                                             ("  stderr=" + short(err, 60)) if err.strip() else ""))
    if baton:
        rc, out, err = outs["baton statusline"]
        checks.append((rc == 0 and out.strip() != "" and os.path.exists(bridge(SID_STATUSLINE)),
                       "sanity: baton statusline prints a line and writes the bridge file"))
        rc, out, err = outs["baton monitor"]
        checks.append((rc == 0 and "additionalContext" in out,
                       "sanity: baton monitor warns at 30% remaining (fresh bridge file)"))
        rc, out, err = outs["baton monitor unwritten"]
        checks.append((rc == 0 and out.strip() == "",
                       "sanity: baton monitor unwritten says nothing (no threshold within one request)"))
        rc, out, err = outs["baton statusline all"]
        shown = [part in out for part in ("≈", "5h 42%", "$0.90", "1h20m", "cache ", "2 compactions")]
        checks.append((rc == 0 and all(shown),
                       "sanity: baton statusline all shows the forecast and every segment"))
        rc, out, err = outs["baton monitor all"]
        checks.append((rc == 0 and "more requests fit before compaction" in out,
                       "sanity: baton monitor all warns with the forecast"))
        rc, out, err = outs["baton monitor growing"]
        checks.append((rc == 0 and "more requests fit before compaction" in out and "Bash make step" in out,
                       "sanity: baton monitor growing warns and names the largest items"))
        miss_sl = run_capture([baton, "statusline"], p_sl_x, no_bridge(SID_MISSING))
        sl_s, sl_b = outs["baton statusline 1MB"][1], outs["baton statusline " + big_label][1]
        checks.append((sl_s.strip() != "" and sl_s != miss_sl[1] and sl_s == sl_b,
                       "sanity: baton statusline uses the transcript tail (1MB == %s output, != missing transcript)"
                       % big_label))
        miss_mon = run_capture([baton] + mon_args, p_mon_x, no_bridge(SID_MISSING))
        mo_s, mo_b = outs["baton monitor 1MB"][1], outs["baton monitor " + big_label][1]
        checks.append(("additionalContext" in mo_s and "additionalContext" in mo_b
                       and "additionalContext" not in miss_mon[1],
                       "sanity: baton monitor falls back to the transcript tail (no bridge file)"))
        shown = [("baton statusline big", "v1.0 Big 25%"), ("baton statusline big late", "v1.0 Big 95%"),
                 ("baton statusline big new", "v1.0 Big 25%")]
        checks.append((all(segment in outs[name][1] for name, segment in shown),
                       "sanity: baton statusline shows the big projects' progress (25%, 95%, 25%)"))
        print("  %-26s rc=%d stdout=%s" % ("(missing transcript sl)", miss_sl[0], short(miss_sl[1]) or "(empty)"))
        print("  %-26s rc=%d stdout=%s" % ("(missing transcript mon)", miss_mon[0], short(miss_mon[1]) or "(empty)"))
    if gsd_dir:
        checks.append(("additionalContext" in outs["gsd monitor"][1],
                       "sanity: gsd monitor warns at 30% remaining (fresh bridge file)"))
    print()

    # ---- timed, interleaved rounds -----------------------------------------
    devnull = os.open(os.devnull, os.O_RDWR)
    for c in cmds:
        c.fd = os.open(c.payload, os.O_RDONLY)
    rng = random.Random(args.seed)
    order = list(cmds)
    spawn = os.posix_spawn
    DUP2 = os.POSIX_SPAWN_DUP2
    clock = time.perf_counter_ns
    gc.disable()
    t_run = time.monotonic()
    for it in range(args.warmup + args.iterations):
        rng.shuffle(order)
        for c in order:
            if c.prepare:
                c.prepare()
            os.lseek(c.fd, 0, os.SEEK_SET)
            os.chdir(c.cwd or proj)
            fa = [(DUP2, c.fd, 0), (DUP2, devnull, 1), (DUP2, devnull, 2)]
            t = clock()
            try:
                pid = spawn(c.argv[0], c.argv, c.env or env, file_actions=fa)
            except OSError:
                c.failures += 1
                continue
            _, status, ru = os.wait4(pid, 0)
            dt = clock() - t
            if status != 0:
                c.failures += 1
            if it >= args.warmup:
                c.ns[it] = dt
                c.cpu_ns.append(int((ru.ru_utime + ru.ru_stime) * 1e9))
    gc.enable()
    run_s = time.monotonic() - t_run

    # ---- peak RSS (separate pass: wait4's ru_maxrss of a child spawned by this Python
    # process is floored at Python's own RSS, so measure under /usr/bin/time instead) --------
    gnu_time = shutil.which("time", path="/usr/bin:/bin")
    if not args.no_rss and gnu_time:
        out_file = os.path.join(run, "rss.txt")
        for c in cmds:
            vals = []
            for _ in range(5):
                if c.prepare:
                    c.prepare()
                with open(c.payload, "rb") as f:
                    subprocess.run([gnu_time, "-f", "%M", "-o", out_file] + c.argv, stdin=f,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=c.env or env,
                                   cwd=c.cwd or proj)
                try:
                    vals.append(int(open(out_file).read().split()[-1]))
                except (OSError, ValueError, IndexError):
                    pass
            c.rss_kb = median(vals) if vals else None

    # ---- report ----------------------------------------------------------
    ms = lambda ns: ns / 1e6
    print("results (%d rounds in %.1f s, load after: %s)" % (args.iterations, run_s, loadavg()))
    print("  wall = posix_spawn..wait4 of one run; cpu = the child's user+sys; rss = peak RSS (/usr/bin/time)")
    print("  %-26s %9s %9s %9s %9s %9s %8s" % ("command", "median ms", "p90 ms", "min ms", "cpu ms", "rss MB",
                                                "failures"))
    for c in cmds:
        s = sorted(c.ns.values()) or [float("nan")]
        print("  %-26s %9.3f %9.3f %9.3f %9.3f %9s %8d" % (
            c.name, ms(median(s)), ms(percentile(s, 0.9)), ms(s[0]), ms(median(c.cpu_ns)),
            "%.1f" % (c.rss_kb / 1024) if c.rss_kb else "n/a", c.failures))
    print()

    def paired(a, b):
        """median and p90 of per-round a/b, and median(a)/median(b)."""
        na, nb = by[a].ns, by[b].ns
        r = sorted(na[i] / nb[i] for i in na if i in nb)
        return median(r), percentile(r, 0.9), median(list(na.values())) / median(list(nb.values()))

    # (label, numerator, denominator, op, limit)
    targets = [
        ("baton statusline within 1.5x of a no-op", "baton statusline", "noop statusline", "<=", 1.5),
        ("baton monitor within 1.5x of a no-op", "baton monitor", "noop monitor", "<=", 1.5),
        ("statusline, every segment, within 1.5x of a no-op", "baton statusline all", "noop all", "<=", 1.5),
        ("monitor, warning with forecast, within 1.5x", "baton monitor all", "noop all", "<=", 1.5),
        ("monitor, warning on a grown transcript, within 1.5x", "baton monitor growing", "noop all", "<=", 1.5),
        ("monitor, reply not yet written, within 1.5x", "baton monitor unwritten", "noop monitor", "<=", 1.5),
        ("baton statusline >= 50x faster than GSD", "gsd statusline", "baton statusline", ">=", 50.0),
        ("baton monitor >= 50x faster than GSD", "gsd monitor", "baton monitor", ">=", 50.0),
        ("statusline: %s transcript as fast as 1MB" % big_label, "baton statusline " + big_label,
         "baton statusline 1MB", "<=", 1.25),
        ("monitor: %s transcript as fast as 1MB" % big_label, "baton monitor " + big_label,
         "baton monitor 1MB", "<=", 1.25),
        ("statusline: 2,000 plans within 1.5x of a no-op", "baton statusline big", "noop statusline", "<=", 1.5),
        ("statusline: 2,000 plans within 1.2x of %s" % ("a small GSD project" if args.planning else "no project"),
         "baton statusline big", "baton statusline", "<=", 1.2),
    ]
    extra = [("gsd statusline / noop", "gsd statusline", "noop statusline"),
             ("baton statusline big late / baton statusline", "baton statusline big late", "baton statusline"),
             ("baton statusline big new / big", "baton statusline big new", "baton statusline big"),
             ("gsd monitor / noop", "gsd monitor", "noop monitor")]
    for label in also:
        extra += [("%s statusline / noop" % label, label + " statusline", "noop statusline"),
                  ("%s monitor / noop" % label, label + " monitor", "noop monitor"),
                  ("baton statusline / %s" % label, "baton statusline", label + " statusline"),
                  ("baton monitor / %s" % label, "baton monitor", label + " monitor")]
    print("paired ratios (per-round ratio: median, p90; and ratio of medians)")
    print("  %-46s %8s %8s %10s" % ("ratio", "median", "p90", "of medians"))
    for label, a, b in [("%s / %s" % (t[1], t[2]), t[1], t[2]) for t in targets] + extra:
        if a in by and b in by:
            m, p, rm = paired(a, b)
            print("  %-46s %7.2fx %7.2fx %9.2fx" % (label, m, p, rm))
    if "baton statusline big" in by and "baton statusline big late" in by:
        # The two projects differ only in how many open phase directories a render checks.
        a, b = by["baton statusline big"].ns, by["baton statusline big late"].ns
        diff = sorted(a[i] - b[i] for i in a if i in b)
        extra_dirs = BIG_OPEN - LATE_OPEN
        print("  per open phase directory (big - big late, paired median / %d): %.2f us"
              % (extra_dirs, median(diff) / 1e3 / extra_dirs))
    print()

    failed = False
    for label, a, b, op, limit in targets:
        if a not in by or b not in by:
            # A target that could not be measured is not met: --check fails on it.
            failed = True
            print("%s  %-48s (not benchmarked)" % ("FAIL" if args.check else "SKIP", label))
            continue
        m, _, _ = paired(a, b)
        ok = m <= limit if op == "<=" else m >= limit
        if by[a].failures or by[b].failures:
            ok = False
        failed |= not ok
        print("%s  %-48s %7.2fx  (target %s %.2fx)%s" % (
            "PASS" if ok else "FAIL", label, m, op, limit,
            "  [non-zero exits]" if by[a].failures or by[b].failures else ""))
    for ok, text in checks:
        failed |= not ok
        print("%s  %s" % ("PASS" if ok else "FAIL", text))

    if args.tmpdir:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.check and failed:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
