"""Generates Claude Code transcripts for the `baton report` benchmark, with the true totals.

The lines copy the shapes of the real client's transcript
(tests/fixtures/claude-code-2.1.197/transcript-headless-3-tools.jsonl): user prompts,
assistant replies written one content block per line (a streamed reply repeats its
`message.id` and `requestId`, and its earlier lines carry a partial `output_tokens`, as
the real client writes them), tool results with `toolUseResult`, attachments, system lines.
Bytes are dominated by tool results and tool inputs, as in real sessions.

Layout: <home>/.claude/projects/-work-proj/<session>.jsonl and
<home>/.claude/projects/-work-proj/<session>/subagents/agent-<id>.jsonl.
The truth (per model, each streamed reply counted once with its final figures) goes to
<home>/truth.json. Python 3 standard library only; deterministic for a given seed.
"""

import json
import os
import random
import time

SESSION = "5f0c2a8e-6a1b-4c3d-9e8f-0a1b2c3d4e5f"
PROJECT = "-work-proj"
CWD = "/work/proj"
START = 1795996800  # 2026-11-30T00:00:00Z
MAIN_MODELS = [("claude-opus-4-5-20251101", 6), ("claude-sonnet-4-5-20250929", 3), ("claude-haiku-4-5-20251001", 1)]
AGENT_MODELS = [("claude-sonnet-4-5-20250929", 3), ("claude-haiku-4-5-20251001", 2)]
WORDS = ("fn let mut self match Some None return impl pub struct use crate Result Ok Err "
         "usage value line file path error read write token cost model session the a of to").split()


def iso(t):
    ms = int((t % 1) * 1000)
    return "%s.%03dZ" % (time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(int(t))), ms)


class Writer:
    """One transcript file: writes lines, tracks the clock and the truth."""

    def __init__(self, path, rng, truth, sidechain, agent_id=None):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.f = open(path, "w", encoding="utf-8")
        self.rng, self.truth, self.sidechain, self.agent_id = rng, truth, sidechain, agent_id
        self.bytes = 0
        self.parent = None
        self.n = 0

    def line(self, obj):
        text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n"
        self.f.write(text)
        self.bytes += len(text.encode("utf-8"))

    def common(self, t):
        self.n += 1
        uuid = "%08x-0000-4000-8000-%012x" % (self.rng.getrandbits(32), self.n)
        c = {"parentUuid": self.parent, "isSidechain": self.sidechain, "uuid": uuid, "timestamp": iso(t),
             "userType": "external", "entrypoint": "cli", "cwd": CWD, "sessionId": SESSION,
             "version": "2.1.197", "gitBranch": "main"}
        if self.agent_id:
            c["agentId"] = self.agent_id
        self.parent = uuid
        return c


def text(rng, n):
    """Code-like text of about n characters, with newlines, quotes and tabs to escape."""
    pool = _pool(rng)
    start = rng.randrange(len(pool) - n) if n < len(pool) else 0
    return pool[start:start + n]


_POOL = []


def _pool(rng):
    if not _POOL:
        out = []
        for _ in range(400_000):
            out.append(rng.choice(WORDS) + rng.choice((" ", " ", " ", "\n", "\t", "\"", "(", ")", ";\n")))
        _POOL.append("".join(out))
    return _POOL[0]


def size(rng, median, cap):
    return int(min(cap, rng.lognormvariate(0, 1.1) * median))


def tool_block(rng, i):
    kind = rng.random()
    if kind < 0.35:
        return {"type": "tool_use", "id": "toolu_%06d" % i, "name": "Read",
                "input": {"file_path": "/work/proj/src/file%d.rs" % rng.randrange(500)}}
    if kind < 0.65:
        return {"type": "tool_use", "id": "toolu_%06d" % i, "name": "Bash",
                "input": {"command": "cargo test %s" % rng.choice(WORDS), "description": "run tests"}}
    if kind < 0.9:
        return {"type": "tool_use", "id": "toolu_%06d" % i, "name": "Edit",
                "input": {"file_path": "/work/proj/src/lib.rs", "old_string": text(rng, size(rng, 400, 8000)),
                          "new_string": text(rng, size(rng, 500, 9000))}}
    return {"type": "tool_use", "id": "toolu_%06d" % i, "name": "Write",
            "input": {"file_path": "/work/proj/src/new.rs", "content": text(rng, size(rng, 3000, 60000))}}


