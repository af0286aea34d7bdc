#!/usr/bin/env python3
"""Probe hook / statusline command: saves what the client sent, answers from a response file.

Usage (from settings.json): python3 hook.py [statusline]
Env (inherited from the client): PROBE_CAPTURE = directory for captures and responses.

Each run writes PROBE_CAPTURE/captures/<ns>-<event>.json with the raw stdin, the parsed payload,
whether stdin reached EOF (and how long after the first complete JSON object), argv and a few
env vars. The reply on stdout is PROBE_CAPTURE/responses/<Event>.<tool_name> or <Event>
(tokens {tool_use_id} and {agent_id} are substituted); the statusline prints one line.
"""
import json
import os
import select
import sys
import time

START = time.time()
DEADLINE_FIRST = 4.0   # seconds to wait for a complete JSON object
EOF_GRACE = 1.5        # seconds to wait for EOF once the object is complete


def read_stdin():
    fd = sys.stdin.fileno()
    data = b""
    parsed = None
    t_parsed = None
    eof = False
    decoder = json.JSONDecoder()
    while True:
        now = time.time()
        if parsed is None:
            remaining = START + DEADLINE_FIRST - now
        else:
            remaining = t_parsed + EOF_GRACE - now
        if remaining <= 0:
            break
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            eof = True
            break
        data += chunk
        if parsed is None:
            try:
                parsed, _ = decoder.raw_decode(data.decode("utf-8", "replace").lstrip())
                t_parsed = time.time()
            except ValueError:
                pass
    if parsed is None:
        try:
            parsed = json.loads(data.decode("utf-8", "replace"))
            t_parsed = time.time()
        except ValueError:
            pass
    return data, parsed, eof, t_parsed


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "hook"
    capture = os.environ.get("PROBE_CAPTURE")
    data, payload, eof, t_parsed = read_stdin()
    t_end = time.time()
    event = "statusline" if mode == "statusline" else (payload or {}).get("hook_event_name", "unknown")
    record = {
        "mode": mode,
        "event": event,
        "stdin_bytes": len(data),
        "eof_seen": eof,
        "ms_to_parse": None if t_parsed is None else round((t_parsed - START) * 1000),
        "ms_total": round((t_end - START) * 1000),
        "stdout_isatty": sys.stdout.isatty(),
        "env": {k: os.environ.get(k) for k in ("COLUMNS", "LINES", "CLAUDE_PROJECT_DIR", "CLAUDE_CODE_SESSION_ID",
                                               "CLAUDECODE", "CLAUDE_ENV_FILE", "CLAUDE_CODE_ENTRYPOINT")},
        "payload": payload,
        "raw": None if payload is not None else data.decode("utf-8", "replace"),
    }
    if capture:
        os.makedirs(os.path.join(capture, "captures"), exist_ok=True)
        name = "%d-%s.json" % (time.time_ns(), event)
        path = os.path.join(capture, "captures", name)
        with open(path + ".tmp", "w") as f:
            json.dump(record, f, indent=1)
        os.replace(path + ".tmp", path)  # readers never see a half-written capture
    if mode == "statusline":
        cw = (payload or {}).get("context_window") or {}
        print("PROBE-SL used=%s total_in=%s size=%s" % (cw.get("used_percentage"), cw.get("total_input_tokens"),
                                                       cw.get("context_window_size")))
        return
    if not capture or payload is None:
        return
    tool = payload.get("tool_name")
    for name in ([f"{event}.{tool}"] if tool else []) + [event]:
        path = os.path.join(capture, "responses", name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            text = text.replace("{tool_use_id}", str(payload.get("tool_use_id"))).replace(
                "{agent_id}", str(payload.get("agent_id")))
            sys.stdout.write(text)
            break


if __name__ == "__main__":
    main()
