#!/usr/bin/env python3
"""Times `baton ctx get` and `baton ctx set` on a store of 100,000 versions with a 10 MB
document against a store of 10 versions with the same document (interleaved, round by
round), the SubagentStart hook on the 10 MB document for an agent it does not name and for
one it does (whose status each hook writes), and measures how much one small `set` adds to
the journal on the 10 MB document and on a 1 KB one. Python 3 standard library only."""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time


def document(megabytes):
    """The proposal's shape, with a corpus of notes making it `megabytes` large."""
    doc = {
        "session_id": "bench",
        "project_name": "task-management-app",
        "workflow_type": "greenfield-fullstack",
        "current_step": 3,
        "context_version": "1.0.0",
        "agents": {
            "analyst": {"status": "completed", "outputs": {"project_brief": {
                "file_path": "artifacts/project-brief.md",
                "structured_data": {"target_users": ["team_leads", "team_members"]},
                "execution_time": "2024-01-01T10:00:00Z", "quality_score": 8.5}}},
            "pm": {"status": "in_progress", "inputs": {"project_brief": "@agents.analyst.outputs.project_brief"}},
        },
        "global_context": {"counters": {}, "notes": {}},
    }
    body = "lorem ipsum dolor sit amet " * 17
    size = len(json.dumps(doc))
    i = 0
    while size < megabytes * 1024 * 1024:
        note = {"title": f"note {i}", "body": body, "tags": ["bench", f"t{i % 97}"]}
        doc["global_context"]["notes"][f"n{i:06d}"] = note
        size += len(json.dumps(note)) + 16
        i += 1
    return doc


def run(baton, cwd, env, args, stdin=None):
    command = args if args[0] == "hook" else ["ctx", *args]
    out = subprocess.run([baton, *command], cwd=cwd, env=env, input=stdin, capture_output=True)
    if out.returncode != 0:
        sys.exit(f"baton {' '.join(command)} failed in {cwd}: {out.stderr.decode()}")
    return out.stdout


def make_store(baton, work, name, doc_path, versions, env):
    """A fresh store started from `doc_path` with `versions` versions; seconds taken."""
    project = os.path.join(work, name)
    shutil.rmtree(project, ignore_errors=True)
    os.makedirs(os.path.join(project, ".baton"))
    start = time.perf_counter()
    run(baton, project, env, ["init", "--from", doc_path, "--as", "bench"])
    lines = "".join(
        json.dumps({"set": f"global_context.counters.c{i % 1000:04d}", "value": i}) + "\n"
        for i in range(1, versions))
    if lines:
        run(baton, project, env, ["batch", "--stdin", "--as", "bench"], lines.encode())
    return project, time.perf_counter() - start


def dir_bytes(project):
    path = os.path.join(project, ".baton", "context")
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))


def timed(baton, project, env, args, stdin=None):
    start = time.perf_counter_ns()
    run(baton, project, env, args, stdin)
    return (time.perf_counter_ns() - start) / 1e6


