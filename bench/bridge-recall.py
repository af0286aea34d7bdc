#!/usr/bin/env python3
"""Scores `baton bridge` on checked-out public repositories against ground truth read by hand:
per category, recall (how much of the truth baton found) and precision (how much of what it
found is true), for every category a truth file holds.

    bench/bridge-recall.py --repos DIR [--truth DIR] [--baton PATH] [--only NAME] [--clone URL]
                           [--json FILE]

Each truth file (bench/bridge-truth/<owner>+<name>[@part].json) names a repository, the
commit its facts were read at and the files baton is given (`files`, "." by default); DIR/
<owner>+<name> (or DIR/<checkout> when the file names one) must be a checkout of that commit (a repository at
another commit is reported and skipped). --clone URL clones missing ones first, URL with
{repo} standing for owner/name (for example https://github.com/{repo}.git) and checks out
the commit. Only facts about the repositories are kept here, never their code.

Categories (each scored where the truth file has it):
  tables, columns        table names; (table, column) pairs of the tables found
  env                    environment variable names (compared upper-case)
  pipelines, jobs, steps, scans
                         CI files; (file, job), (file, named step), (file, scan tool)
  images                 pushed images, variables resolved
  findings               finding ids
  endpoints              "METHOD /full/path"
  request_shapes         "METHOD /full/path Shape"
  guards                 auth guard and middleware names
  endpoint_guards        "METHOD /full/path guard"
  components, shapes, validation
                         names
  client_routes          client-side route paths (full path, parents joined), as strings
                         (`routes` in older truth files)
  stores                 client state store names (Pinia store ids, Svelte stores, slices)
  context                of the categories baton found items in, the share contextForNext shows
Python 3 standard library only."""

import argparse
import json
import os
import subprocess
import sys

# The section of contextForNext that shows each kind of structured list.
SECTIONS = {
    "tables": "Tables:", "indexes": "Indexes:", "enums": "Enums:", "migrations": "Migrations:",
    "endpoints": "Endpoints:", "shapes": "Shapes:", "services": "Services:", "envVars": "Env vars:",
    "components": "Components:", "routes": "Routes:", "state": "State:",
    "designSystem": "Design system imports:", "pipelines": "Pipelines:", "dockerStages": "Docker stages:",
    "images": "Pushed images:", "findings": "Findings:", "guards": "Guards:", "dropped": "Dropped:",
}


def norm_table(name):
    """`public.users`, `"Users"` → `users` (schemas other than public kept)."""
    name = name.strip('"').lower()
    return name[len("public."):] if name.startswith("public.") else name


def extracted(structured):
    """What baton found, as sets of comparable strings per category."""
    tables = {norm_table(q(t)): t for t in structured.get("tables", [])}
    endpoints = structured.get("endpoints", [])
    guards = structured.get("guards", [])
    out = {
        "tables": set(tables),
        "columns": {(n, c["name"].lower()) for n, t in tables.items() for c in t.get("columns", [])},
        "env": {e["name"].upper() for e in structured.get("envVars", [])},
        "pipelines": {p["file"] for p in structured.get("pipelines", [])},
        "jobs": {(p["file"], j) for p in structured.get("pipelines", []) for j in p.get("jobs", [])},
        "steps": {(p["file"], s) for p in structured.get("pipelines", []) for s in p.get("steps", [])},
        "scans": {(p["file"], s["tool"]) for p in structured.get("pipelines", []) for s in p.get("scans", [])},
        "images": {image_name(i["name"]) for i in structured.get("images", [])},
        "findings": {f["id"] for f in structured.get("findings", [])},
        "endpoints": {f"{e['method']} {e['path']}" for e in endpoints},
        "request_shapes": {f"{e['method']} {e['path']} {e['request']}" for e in endpoints if e.get("request")},
        "guards": {g["name"] for g in guards if g.get("kind") != "validation"},
        "endpoint_guards": {f"{e['method']} {e['path']} {g}" for e in endpoints for g in e.get("guards", [])},
        "components": {c["name"] for c in structured.get("components", [])},
        "shapes": {s["name"] for s in structured.get("shapes", [])},
        "validation": {g["name"] for g in guards if g.get("kind") == "validation"},
        "client_routes": {r["path"] for r in structured.get("routes", [])},
        "stores": {s["name"] for s in structured.get("state", [])},
    }
    return out