def pick(rng, weighted):
    total = sum(w for _, w in weighted)
    x = rng.uniform(0, total)
    for item, w in weighted:
        x -= w
        if x <= 0:
            return item
    return weighted[-1][0]


def add_truth(truth, model, u, output):
    """Counts one response once, with its final figures; requests above 200k input tokens
    are also counted apart (for Sonnet's long-context rate)."""
    t = truth.setdefault(model, {"requests": 0, "input": 0, "output": 0, "cache_write_5m": 0,
                                 "cache_write_1h": 0, "cache_read": 0, "long_context_requests": 0,
                                 "long_context": {"input": 0, "output": 0, "cache_write_5m": 0,
                                                  "cache_write_1h": 0, "cache_read": 0}})
    counts = {"input": u["input_tokens"], "output": output,
              "cache_write_5m": u["cache_creation"]["ephemeral_5m_input_tokens"],
              "cache_write_1h": u["cache_creation"]["ephemeral_1h_input_tokens"],
              "cache_read": u["cache_read_input_tokens"]}
    t["requests"] += 1
    for k, v in counts.items():
        t[k] += v
    if u["input_tokens"] + u["cache_creation_input_tokens"] + u["cache_read_input_tokens"] > 200_000:
        t["long_context_requests"] += 1
        for k, v in counts.items():
            t["long_context"][k] += v


def reply(w, t, models, state):
    """One API response: 1–4 content blocks, one line each, sharing message.id and requestId."""
    rng = w.rng
    model = pick(rng, models)
    state["req"] += 1
    msg_id = "msg_%010d" % state["req"]
    req_id = "req_%010d" % state["req"]
    context = state.setdefault("context", 20_000)
    long_ctx = model.startswith("claude-sonnet") and rng.random() < 0.03
    context = 210_000 + rng.randrange(50_000) if long_ctx else min(190_000, context + rng.randrange(4000))
    state["context"] = context if not long_ctx else 40_000
    fresh = rng.randrange(1, 4000)
    w5 = rng.randrange(0, 3000) if rng.random() < 0.7 else 0
    w1 = rng.randrange(0, 2000) if rng.random() < 0.2 else 0
    read = max(0, context - fresh - w5 - w1)
    output = rng.randrange(20, 3000)
    blocks = []
    if rng.random() < 0.4:
        blocks.append({"type": "thinking", "thinking": text(rng, size(rng, 600, 6000)),
                       "signature": "%x" % rng.getrandbits(1600)})
    if rng.random() < 0.6:
        blocks.append({"type": "text", "text": text(rng, size(rng, 300, 4000))})
    tools = []
    for _ in range(rng.choice((0, 1, 1, 1, 2))):
        state["tool"] += 1
        tools.append(tool_block(rng, state["tool"]))
    blocks.extend(tools)
    if not blocks:
        blocks.append({"type": "text", "text": "done"})
    for i, block in enumerate(blocks):
        last = i == len(blocks) - 1
        out = output if last else min(output, rng.randrange(1, 40))
        usage = {"input_tokens": fresh, "cache_creation_input_tokens": w5 + w1, "cache_read_input_tokens": read,
                 "output_tokens": out, "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
                 "service_tier": "standard",
                 "cache_creation": {"ephemeral_1h_input_tokens": w1, "ephemeral_5m_input_tokens": w5},
                 "inference_geo": "", "iterations": [], "speed": "standard"}
        c = w.common(t + i * 0.05)
        line = {"parentUuid": c.pop("parentUuid"), "isSidechain": c.pop("isSidechain"),
                "message": {"id": msg_id, "type": "message", "role": "assistant", "model": model,
                            "content": [block], "stop_reason": ("tool_use" if tools else "end_turn") if last else None,
                            "stop_sequence": None, "usage": usage},
                "requestId": req_id, "type": "assistant"}
        line.update(c)
        w.line(line)
    add_truth(w.truth, model, usage, output)
    return tools


