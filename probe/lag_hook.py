#!/usr/bin/env python3
"""Second half of lag_hook.sh: records, for one PostToolUse run, whether the reply carrying
its tool_use_id was in the transcript when the hook started, when it arrived, the newest
main-chain figure in the transcript then, and the statusline's bridge file then."""
import json
import os
import sys
import time

t0, t1, seen, size = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4])
payload = json.load(sys.stdin)
sid = payload.get("session_id")
tid = payload.get("tool_use_id")
tp = payload.get("transcript_path")


def newest_figure(path, size):
    try:
        lines = open(path, "rb").read()[:size].decode("utf-8", "replace").splitlines()
    except OSError:
        return None, False
    for line in reversed(lines):
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("type") == "system" and d.get("subtype") == "compact_boundary":
            return ("boundary", (d.get("compactMetadata") or {}).get("postTokens")), False
        if d.get("type") == "assistant" and not d.get("isSidechain"):
            u = (d.get("message") or {}).get("usage") or {}
            if u:
                tokens = sum(u.get(k, 0) or 0 for k in ("input_tokens", "cache_read_input_tokens",
                                                        "cache_creation_input_tokens"))
                return tokens, tid in line
    return None, False


def bridge():
    try:
        return json.loads(os.environ.get("LAG_BRIDGE") or "null")
    except ValueError:
        return None


at_start_bridge = bridge()
at_start_fig = newest_figure(tp, size)
arrived_ms = 0 if seen else None
# Until the id appears (at most 10 s): the file is read again only when it grew; the longest
# stretch without growth before the line arrived is what baton's idle limit is up against.
start = time.time()
last_size, grew_at, longest_idle, growths = size, t0 / 1e9, 0.0, 0
while arrived_ms is None and time.time() - start < 10:
    try:
        now_size = os.stat(tp).st_size
    except OSError:
        now_size = last_size
    now = time.time()
    if now_size != last_size:
        longest_idle = max(longest_idle, now - grew_at)
        grew_at, last_size, growths = now, now_size, growths + 1
        try:
            if tid in open(tp, encoding="utf-8").read():
                arrived_ms = round((time.time_ns() - t0) / 1e6)
                break
        except OSError:
            pass
    time.sleep(0.002)
rec = {"event": "PostToolUse", "t0_ns": t0, "check_ms": round((t1 - t0) / 1e6, 1), "tool_use_id": tid,
       "in_transcript_at_start": seen, "arrived_ms": arrived_ms,
       "longest_idle_ms": None if seen else round(longest_idle * 1000), "growths_before": None if seen else growths,
       "newest_reply_at_start": at_start_fig[0], "newest_reply_is_this_calls": at_start_fig[1],
       "bridge_at_start": at_start_bridge and {k: at_start_bridge.get(k) for k in ("used_tokens", "remaining_percentage", "timestamp")},
       "entrypoint": os.environ.get("CLAUDE_CODE_ENTRYPOINT")}
with open(os.path.join(os.environ["PROBE_CAPTURE"], "lag.jsonl"), "a") as f:
    f.write(json.dumps(rec) + "\n")