def image_name(image):
    """`docker.io/acme/api:1.2` → `acme/api`: images are compared without tag or default registry."""
    slash = image.rfind("/")
    colon = image.rfind(":")
    if colon > slash:
        image = image[:colon]
    return image[len("docker.io/"):] if image.startswith("docker.io/") else image


def q(table):
    return f"{table['schema']}.{table['name']}" if table.get("schema") else table["name"]


def truth_sets(truth):
    """The truth file's facts as the same sets (only the categories it has)."""
    out = {}
    if "tables" in truth:
        out["tables"] = {norm_table(t["name"]) for t in truth["tables"]}
        out["columns"] = {(norm_table(t["name"]), c.lower()) for t in truth["tables"] for c in t.get("columns", [])}
    if "env" in truth:
        # Compared upper-case: pydantic settings and Windows read them without case.
        out["env"] = {e.upper() for e in truth["env"]}
    if "pipelines" in truth:
        pipelines = truth["pipelines"]
        out["pipelines"] = {p["file"] for p in pipelines}
        for key in ("jobs", "steps", "scans"):
            if any(key in p for p in pipelines):
                out[key] = {(p["file"], x) for p in pipelines for x in p.get(key, [])}
    if "images" in truth:
        out["images"] = {image_name(i) for i in truth["images"]}
    for key in ("findings", "endpoints", "request_shapes", "guards", "endpoint_guards", "components",
                "shapes", "validation", "client_routes", "stores"):
        if key in truth:
            out[key] = set(truth[key])
    if "client_routes" not in truth and "routes" in truth:
        # The older name of client_routes in the first front-end truth files.
        out["client_routes"] = set(truth["routes"])
    return out


def score(found, truth, pipeline_files):
    """(true positives, truth size, found size) per category of `truth`."""
    result = {}
    for key, want in truth.items():
        have = found.get(key, set())
        if key == "columns":
            # Columns are judged on the tables both sides have (a table missed is counted once).
            tables = {t for t, _ in want} & {t for t, _ in have}
            want = {x for x in want if x[0] in tables}
            have = {x for x in have if x[0] in tables}
        elif key in ("jobs", "steps", "scans"):
            # Only the pipelines the truth describes with that key.
            files = pipeline_files.get(key, set())
            have = {x for x in have if x[0] in files}
            want = {x for x in want if x[0] in files}
        result[key] = (len(want & have), len(want), len(have))
    return result


def context_coverage(handoff):
    """(sections shown, kinds with items) in contextForNext."""
    text = handoff.get("contextForNext", "")
    kinds = [k for k, title in SECTIONS.items() if handoff["structured"].get(k)]
    shown = [k for k in kinds if SECTIONS[k] in text]
    return len(shown), len(kinds)


def run_baton(baton, checkout, files):
    cmd = [baton, "bridge", "--agent", "eval-agent", "--json", "--files", *files]
    out = subprocess.run(cmd, cwd=checkout, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if out.returncode != 0:
        raise RuntimeError(f"baton bridge failed in {checkout}: {out.stderr.decode()}")
    return json.loads(out.stdout)


def checkout_of(repos, truth, clone):
    path = os.path.join(repos, truth["repo"].replace("/", "+"))
    if truth.get("checkout") and os.path.isdir(os.path.join(repos, truth["checkout"])):
        path = os.path.join(repos, truth["checkout"])
    if not os.path.isdir(path) and clone:
        url = clone.replace("{repo}", truth["repo"]).replace("{slug}", truth["repo"].replace("/", "+"))
        subprocess.run(["git", "clone", "-q", url, path], check=True)
        subprocess.run(["git", "-C", path, "checkout", "-q", truth["commit"]], check=True)
    if not os.path.isdir(path):
        return None, f"no checkout at {path}"
    head = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], stdout=subprocess.PIPE, text=True).stdout.strip()
    if head != truth["commit"]:
        return None, f"{path} is at {head[:12]}, the truth was read at {truth['commit'][:12]}"
    return path, None


