#!/usr/bin/env python3
"""Times `baton window --json` on a generated 200 MB transcript shaped like Claude Code's
(prompts, attachments with what was rendered, replies streamed a block per line, tool
results with escaped text, the client's request records) and on a 20 MB one, with each
run's peak memory, beside `grep -c` over the same file (the I/O floor). Targets: under a
second on 200 MB, and memory flat in the transcript's size. Python 3 standard library only."""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

FILES = ["src/billing/ledger_dump.sql", "src/app.ts", "README.md", "src/api/routes.ts", "package-lock.json"]
COMMANDS = ["npm test", "git diff", "cargo build", "ls -la"]


def generate(path, megabytes, seed=7):
    """Writes the transcript once; returns the requests in it."""
    if os.path.exists(path):
        with open(path + ".requests") as f:
            return int(f.read())
    rng = random.Random(seed)
    text = "fn main() {\n    println!(\"\\tledger \\\"dump\\\"\");\n}\n"
    context, n, size = 20_000, 0, 0
    with open(path + ".tmp", "w") as out:
        def line(value):
            nonlocal size
            s = json.dumps(value, separators=(",", ":"))
            out.write(s + "\n")
            size += len(s) + 1

        line({"type": "user", "isSidechain": False, "cwd": "/home/u/proj",
              "message": {"role": "user", "content": "fix the ledger export"}})
        while size < megabytes << 20:
            n += 1
            tool = rng.random()
            if tool < 0.5:
                name, tool_input = "Read", {"file_path": "/home/u/proj/" + rng.choice(FILES)}
            elif tool < 0.85:
                name, tool_input = "Bash", {"command": rng.choice(COMMANDS)}
            else:
                name, tool_input = "Grep", {"pattern": "TODO", "path": "/home/u/proj/src"}
            usage = {"input_tokens": 3, "cache_creation_input_tokens": 500,
                     "cache_read_input_tokens": context - 503, "output_tokens": 80}
            for block in ({"type": "text", "text": "Checking that."},
                          {"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": tool_input}):
                line({"type": "assistant", "isSidechain": False, "requestId": f"req_{n}",
                      "message": {"id": f"msg_{n}", "model": "claude-sonnet-4-5", "role": "assistant",
                                  "content": [block], "usage": usage},
                      "timestamp": "2026-12-07T10:00:00.000Z"})
            body = text * rng.randint(2, 600)
            result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": body}]}
            line({"type": "api-request-blob", "message": result})
            line({"type": "user", "isSidechain": False, "message": result})
            if rng.random() < 0.1:
                line({"type": "attachment", "isSidechain": False, "attachment": {"type": "hook_additional_context"},
                      "rendered": [{"content": "context from a hook " * 20}]})
            context += len(body) // 4 + 120
            if context > 160_000:
                line({"type": "system", "subtype": "compact_boundary",
                      "compactMetadata": {"trigger": "auto", "preTokens": context, "postTokens": 6000}})
                line({"type": "user", "isCompactSummary": True, "isSidechain": False,
                      "message": {"role": "user", "content": "Summary: " + "s" * 20_000}})
                context = 25_200
    os.replace(path + ".tmp", path)
    with open(path + ".requests", "w") as f:
        f.write(str(n))
    return n


def timed(argv):
    """Wall seconds of one run, and its stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed: {err.decode()}")
    return wall, out


def peak_kib(argv):
    """Peak resident memory of one run, from the kernel's accounting."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execv(argv[0], argv)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"{' '.join(argv)} failed (status {status})")
    return usage.ru_maxrss


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--baton", required=True)
    ap.add_argument("--work", required=True, help="where the transcripts are generated (once)")
    ap.add_argument("-n", type=int, default=5, help="rounds")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target fails")
    ap.add_argument("--max-seconds", type=float, default=1.0)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    big = os.path.join(a.work, "window-200mb.jsonl")
    small = os.path.join(a.work, "window-20mb.jsonl")
    requests = generate(big, 200)
    generate(small, 20)
    baton = os.path.abspath(a.baton)
    cmd = [baton, "window", "--json", "--transcript", big]
    floor = ["grep", "-c", "usage", big]
    times = {"baton": [], "floor": []}
    answer = None
    for _ in range(a.n):
        wall, out = timed(cmd)
        times["baton"].append(wall)
        answer = answer or json.loads(out)
        times["floor"].append(timed(floor)[0])
    small_kib = peak_kib([baton, "window", "--json", "--transcript", small])
    big_kib = peak_kib(cmd)
    med = {k: statistics.median(v) for k, v in times.items()}
    size = os.path.getsize(big) / 1e6
    print(f"transcript: {size:.0f} MB, {requests} requests, {len(answer['compactions'])} compactions")
    print(f"baton window --json   median {med['baton'] * 1000:7.1f} ms   (min {min(times['baton']) * 1000:.1f}, {a.n} rounds)")
    print(f"grep -c usage (floor) median {med['floor'] * 1000:7.1f} ms")
    print(f"peak memory: 20 MB transcript {small_kib} KiB, 200 MB transcript {big_kib} KiB")
    results = [
        (len(answer["requests"]) == requests, f"every request read ({len(answer['requests'])} of {requests})"),
        (med["baton"] < a.max_seconds, f"200 MB in under {a.max_seconds:g} s ({med['baton']:.2f} s)"),
        (big_kib < small_kib + 16 * 1024, f"memory flat ({small_kib} → {big_kib} KiB for ten times the data)"),
    ]
    for ok, what in results:
        print(("PASS " if ok else "FAIL ") + what)
    if a.check and not all(ok for ok, _ in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
