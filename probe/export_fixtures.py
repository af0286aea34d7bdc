#!/usr/bin/env python3
"""Copies chosen payloads and transcripts from the probe sandboxes (/tmp/baton-probe/, left by
run_all.sh and q7_substop.py) into tests/fixtures/claude-code-2.1.332/, paths rewritten as if
HOME=/home/user and the project were /home/user/proj. Also copies the shared fixtures there.

Run: python3 probe/export_fixtures.py
"""
import glob
import json
import os
import shutil

from harness import REPO, scrub_paths

SANDBOXES = "/tmp/baton-probe"
DEST = os.path.join(REPO, "tests/fixtures/claude-code-2.1.332")
SHARED = "/work/shared/fixtures/claude-code-2.1.332"
V = "2.1.332"


def root(name):
    path = os.path.join(SANDBOXES, "%s-%s" % (name, V))
    assert os.path.isdir(path), "missing sandbox %s: run probe/run_all.sh first" % path
    return path


def captures(name, event, pred=lambda p: True):
    out = []
    for f in sorted(glob.glob(os.path.join(root(name), "capture/captures/*-%s.json" % event))):
        rec = json.load(open(f))
        if rec["payload"] is not None and pred(rec["payload"]):
            out.append(rec["payload"])
    assert out, "no %s capture in %s" % (event, name)
    return out


def write_json(name, sandbox, payload):
    text = scrub_paths(json.dumps(payload, indent=2, ensure_ascii=False), root(sandbox))
    with open(os.path.join(DEST, name), "w") as f:
        f.write(text + "\n")


def write_transcript(name, sandbox, sub=False):
    files = glob.glob(os.path.join(root(sandbox), "home/.claude/projects/*/*.jsonl"))
    if sub:
        files = glob.glob(os.path.join(root(sandbox), "home/.claude/projects/*/*/subagents/*.jsonl"))
    assert len(files) == 1, files
    with open(files[0]) as f:
        text = scrub_paths(f.read(), root(sandbox))
    with open(os.path.join(DEST, name), "w") as f:
        f.write(text)


def request_messages(sandbox, pick):
    """The `messages` of the first logged request `pick` accepts (long texts shortened)."""
    for line in open(os.path.join(os.path.dirname(__file__), "out", V, sandbox, "requests.jsonl")):
        r = json.loads(line)
        if r.get("body") and pick(r["body"]):
            return r["body"]["messages"]
    raise AssertionError("no matching request in %s" % sandbox)


def main():
    os.makedirs(DEST, exist_ok=True)
    for f in os.listdir(SHARED):
        shutil.copy(os.path.join(SHARED, f), os.path.join(DEST, f))
        os.chmod(os.path.join(DEST, f), 0o644)
    # statusline
    write_json("statusline-session-start.json", "q5-footer-150000", captures("q5-footer-150000", "statusline")[0])
    write_json("statusline-after-reply-cache.json", "q5-cache-150000",
               captures("q5-cache-150000", "statusline", lambda p: p["context_window"]["current_usage"] and
                        p["context_window"]["current_usage"]["input_tokens"] == 5000)[-1])
    write_json("statusline-after-compact.json", "q5-compact-150000",
               captures("q5-compact-150000", "statusline",
                        lambda p: p.get("prompt_id") and p["context_window"]["current_usage"] is None)[0])
    write_json("statusline-1m-960k.json", "q5-footer-960000-claude-sonnet-4-51m",
               captures("q5-footer-960000-claude-sonnet-4-51m", "statusline",
                        lambda p: p["context_window"]["current_usage"] is not None)[-1])
    # compaction
    auto = "q3-auto-167000-AUTO_COMPACT_WINDOW=200000"
    write_json("precompact-auto.json", auto, captures(auto, "PreCompact")[-1])
    write_json("postcompact-auto.json", auto, captures(auto, "PostCompact")[0])
    write_json("sessionstart-compact.json", auto, captures(auto, "SessionStart", lambda p: p["source"] == "compact")[0])
    write_json("subagentstop-compaction.json", auto, captures(auto, "SubagentStop")[0])
    write_transcript("transcript-compacted-auto.jsonl", auto)
    write_json("precompact-manual.json", "q5-compact-150000", captures("q5-compact-150000", "PreCompact")[0])
    write_json("postcompact-manual.json", "q5-compact-150000", captures("q5-compact-150000", "PostCompact")[0])
    write_transcript("transcript-compacted-manual.jsonl", "q5-compact-150000")
    write_json("messages-summary-request.json", auto, request_messages(
        auto, lambda b: "create a detailed summary of the conversation" in json.dumps(b["messages"][-1:])))
    # subagents
    write_json("posttooluse-agent-background.json", "q1-subagent",
               captures("q1-subagent", "PostToolUse", lambda p: p["tool_name"] == "Agent")[0])
    write_json("posttooluse-agent-foreground.json", "q1-subagent-fg",
               captures("q1-subagent-fg", "PostToolUse", lambda p: p["tool_name"] == "Agent")[0])
    write_json("subagentstop-background.json", "q1-subagent", captures("q1-subagent", "SubagentStop")[0])
    write_json("subagentstop-stop-hook-active.json", "q7-substop-fg",
               captures("q7-substop-fg", "SubagentStop", lambda p: p["stop_hook_active"])[0])
    write_json("messages-subagent-posttooluse-context.json", "q1-subagent-fg", request_messages(
        "q1-subagent-fg", lambda b: "PROBE-SUB" in json.dumps(b["messages"][:1]) and len(b["messages"]) == 3))
    write_json("messages-main-after-background-agent.json", "q1-subagent", request_messages(
        "q1-subagent", lambda b: "task-notification" in json.dumps(b["messages"][-1:])))
    # additionalContext over the cap
    msgs = request_messages("q2-SessionStart-ascii-10001", lambda b: "persisted-output" in json.dumps(b["messages"]))
    block = [b for m in msgs for b in (m["content"] if isinstance(m["content"], list) else [])
             if "persisted-output" in b.get("text", "")][0]
    write_json("sessionstart-context-over-cap-block.json", "q2-SessionStart-ascii-10001", block)
    print("\n".join(sorted(os.listdir(DEST))))


if __name__ == "__main__":
    main()