def hook_payload(project, event, agent_type):
    """A SubagentStart/SubagentStop payload of the shape Claude Code sends."""
    return json.dumps({"session_id": "bench", "transcript_path": os.path.join(project, "missing.jsonl"),
                       "cwd": project, "agent_id": "a0000000000000001", "agent_type": agent_type,
                       "hook_event_name": event, "last_assistant_message": "Done."}).encode()


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--baton", required=True)
    ap.add_argument("--work", required=True, help="directory for the generated stores")
    ap.add_argument("-n", type=int, default=15, help="rounds")
    ap.add_argument("--megabytes", type=float, default=10)
    ap.add_argument("--versions", type=int, default=100_000)
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    env = dict(os.environ, TMPDIR=a.work)
    env.pop("BATON_AGENT", None)

    big = os.path.join(a.work, "document-10mb.json")
    with open(big, "w") as f:
        json.dump(document(a.megabytes), f)
    small = os.path.join(a.work, "document-1kb.json")
    with open(small, "w") as f:
        json.dump(document(0), f)
    doc_bytes = os.path.getsize(big)

    many, many_s = make_store(a.baton, a.work, "many", big, a.versions, env)
    few, few_s = make_store(a.baton, a.work, "few", big, 10, env)
    tiny, _ = make_store(a.baton, a.work, "tiny", small, 10, env)
    print(f"document: {doc_bytes / 1e6:.1f} MB; generated {a.versions:,} versions in {many_s:.1f} s "
          f"(init --from + one `ctx batch`), 10 versions in {few_s:.1f} s")
    many_store = dir_bytes(many)
    journal = sum(os.path.getsize(os.path.join(many, ".baton/context", f))
                  for f in os.listdir(os.path.join(many, ".baton/context")) if f.startswith("journal-"))
    print(f"store of {a.versions:,} versions: .baton/context/ {many_store / 1e6:.1f} MB "
          f"(journal {journal / 1e6:.1f} MB, snapshots {(many_store - journal) / 1e6:.1f} MB); "
          f"whole-state checkpoints would take {a.versions * doc_bytes / 1e12:.2f} TB")

    times = {k: [] for k in ("get many", "get few", "set many", "set few", "hook other", "hook named")}
    other = hook_payload(few, "SubagentStart", "general-purpose")
    named = [hook_payload(few, event, "pm") for event in ("SubagentStart", "SubagentStop")]
    growth = {"10 MB document": [], "1 KB document": []}
    for r in range(a.n + 2):
        sample = {
            "get many": timed(a.baton, many, env, ["get", "agents.pm.status"]),
            "get few": timed(a.baton, few, env, ["get", "agents.pm.status"]),
            "set many": timed(a.baton, many, env, ["set", "agents.pm.status", f"round {r}"]),
            "set few": timed(a.baton, few, env, ["set", "agents.pm.status", f"round {r}"]),
            # An agent the document does not name; then one it names, whose status each
            # SubagentStart and SubagentStop writes (a version each, on the 10 MB document).
            "hook other": timed(a.baton, few, env, ["hook"], other),
            "hook named": timed(a.baton, few, env, ["hook"], named[r % 2]),
        }
        for store, key in ((few, "10 MB document"), (tiny, "1 KB document")):
            before = dir_bytes(store)
            run(a.baton, store, env, ["set", "agents.pm.status", f"grow {r:04d}"])
            growth[key].append(dir_bytes(store) - before)
        if r >= 2:  # two warm-up rounds
            for k, v in sample.items():
                times[k].append(v)

    print(f"\n  {'command':<34}{'median ms':>10}{'p90 ms':>10}{'min ms':>10}")
    med = {}
    for k, v in times.items():
        v.sort()
        med[k] = statistics.median(v)
        labels = {"hook other": "SubagentStart, agent not named", "hook named": "SubagentStart/Stop, named"}
        label = labels.get(k) or (f"{k.split()[0]} ({a.versions:,} versions)" if k.endswith("many")
                                  else f"{k.split()[0]} (10 versions)")
        print(f"  {label:<34}{med[k]:>10.1f}{v[int(len(v) * 0.9) - 1]:>10.1f}{v[0]:>10.1f}")
    print(f"\n  journal bytes added by one set    {'median':>8}{'max':>8}")
    grow = {}
    for k, v in growth.items():
        grow[k] = statistics.median(v)
        print(f"  {k:<34}{grow[k]:>8.0f}{max(v):>8}")

    checks = []
    for op in ("set", "get"):
        ratio = med[f"{op} many"] / med[f"{op} few"]
        checks.append((f"{op}: {a.versions:,} versions within 1.5x of 10 versions", max(ratio, 1 / ratio) <= 1.5,
                       f"{ratio:.2f}x"))
    ratio = grow["10 MB document"] / max(grow["1 KB document"], 1)
    checks.append(("journal grows with the change, not the document", ratio <= 1.5 and grow["10 MB document"] < 4096,
                   f"{grow['10 MB document']:.0f} B vs {grow['1 KB document']:.0f} B per set ({ratio:.2f}x)"))
    ratio = med["hook other"] / med["get few"]
    checks.append(("hook for an agent the document does not name: under half a get", ratio <= 0.5,
                   f"{med['hook other']:.1f} ms vs {med['get few']:.1f} ms ({ratio:.2f}x)"))
    bound = 2 * journal + 2 * doc_bytes
    checks.append(("store size bounded by the changes (2x journal + 2x document)", many_store <= bound,
                   f"{many_store / 1e6:.1f} MB <= {bound / 1e6:.1f} MB"))
    print()
    for name, ok, detail in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name:<62} {detail}")
    if a.check and not all(ok for _, ok, _ in checks):
        sys.exit(1)


if __name__ == "__main__":
    main()
