#!/usr/bin/env python3
"""Counts the bridge's non-test Rust lines, issue 31's measure (target: 14,000 or fewer):
lines under src/bridge (or the folder or file given) that are neither blank nor comments, outside
`#[cfg(test)]` items, in files other than tests.rs, hostile.rs, fixture.rs and *_tests.rs.

    scripts/bridge-lines.py [PATH] [-v]     (-v: the 60 largest files first)

Python 3 standard library only."""
import os, re, sys
args = [a for a in sys.argv[1:] if a != "-v"]
root = args[0] if args else "src/bridge"
total = 0; per = {}
walk = [(os.path.dirname(root), [], [os.path.basename(root)])] if os.path.isfile(root) else os.walk(root)
for d, _, fs in walk:
    for f in fs:
        if not f.endswith(".rs") or f in ("tests.rs", "hostile.rs", "fixture.rs") or f.endswith("_tests.rs"):
            continue
        p = os.path.join(d, f); n = 0
        lines = open(p, encoding="utf-8").read().split("\n")
        i = 0; in_block = False
        while i < len(lines):
            s = lines[i].strip()
            if s.startswith("#[cfg(test)]"):
                # skip the following item: count braces until balanced
                j = i + 1; depth = 0; started = False
                while j < len(lines):
                    t = lines[j]
                    depth += t.count("{") - t.count("}")
                    if "{" in t: started = True
                    if started and depth <= 0: break
                    if not started and t.strip().endswith(";"): break
                    j += 1
                i = j + 1; continue
            if in_block:
                if "*/" in s: in_block = False
                i += 1; continue
            if s.startswith("/*"):
                if "*/" not in s: in_block = True
                i += 1; continue
            if s and not s.startswith("//"):
                n += 1
            i += 1
        per[p] = n; total += n
if "-v" in sys.argv:
    for p, n in sorted(per.items(), key=lambda x: -x[1])[:60]:
        print(f"{n:6d} {p}")
print(total)
