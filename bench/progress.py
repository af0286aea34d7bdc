#!/usr/bin/env python3
"""Times `baton progress` on a large GSD project (default 200 phases x 10 plans = 2,000
plans, a quarter done), spawning the binary directly; prints median and p90 and checks
the target (median well under 50 ms). Python 3 standard library only."""

import argparse
import os
import statistics
import subprocess
import sys
import time


def make_project(root, phases, plans_per_phase, done_phases=None):
    """A project whose first `done_phases` phases (default: a quarter) are checked in the
    roadmap and have every summary; the rest are planned but not started."""
    if done_phases is None:
        done_phases = phases // 4
    planning = os.path.join(root, ".planning")
    marker = os.path.join(planning, f".bench-{phases}x{plans_per_phase}-{done_phases}")
    if os.path.exists(marker):
        return
    os.makedirs(os.path.join(planning, "phases"), exist_ok=True)
    lines = ["# Roadmap: Big\n", "\n## v1.0 Big\n\n"]
    for p in range(1, phases + 1):
        lines.append(f"- [{'x' if p <= done_phases else ' '}] **Phase {p}: Phase {p}** - work\n")
        d = os.path.join(planning, "phases", f"{p:03d}-phase-{p}")
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, f"{p:03d}-CONTEXT.md"), "w").write("context\n")
        for n in range(1, plans_per_phase + 1):
            open(os.path.join(d, f"{p:03d}-{n:02d}-PLAN.md"), "w").write("---\nwave: 1\n---\nplan\n")
            if p <= done_phases:
                open(os.path.join(d, f"{p:03d}-{n:02d}-SUMMARY.md"), "w").write("summary\n")
    open(os.path.join(planning, "ROADMAP.md"), "w").write("".join(lines))
    open(os.path.join(planning, "STATE.md"), "w").write(
        "---\nmilestone: v1.0\nmilestone_name: Big\nstatus: executing\n---\n\n## Current Position\n\n"
        f"Phase: {done_phases + 1} of {phases}\n\n## Accumulated Context\n\n### Blockers/Concerns\n\n- none worth noting\n")
    open(marker, "w").write("")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--baton", required=True)
    ap.add_argument("--work", required=True, help="directory for the generated project")
    ap.add_argument("--phases", type=int, default=200)
    ap.add_argument("--plans", type=int, default=10, help="plans per phase")
    ap.add_argument("-n", type=int, default=50, help="runs")
    ap.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    a = ap.parse_args()
    project = os.path.join(a.work, f"progress-{a.phases}x{a.plans}")
    make_project(project, a.phases, a.plans)
    times = []
    for i in range(a.n + 3):
        start = time.perf_counter_ns()
        out = subprocess.run([a.baton, "progress", "--json"], cwd=project, capture_output=True)
        elapsed = (time.perf_counter_ns() - start) / 1e6
        if out.returncode != 0:
            sys.exit(f"baton progress failed: {out.stderr.decode()}")
        if i >= 3:  # warm-up runs are not counted
            times.append(elapsed)
    times.sort()
    median = statistics.median(times)
    p90 = times[int(len(times) * 0.9) - 1]
    print(f"baton progress --json on {a.phases} phases / {a.phases * a.plans} plans: "
          f"median {median:.2f} ms, p90 {p90:.2f} ms ({a.n} runs)")
    ok = median < 50
    print(f"{'PASS' if ok else 'FAIL'}: median under 50 ms")
    if a.check and not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
