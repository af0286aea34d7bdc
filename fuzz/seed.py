#!/usr/bin/env python3
"""Writes the seed inputs of the fuzz corpus (fuzz/corpus/<target>/seed-*) from the test
fixtures: the payloads and transcripts captured from Claude Code (tests/fixtures/claude-code-*),
the suite's GSD project (tests/fixtures/gsd/, tests/agents/mod.rs's plans), BMAD's context store
example (tests/fixtures/bmad/) and a journal written by `baton ctx`. Inputs the fuzzer found
(crash-*, keep-*) are left as they are. Run from anywhere: python3 fuzz/seed.py
"""

import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = ROOT / "fuzz" / "corpus"
CLIENTS = sorted(FIXTURES.glob("claude-code-*"))
# A transcript's last lines: enough for the readers, small enough for a corpus.
TAIL_BYTES = 12 * 1024


def read(path):
    return path.read_bytes()


def tail_lines(data, limit=TAIL_BYTES):
    """The last whole lines of a transcript that fit in `limit` bytes (a longer last line alone)."""
    lines = data.rstrip(b"\n").split(b"\n")
    out = []
    size = 0
    for line in reversed(lines):
        if out and size + len(line) + 1 > limit:
            break
        out.append(line)
        size += len(line) + 1
    return b"\n".join(reversed(out)) + b"\n"


def short_lines(data, kinds, limit=6000):
    """Lines of a transcript of the given `type`s and under `limit` bytes, one per distinct shape."""
    seen = set()
    for line in data.split(b"\n"):
        if not line or len(line) > limit:
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        shape = (value.get("type"), value.get("subtype"), value.get("isSidechain"))
        if value.get("type") in kinds and shape not in seen:
            seen.add(shape)
            yield line


def payloads(prefixes):
    for client in CLIENTS:
        for path in sorted(client.glob("*.json")):
            if path.name.startswith(prefixes):
                yield client.name, path


def transcripts():
    for client in CLIENTS:
        for path in sorted(client.glob("transcript-*.jsonl")):
            yield client.name, path


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (folder / f"seed-{name}").write_bytes(data)


