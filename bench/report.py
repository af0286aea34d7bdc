#!/usr/bin/env python3
"""Side-by-side benchmark of `baton report` against ccusage and `grep -c usage`.

All three read the same generated session (~1 GB by default: a main transcript and six
subagent transcripts laid out as Claude Code does, under <work>/report-data/<size>/.claude),
with HOME and CLAUDE_CONFIG_DIR pointing there. Runs are interleaved, the page cache is
warmed first, and each figure is the median of the rounds; peak memory comes from wait4.
Then the token and cost totals of baton and ccusage are compared with the generator's own
account of what it wrote. Python 3 standard library only.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_data  # noqa: E402

GENERATOR_VERSION = "1"
# The prices README.md shows ("Prices"), typed in again so the truth does not come from
# baton: USD per million tokens (input, output, cache write 5m, cache write 1h, cache read).
PRICES = {
    "claude-opus-4-5-20251101": (5.0, 25.0, 6.25, 10.0, 0.50),
    "claude-sonnet-4-5-20250929": (3.0, 15.0, 3.75, 6.0, 0.30),
    "claude-haiku-4-5-20251001": (1.0, 5.0, 1.25, 2.0, 0.10),
}
SONNET_LONG = (6.0, 22.5, 7.5, 12.0, 0.60)


def dataset(work, size_bytes, seed):
    """Generates the data set once; returns (home, truth)."""
    home = os.path.join(work, "report-data", "%dMB-seed%d-v%s" % (size_bytes // 10**6, seed, GENERATOR_VERSION))
    truth_path = os.path.join(home, "truth.json")
    if not os.path.exists(truth_path):
        print("generating %.2f GB of transcripts under %s…" % (size_bytes / 1e9, home), file=sys.stderr)
        subprocess.run(["rm", "-rf", home], check=True)
        report_data.generate(home, size_bytes, seed)
    with open(truth_path) as f:
        return home, json.load(f)


def files_of(home):
    out = []
    for root, _, names in os.walk(os.path.join(home, ".claude", "projects")):
        out.extend(os.path.join(root, n) for n in names if n.endswith(".jsonl"))
    return sorted(out)


GNU_TIME = "/usr/bin/time"


def run_measured(cmd, env, cwd):
    """Runs cmd; returns (seconds, peak RSS in KiB, stdout). The peak comes from GNU time:
    wait4 from this process would report Python's own peak too (a vfork'd child inherits
    its parent's high-water mark until exec), so without GNU time it is an upper bound."""
    rss_file = os.path.join(cwd, ".rss")
    measured = [GNU_TIME, "-f", "%M", "-o", rss_file] + cmd if os.access(GNU_TIME, os.X_OK) else cmd
    start = time.perf_counter()
    proc = subprocess.Popen(measured, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    out, err = proc.communicate()
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit("%s failed (%d): %s" % (cmd[0], proc.returncode, err.decode(errors="replace")[:2000]))
    if measured is cmd:
        kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    else:
        with open(rss_file) as f:
            kib = int(f.read().split()[-1])
    return seconds, kib, out


def tools(args, home, truth):
    env = {"PATH": os.environ.get("PATH", ""), "HOME": home, "CLAUDE_CONFIG_DIR": os.path.join(home, ".claude"),
           "XDG_CONFIG_HOME": os.path.join(home, ".config"), "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
           "LC_ALL": "C", "NO_COLOR": "1"}
    table = [("baton", [args.baton, "report", "--json", "--session", truth["session"]]),
             ("grep -c usage", ["grep", "-c", "usage"] + files_of(home))]
    if args.ccusage:
        table.append(("ccusage", [args.ccusage, "session", "--json", "--offline"]))
    return env, table


def measure(args, home, truth, rounds):
    env, table = tools(args, home, truth)
    for path in files_of(home):  # warm the page cache for everyone
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass
    times = {name: [] for name, _ in table}
    rss = {name: [] for name, _ in table}
    outputs = {}
    for r in range(rounds):
        order = table[r % len(table):] + table[:r % len(table)]
        for name, cmd in order:
            seconds, kib, out = run_measured(cmd, env, home)
            times[name].append(seconds)
            rss[name].append(kib)
            outputs[name] = out
    return times, rss, outputs


def truth_cost(models):
    """The cost of what the generator wrote, from the prices typed in above; Sonnet's
    requests above 200k input tokens at its long-context rate."""
    total = 0.0
    kinds = ("input", "output", "cache_write_5m", "cache_write_1h", "cache_read")
    for model, t in models.items():
        long = t["long_context"]
        long_rates = SONNET_LONG if "sonnet" in model else PRICES[model]
        total += sum((t[k] - long[k]) * rate for k, rate in zip(kinds, PRICES[model])) / 1e6
        total += sum(long[k] * rate for k, rate in zip(kinds, long_rates)) / 1e6
    return total


def compare_totals(truth, outputs):
    print("\nTotals on the same files (generator's truth vs baton vs ccusage):")
    baton = json.loads(outputs["baton"])
    rows = {m["model"]: m for m in baton["resources"]["models"]}
    cc = None
    if "ccusage" in outputs:
        cc_json = json.loads(outputs["ccusage"])
        cc = {}
        for s in cc_json.get("session", []):
            for b in s.get("modelBreakdowns", []):
                acc = cc.setdefault(b["modelName"], {"input": 0, "output": 0, "cache_create": 0, "cache_read": 0,
                                                     "cost": 0.0})
                acc["input"] += b["inputTokens"]
                acc["output"] += b["outputTokens"]
                acc["cache_create"] += b["cacheCreationTokens"]
                acc["cache_read"] += b["cacheReadTokens"]
                acc["cost"] += b["cost"]
    header = "  %-28s %-8s %14s %14s %14s %16s %12s" % ("model", "source", "input", "output", "cache write",
                                                         "cache read", "cost USD")
    print(header)
    all_equal = True
    for model, t in sorted(truth["models"].items()):
        want = (t["input"], t["output"], t["cache_write_5m"] + t["cache_write_1h"], t["cache_read"])
        print("  %-28s %-8s %14d %14d %14d %16d %12s" % (model, "truth", *want, "—"))
        r = rows.get(model)
        got = (r["tokens"]["input"], r["tokens"]["output"],
               r["tokens"]["cache_write_5m"] + r["tokens"]["cache_write_1h"], r["tokens"]["cache_read"]) if r else None
        print("  %-28s %-8s %14d %14d %14d %16d %12.2f  %s" % (model, "baton", *(got or (0, 0, 0, 0)),
                                                             (r or {}).get("cost_usd") or 0.0,
                                                             "= truth" if got == want else "DIFFERS"))
        all_equal &= got == want and r["requests"] == t["requests"]
        if cc is not None:
            c = cc.get(model, {})
            got = (c.get("input", 0), c.get("output", 0), c.get("cache_create", 0), c.get("cache_read", 0))
            print("  %-28s %-8s %14d %14d %14d %16d %12.2f  %s" % (model, "ccusage", *got, c.get("cost", 0.0),
                                                                 "= truth" if got == want else "DIFFERS"))
    cost = baton["resources"]["total"]["cost_usd"]
    want = truth_cost(truth["models"])
    long = sum(t["long_context_requests"] for t in truth["models"].values())
    print("\n  total cost, truth (README.md prices, %d long-context requests):   %12.2f" % (long, want))
    print("  total cost, baton:                                                %12.2f  %s"
          % (cost, "= truth" if abs(cost - want) < 0.01 else "DIFFERS"))
    all_equal &= abs(cost - want) < 0.01
    if cc is not None:
        print("  total cost, ccusage:                                              %12.2f"
              % sum(c["cost"] for c in cc.values()))
    return all_equal


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baton", required=True)
    p.add_argument("--ccusage")
    p.add_argument("--work", required=True, help="where the data sets live (target/bench)")
    p.add_argument("--gb", type=float, default=1.0, help="size of the data set (default 1.0)")
    p.add_argument("-n", "--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="0.25 GB, 3 rounds")
    p.add_argument("--check", action="store_true", help="exit 1 when a target fails")
    args = p.parse_args()
    if args.quick:
        args.gb, args.rounds = 0.25, 3
    size = int(args.gb * 1e9)
    home, truth = dataset(args.work, size, args.seed)
    small_home, small_truth = dataset(args.work, size // 8, args.seed)
    gb = truth["bytes"] / 1e9
    print("baton report benchmark: %.2f GB in %d transcripts (%d API responses), %d rounds, %d CPUs, load %s"
          % (gb, truth["files"], sum(m["requests"] for m in truth["models"].values()), args.rounds,
             os.cpu_count(), " ".join("%.1f" % x for x in os.getloadavg())))
    times, rss, outputs = measure(args, home, truth, args.rounds)
    print("\n  %-16s %10s %10s %12s %14s %14s" % ("tool", "median s", "GB/s", "vs baton", "max RSS MiB", "runs s"))
    med = {k: statistics.median(v) for k, v in times.items()}
    for name in times:
        print("  %-16s %10.3f %10.2f %11.1fx %14.1f   %s" % (
            name, med[name], gb / med[name], med[name] / med["baton"], max(rss[name]) / 1024,
            " ".join("%.2f" % t for t in times[name])))
    small_times, small_rss, _ = measure(args, small_home, small_truth, max(3, args.rounds // 2))
    print("\n  memory vs size: baton %.1f MiB at %.2f GB, %.1f MiB at %.2f GB" % (
        max(small_rss["baton"]) / 1024, small_truth["bytes"] / 1e9, max(rss["baton"]) / 1024, gb))
    if "ccusage" in small_rss:
        print("                  ccusage %.1f MiB at %.2f GB, %.1f MiB at %.2f GB" % (
            max(small_rss["ccusage"]) / 1024, small_truth["bytes"] / 1e9, max(rss["ccusage"]) / 1024, gb))
    equal = compare_totals(truth, outputs)

    checks = [("baton reads at >= 1 GB/s", gb / med["baton"] >= 1.0, "%.2f GB/s" % (gb / med["baton"])),
              ("baton within 3x of grep -c usage", med["baton"] <= 3 * med["grep -c usage"],
               "%.2fx" % (med["baton"] / med["grep -c usage"])),
              ("baton memory flat in transcript size", max(rss["baton"]) <= max(small_rss["baton"]) + 16 * 1024,
               "+%.1f MiB for 8x the data" % ((max(rss["baton"]) - max(small_rss["baton"])) / 1024)),
              ("baton token and cost totals equal the generator's", equal, "per model, de-duplicated")]
    if "ccusage" in med:
        checks.insert(0, ("baton >= 5x faster than ccusage", med["ccusage"] >= 5 * med["baton"],
                          "%.1fx" % (med["ccusage"] / med["baton"])))
    else:
        # A target that could not be measured is not met: --check fails on it.
        checks.insert(0, ("baton >= 5x faster than ccusage", None, "ccusage not available: not measured"))
    print()
    failed = 0
    for label, ok, detail in checks:
        mark = "PASS" if ok else ("SKIP" if ok is None and not args.check else "FAIL")
        print("%s  %s (%s)" % (mark, label, detail))
        failed += not ok
    if args.check and failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