def pct(a, b):
    return f"{100 * a / b:5.1f}%" if b else "    - "


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repos", required=True, help="directory of checkouts named <owner>+<name>")
    ap.add_argument("--truth", default=os.path.join(here, "bridge-truth"))
    ap.add_argument("--baton", default="baton", help="the baton to run (default: the one on PATH)")
    ap.add_argument("--only", help="score only the repository whose name contains this")
    ap.add_argument("--clone", help="clone missing checkouts from this URL template ({repo} = owner/name)")
    ap.add_argument("--json", help="write the scores to this file")
    a = ap.parse_args()
    if os.sep in a.baton:
        a.baton = os.path.abspath(a.baton)
    names = sorted(n for n in os.listdir(a.truth) if n.endswith(".json"))
    totals, rows, report = {}, [], {}
    for name in names:
        if a.only and a.only not in name:
            continue
        truth = json.load(open(os.path.join(a.truth, name)))
        checkout, why = checkout_of(a.repos, truth, a.clone)
        if checkout is None:
            print(f"skipped {truth['repo']}: {why}", file=sys.stderr)
            continue
        files = truth.get("files", ".")
        handoff = run_baton(a.baton, checkout, files if isinstance(files, list) else [files])
        label = truth["repo"] + ("@" + name.split("@", 1)[1][:-5] if "@" in name else "") + (" (held out)" if truth.get("heldout") else "")
        wanted = truth_sets(truth)
        pipeline_files = {key: {p["file"] for p in truth.get("pipelines", []) if key in p} for key in ("jobs", "steps", "scans")}
        scores = score(extracted(handoff["structured"]), wanted, pipeline_files)
        shown, kinds = context_coverage(handoff)
        scores["context"] = (shown, kinds, kinds)
        report[label] = {k: {"truePositives": tp, "truth": t, "found": f} for k, (tp, t, f) in scores.items()}
        for key, (tp, t, f) in scores.items():
            acc = totals.setdefault(key, [0, 0, 0])
            acc[0] += tp
            acc[1] += t
            acc[2] += f
            rows.append((label, key, tp, t, f))
    if not rows:
        sys.exit("nothing scored: give --repos with checkouts at the truth files' commits (or --clone)")
    print(f"\n  {'repository':<56}{'category':<16}{'recall':>8}{'precision':>11}   found/truth")
    for repo, key, tp, t, f in rows:
        if key == "context":
            print(f"  {repo:<56}{key:<16}{pct(tp, t):>8}{'':>11}   {tp} of {t} kinds shown")
        else:
            print(f"  {repo:<56}{key:<16}{pct(tp, t):>8}{pct(tp, f):>11}   {tp}/{t} (found {f})")
    print(f"\n  {'all repositories':<56}{'category':<16}{'recall':>8}{'precision':>11}")
    for key, (tp, t, f) in totals.items():
        if key == "context":
            print(f"  {'':<56}{key:<16}{pct(tp, t):>8}{'':>11}   {tp} of {t} kinds shown")
        else:
            print(f"  {'':<56}{key:<16}{pct(tp, t):>8}{pct(tp, f):>11}   {tp}/{t} (found {f})")
    if a.json:
        json.dump({"repos": report, "totals": {k: {"truePositives": v[0], "truth": v[1], "found": v[2]} for k, v in totals.items()}},
                  open(a.json, "w"), indent=2)


if __name__ == "__main__":
    main()