def main():
    for folder in CORPUS.glob("*"):
        for old in folder.glob("seed-*"):
            old.unlink()

    state = (FIXTURES / "gsd" / "STATE.md").read_text()
    roadmap = (FIXTURES / "gsd" / "ROADMAP.md").read_text()
    store = json.loads((FIXTURES / "bmad" / "context-store-example.json").read_text())
    main_tail = tail_lines(read(FIXTURES / "claude-code-2.1.197" / "transcript-headless-3-tools.jsonl"), 4 * 1024)
    sub_tail = tail_lines(read(FIXTURES / "claude-code-2.1.332" / "transcript-subagent.jsonl"), 4 * 1024)
    handoff = {
        "version": "1.0", "timestamp": "2026-11-30T10:00:00Z", "phase": 3, "phase_name": "Cart",
        "phase_dir": ".planning/phases/03-cart", "plan": 2, "task": 3, "total_tasks": 5, "status": "paused",
        "completed_tasks": [{"id": 1, "name": "Schema", "status": "done", "commit": "abc1234"}],
        "remaining_tasks": [{"id": 3, "name": "Routes", "status": "in_progress"}, "Tests"],
        "blockers": [{"description": "Stripe key missing", "type": "human_action", "workaround": None}],
        "human_actions_pending": [{"action": "Add STRIPE_KEY to .env", "context": "payments", "blocking": True}],
        "decisions": [{"decision": "Cart lives server-side", "rationale": "reloads", "phase": "3"}],
        "uncommitted_files": ["src/cart.rs"], "next_action": "Finish the cart API routes",
        "context_notes": "Quantity updates race; see 03.1.", "git_branch": "feat/cart",
    }

    # Hooks: every captured payload with a transcript tail after it; some with project files.
    for client, path in payloads(("posttooluse", "sessionstart", "precompact", "postcompact", "subagent",
                                  "stop", "sessionend")):
        tail = sub_tail if "subagent" in path.name else main_tail
        write("hook", f"{client}-{path.stem}", read(path).rstrip() + b"\n" + tail)
        write("stdin_reader", f"{client}-{path.stem}", read(path))
    post = json.loads(read(FIXTURES / "claude-code-2.1.332" / "posttooluse.json"))
    scenes = {
        "posttooluse-planning": dict(post, fuzz={"state": state, "roadmap": roadmap}),
        "posttooluse-bridge": dict(post, fuzz={"bridge": {"session_id": post["session_id"], "remaining_percentage": 22,
                                                          "used_pct": 78, "timestamp": 1796000000}}),
        "sessionstart-handoff": dict(json.loads(read(FIXTURES / "claude-code-2.1.332" / "sessionstart.json")),
                                     fuzz={"state": state, "roadmap": roadmap, "handoff": handoff}),
        "precompact-planning": dict(json.loads(read(FIXTURES / "claude-code-2.1.332" / "precompact-auto.json")),
                                    fuzz={"state": state, "roadmap": roadmap}),
        "subagentstart-store": dict(json.loads(read(FIXTURES / "claude-code-2.1.332" / "subagentstart.json")),
                                    agent_type="pm", fuzz={"store": dict(store, agents=dict(
                                        store["agents"], pm={"status": "pending", "inputs": {
                                            "brief": "@agents.analyst.outputs.project_brief"}}))}),
    }
    for name, payload in scenes.items():
        write("hook", name, json.dumps(payload, indent=1).encode() + b"\n" + main_tail)

    # Statusline: every captured payload; with a transcript, a GSD project, a task, a width.
    for client, path in payloads(("statusline",)):
        write("statusline", f"{client}-{path.stem}", read(path).rstrip() + b"\n" + main_tail)
        write("stdin_reader", f"{client}-{path.stem}", read(path))
    status = json.loads(read(FIXTURES / "claude-code-2.1.332" / "statusline.json"))
    write("statusline", "planning-columns", json.dumps(dict(status, fuzz={
        "state": state, "roadmap": roadmap, "columns": 60})))
    write("statusline", "task-columns", json.dumps(dict(status, fuzz={"columns": 40, "tasks": [
        {"id": "1", "subject": "Run the tests", "activeForm": "Running the integration tests 修复登录",
         "status": "in_progress"}]})))
    write("statusline", "no-usage", json.dumps({k: v for k, v in status.items() if k != "context_window"}).encode()
          + b"\n" + main_tail)
    write("stdin_reader", "bom-and-trailer", b"\xef\xbb\xbf \n" + read(FIXTURES / "claude-code-2.1.332" / "stop.json")
          + b"{\"more\":1}")

    # Transcript readers: the last lines of each capture, and one behind a large tool result.
    for client, path in transcripts():
        data = tail_lines(read(path))
        write("transcript_tail", f"{client}-{path.stem}", data)
        write("usage_scan", f"{client}-{path.stem}", data)
        for i, line in enumerate(short_lines(read(path), ("assistant", "system"))):
            write("usage_line", f"{client}-{path.stem}-{i}", line)
    padded = main_tail + b'{"pad":70000}\n' + b'{"type":"user","message":{"content":"ok"}}\n'
    write("transcript_tail", "behind-a-large-result", padded)
    write("usage_scan", "across-a-chunk-edge", main_tail + b'{"pad":300000}\n' + main_tail)

    # Planning files.
    write("state_md", "gsd-template", state)
    write("state_md", "gsd-template-crlf-bom", "\ufeff" + state.replace("\n", "\r\n"))
    write("state_md", "paused", state.replace("status: executing", "status: paused\npaused_at: 2026-11-29T10:00:00Z"))
    write("state_md", "no-frontmatter", "# Project State\n\nPhase: 2.1 of 5 (Hotfix)\nStatus: Ready to plan\n")
    write("roadmap_md", "gsd-template", roadmap)
    write("roadmap_md", "gsd-template-crlf", roadmap.replace("\n", "\r\n"))
    plans = [
        "wave: 1\ndepends_on: [\"02-01\"]\nfiles_modified:\n  - src/api/users.ts\n  - src/db.ts",
        "wave: 1\ndepends_on: []\nfiles_modified: [src/api/users.ts, src/api/auth.ts]",
        "wave: 2\ndepends_on: [\"03-01\", \"03-04\"]\nfiles_modified: [src/api/routes.ts]",
        "wave: 2\ndepends_on: [\"03-01\"]\nfiles_modified: [src/middleware/]",
        "depends_on: [\"03-06\"]\nfiles_modified: []",
        "depends_on: [\"05\"]\nfiles_modified: []",
    ]
    write("plan_frontmatter", "suite-phase", "\n=====\n".join(
        f"---\nphase: 03-api\nplan: {i + 1:02}\ntype: execute\n{front}\nautonomous: true\n---\n\n<objective>x</objective>\n"
        for i, front in enumerate(plans)))

    # HANDOFF.json: GSD's schema with baton's fields, and the oddities GSD and agents write.
    write("handoff", "gsd", json.dumps(handoff, indent=2))
    write("handoff", "baton", json.dumps(dict(handoff, generator="baton", trigger="pre-compact", session_id="s1")))
    write("handoff", "odd-shapes", json.dumps(dict(handoff, blockers="Key", uncommitted_files=None,
                                                   human_actions_pending={"action": "Approve", "blocking": "yes"})))

    # settings.json: the example, an empty object, GSD's wiring and another statusLine.
    write("settings", "example", read(ROOT / "settings.example.json"))
    write("settings", "empty-object", "{}\n")
    write("settings", "gsd-and-ccstatusline", json.dumps({
        "model": "opus",
        "statusLine": {"type": "command", "command": "npx ccstatusline@latest", "padding": 0},
        "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "node ~/.claude/hooks/gsd-context-monitor.js"}]}]},
    }, indent=4))

    # The context store: paths into BMAD's example, a second document for diff.
    doc = json.dumps(store)
    changed = json.loads(doc)
    changed["agents"]["pm"] = {"status": "in_progress", "inputs": {"brief": "@agents.analyst.outputs.project_brief"}}
    changed["current_step"] = 4
    write("store_path", "dotted", "agents.analyst.outputs.project_brief\n" + doc + "\n" + json.dumps(changed))
    write("store_path", "pointer", "/global_context/technical_stack/preferences/0\n" + doc)
    write("store_path", "references", "agents.pm.inputs\n" + json.dumps(changed))
    # References that fan out (30 levels of two each: 2^30 values, refused before they are
    # built), and values at the store's depth limit and past it.
    levels = {f"l{i}": [f"@global_context.l{i + 1}"] * 2 for i in range(30)}
    fan_out = dict(store, global_context=dict(levels, l30="leaf"))
    write("store_path", "fan-out", "global_context.l0\n" + json.dumps(fan_out))
    write("store_path", "fan-out-fits", "global_context.l26\n" + json.dumps(fan_out))
    deep = ".".join(["k"] * 60)
    write("store_path", "deep-at-limit", deep + "\n" + doc + "\n" + "[" * 40 + "]" * 40)
    write("store_path", "deep-past-limit", deep + "\n" + doc + "\n" + "[" * 41 + "]" * 41)
    journal = read(ROOT / "fuzz" / "seed-journal.jsonl")
    write("journal", "baton-ctx", b"\x02" + journal)
    write("journal", "torn", b"\x01" + journal + journal[:40])
    write("journal", "long-lines", b"\x03" + journal + b'{"pad":70000}\n' + journal)
    # The first byte's high bits nest the changes 92 levels deeper (just within the limit), then
    # 124; lines without the document's hash after the last one with it (a batch cut short).
    unfinished = b"".join(
        json.dumps({k: v for k, v in json.loads(line).items() if k not in ("size", "hash")}).encode() + b"\n"
        for line in journal.splitlines())
    write("journal", "deep", bytes([23 << 3 | 2]) + journal + unfinished)
    write("journal", "deep-past-limit", bytes([31 << 3 | 2]) + journal)


if __name__ == "__main__":
    main()