def tool_result(w, t, tool):
    rng = w.rng
    body = text(rng, size(rng, 1500, 100_000))
    if rng.random() < 0.05:
        body = "usage: cargo test [OPTIONS] [TESTNAME]\n" + body
    c = w.common(t)
    line = {"parentUuid": c.pop("parentUuid"), "isSidechain": c.pop("isSidechain"), "promptId": "p",
            "type": "user", "message": {"role": "user", "content": [
                {"tool_use_id": tool["id"], "type": "tool_result", "content": body, "is_error": False}]}}
    line.update(c)
    result = {"stdout": body, "stderr": "", "interrupted": False, "isImage": False, "noOutputExpected": False}
    if rng.random() < 0.03:
        # A Task tool result carries the subagent's usage: not an API response of this session.
        result = {"status": "completed", "content": [{"type": "text", "text": body[:200]}],
                  "totalTokens": 12345, "usage": {"input_tokens": 999, "output_tokens": 999,
                                                   "cache_read_input_tokens": 999}}
    line["toolUseResult"] = result
    line["sourceToolAssistantUUID"] = w.parent
    w.line(line)


def prompt(w, t):
    c = w.common(t)
    line = {"parentUuid": c.pop("parentUuid"), "isSidechain": c.pop("isSidechain"), "promptId": "p",
            "type": "user", "message": {"role": "user", "content": text(w.rng, size(w.rng, 200, 3000))},
            "permissionMode": "default"}
    line.update(c)
    w.line(line)


def extras(w, t):
    rng = w.rng
    r = rng.random()
    if r < 0.3:
        c = w.common(t)
        w.line({"parentUuid": c.pop("parentUuid"), "isSidechain": c.pop("isSidechain"),
                "attachment": {"type": "hook_success", "hookName": "PostToolUse:Bash", "hookEvent": "PostToolUse",
                               "content": "", "stdout": "", "stderr": "", "exitCode": 0, "durationMs": 11},
                "type": "attachment", **c})
    elif r < 0.4:
        c = w.common(t)
        w.line({"parentUuid": c.pop("parentUuid"), "isSidechain": c.pop("isSidechain"), "type": "system",
                "subtype": "turn_duration", "durationMs": rng.randrange(1000, 90000), **c})
    elif r < 0.45:
        w.line({"type": "file-history-snapshot", "messageId": "m", "snapshot": {
            "trackedFileBackups": {"src/lib.rs": {"backupFileName": "x@v2", "version": 2}}}, "isSnapshotUpdate": True})
    elif r < 0.46:
        # An API error: the client writes a synthetic assistant line with zero usage.
        c = w.common(t)
        w.line({"parentUuid": c.pop("parentUuid"), "isSidechain": c.pop("isSidechain"), "type": "assistant",
                "isApiErrorMessage": True, "message": {"id": "synthetic", "model": "<synthetic>", "role": "assistant",
                "content": [{"type": "text", "text": "API Error: overloaded"}],
                "usage": {"input_tokens": 0, "output_tokens": 0, "cache_creation_input_tokens": 0,
                          "cache_read_input_tokens": 0}}, **c})


def conversation(w, target_bytes, models, state, t):
    while w.bytes < target_bytes:
        prompt(w, t)
        t += 2
        for _ in range(w.rng.randrange(1, 8)):
            tools = reply(w, t, models, state)
            t += 3
            for tool in tools:
                tool_result(w, t, tool)
                t += 1
                extras(w, t)
            if not tools:
                break
    return t


def generate(home, total_bytes, seed, agents=6):
    rng = random.Random(seed)
    truth = {}
    base = os.path.join(home, ".claude", "projects", PROJECT)
    state = {"req": 0, "tool": 0}
    agent_share = 0.3
    main = Writer(os.path.join(base, SESSION + ".jsonl"), rng, truth, False)
    t = conversation(main, total_bytes * (1 - agent_share), MAIN_MODELS, state, START)
    files = [main]
    for i in range(agents):
        w = Writer(os.path.join(base, SESSION, "subagents", "agent-a%015x.jsonl" % i), rng, truth, True,
                   agent_id="a%015x" % i)
        state["context"] = 15_000
        conversation(w, total_bytes * agent_share / agents, AGENT_MODELS, state, t - 3600 + i * 60)
        files.append(w)
    # Close the main transcript last, so the session ends after its subagents.
    prompt(main, t + 10)
    for f in files:
        f.f.close()
    total = sum(f.bytes for f in files)
    with open(os.path.join(home, "truth.json"), "w") as out:
        json.dump({"session": SESSION, "bytes": total, "files": len(files), "models": truth}, out, indent=1)
    return total
