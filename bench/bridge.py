#!/usr/bin/env python3
"""Times `baton bridge` on a generated repository of 10,000 files (SQL migrations, Prisma
schemas, TypeScript, Python, CI YAML, Dockerfiles, .env files, Markdown), interleaved round by
round with what it is compared with:
  - a full run (`--files` every file, `--json`) beside the floor, tree-sitter's bare parse of
    the same signal files on the same threads (`baton bridge --parse-floor`, which reads the
    files first and times only the parse), and ripgrep matching the same signals (a reference);
  - a typical agent run: `--since HEAD~1` after a commit that changed 200 of the files.
Checks (--check exits 1 on a miss): the full run within 2x of the floor's process (issue 31;
the ratio to the parse alone is printed beside it), the typical run
under 100 ms, and every table the generator wrote extracted. Python 3 standard library only."""

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import time

# What baton extracts, as the patterns rg looks for: DDL, Prisma blocks, pipeline keys,
# Dockerfile stages, pushes, env declarations and reads, finding ids, route and component
# declarations.
RG_PATTERNS = [
    r"(?i)create\s+(unique\s+)?(table|index|type)",
    r"(?i)alter\s+table",
    r"^\s*(model|enum)\s+\w+\s*\{",
    r"^\s*(jobs|stages|variables|env):",
    r"(?i)^from\s+\S+(\s+as\s+\w+)?",
    r"docker\s+push|build-push-action",
    r"^[A-Z_][A-Z0-9_]*=",
    r"process\.env\.\w+|os\.environ|getenv\(",
    r"CVE-\d{4}-\d{4,}|GHSA-\w{4}-\w{4}-\w{4}|SEC-\d+",
    r"router\.(get|post|put|delete)\(|@(Get|Post|Controller)\(|@(app|router)\.(get|post)\(",
    r"export\s+(default\s+)?function\s+[A-Z]\w*",
]

KINDS = [  # (kind, share of the files)
    ("sql", 0.20),
    ("prisma", 0.02),
    ("ts", 0.10),
    ("tsx", 0.10),
    ("tsutil", 0.10),
    ("py", 0.10),
    ("pyutil", 0.10),
    ("workflow", 0.05),
    ("yaml", 0.08),
    ("dockerfile", 0.05),
    ("env", 0.05),
    ("md", 0.05),
]

COLUMN_TYPES = ["bigint", "integer", "text", "varchar(255)", "boolean", "timestamptz", "numeric(12,2)", "uuid", "jsonb"]


def sql_file(rng, i):
    table = f"table_{i:05d}"
    cols = [f"  col_{c} {rng.choice(COLUMN_TYPES)}{' NOT NULL' if rng.random() < 0.5 else ''}" for c in range(rng.randint(4, 10))]
    ref = f"table_{max(0, i - 1):05d}"
    return (
        f"-- Migration {i}: {table}\n"
        f"CREATE TABLE {table} (\n  id bigserial PRIMARY KEY,\n"
        + ",\n".join(cols)
        + f",\n  parent_id bigint REFERENCES {ref} (id)\n);\n"
        f"CREATE INDEX {table}_parent_idx ON {table} (parent_id);\n"
        f"INSERT INTO {table} (id) VALUES (1), (2), (3);\n"
    ), 1


def prisma_file(rng, i):
    models = []
    for m in range(3):
        name = f"Model{i}x{m}"
        fields = "\n".join(f"  field{f} {rng.choice(['String', 'Int', 'DateTime', 'Boolean'])}{'?' if rng.random() < 0.3 else ''}" for f in range(6))
        models.append(f"model {name} {{\n  id Int @id @default(autoincrement())\n{fields}\n\n  @@map(\"m_{i}_{m}\")\n}}\n")
    return "datasource db {\n  provider = \"postgresql\"\n  url = env(\"DATABASE_URL\")\n}\n\n" + "\n".join(models), 3


def ts_file(rng, i):
    lines = [
        "import { Router } from \"express\";",
        f"// Routes {i}. See CVE-2024-{10000 + i} for why input is validated." if i % 50 == 0 else f"// Routes {i}.",
        "export const router = Router();",
        f"const limit = Number(process.env.LIMIT_{i % 30} ?? 100);",
        "",
        f"router.get(\"/items/{i}/:id\", async (req, res) => {{",
        "  const id = req.params.id;",
        "  res.json({ id, limit, note: \"CREATE TABLE in a string is not DDL\" });",
        "});",
        "",
        f"export function Widget{i}(props: {{ title: string }}) {{",
        "  return props.title.toUpperCase();",
        "}",
    ]
    lines += [f"export const value{k} = {rng.randint(0, 1000)} * limit;" for k in range(rng.randint(5, 15))]
    return "\n".join(lines) + "\n", 0


def tsx_file(rng, i):
    return (
        'import { Button, Card } from "@acme/ui";\n'
        'import { useState } from "react";\n\n'
        f"type Props = {{ title: string; count?: number }};\n\n"
        f"export function Panel{i}({{ title, count = 0 }}: Props) {{\n"
        "  const [open, setOpen] = useState(false);\n"
        "  return (\n    <Card title={title}>\n"
        "      <Button onClick={() => setOpen(!open)}>{open ? \"Hide\" : \"Show\"} {count}</Button>\n"
        "    </Card>\n  );\n}\n"
    ), 0


def tsutil_file(rng, i):
    lines = [f"// Helpers {i}: formatting and small math."]
    for k in range(rng.randint(6, 16)):
        lines.append(f"export function format{k}x{i}(value: number): string {{\n  return (value * {k + 1}).toFixed(2);\n}}")
    return "\n".join(lines) + "\n", 0


def pyutil_file(rng, i):
    lines = [f'"""Helpers {i}."""', ""]
    for k in range(rng.randint(6, 16)):
        lines.append(f"def scale_{k}(value):\n    return value * {k + 1}\n")
    return "\n".join(lines) + "\n", 0


def py_file(rng, i):
    lines = [
        f'"""Module {i}."""',
        "import os",
        "from fastapi import APIRouter",
        "",
        f"router = APIRouter(prefix=\"/v1/things{i}\")",
        f"TIMEOUT = int(os.environ.get('TIMEOUT_{i % 20}', '30'))",
        "",
        "@router.get(\"/{thing_id}\")",
        f"def handler_{i}(thing_id: int):",
        "    # SEC-%d: validate the payload before use" % i if i % 40 == 0 else "    # validate the payload",
        "    return {'ok': True, 'timeout': TIMEOUT}",
    ]
    lines += [f"CONSTANT_{k} = {rng.randint(0, 10**6)}" for k in range(rng.randint(5, 15))]
    return "\n".join(lines) + "\n", 0


def workflow_file(rng, i):
    return (
        f"name: Pipeline {i}\non: [push]\nenv:\n  APP_ENV: ci\n  SERVICE_{i}: enabled\njobs:\n"
        f"  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: make test\n"
        f"  publish:\n    needs: test\n    runs-on: ubuntu-latest\n    steps:\n"
        f"      - run: |\n          docker build -t ghcr.io/acme/svc-{i}:latest .\n          docker push ghcr.io/acme/svc-{i}:latest\n"
    ), 0


def yaml_file(rng, i):
    keys = "\n".join(f"  key_{k}: {rng.randint(0, 999)}" for k in range(20))
    return f"# Settings of service {i}\nservice: svc-{i}\nsettings:\n{keys}\n", 0


def dockerfile(rng, i):
    return (
        f"FROM node:20-alpine AS deps\nWORKDIR /app\nCOPY package.json .\nRUN npm ci\n\n"
        f"FROM deps AS build\nCOPY . .\nRUN npm run build\n\nFROM gcr.io/distroless/nodejs20 AS runtime\n"
        f"COPY --from=build /app/dist /app\nCMD [\"/app/server-{i}.js\"]\n"
    ), 0


def env_file(rng, i):
    return "".join(f"VAR_{i}_{k}=value-{k}\n" for k in range(8)) + "# comment\n", 0


def md_file(rng, i):
    return f"# Notes {i}\n\n" + "Some prose about the service. " * 20 + ("\nTracked as CVE-2023-%d.\n" % (20000 + i) if i % 25 == 0 else "\n"), 0


WRITERS = {
    "sql": ("db/migrations/{i:05d}_create_table_{i:05d}.sql", sql_file),
    "prisma": ("services/svc{i:05d}/prisma/schema.prisma", prisma_file),
    "ts": ("src/routes/r{d:03d}/routes{i:05d}.ts", ts_file),
    "tsx": ("src/components/c{d:03d}/Panel{i:05d}.tsx", tsx_file),
    "tsutil": ("src/lib/l{d:03d}/format{i:05d}.ts", tsutil_file),
    "py": ("app/api{d:03d}/module{i:05d}.py", py_file),
    "pyutil": ("app/util{d:03d}/helpers{i:05d}.py", pyutil_file),
    "workflow": (".github/workflows/pipeline-{i:05d}.yml", workflow_file),
    "yaml": ("config/svc{d:03d}/settings-{i:05d}.yaml", yaml_file),
    "dockerfile": ("services/svc{i:05d}/Dockerfile", dockerfile),
    "env": ("services/svc{i:05d}/.env.example", env_file),
    "md": ("docs/d{d:03d}/notes-{i:05d}.md", md_file),
}


CHANGED = 200  # files the "typical agent run" commit changes


def make_repo(root, files):
    marker = os.path.join(root, f".bench-{files}-v3")
    listing = os.path.join(root, ".bench-files")
    if os.path.exists(marker):
        return open(listing).read().split("\n"), json.load(open(marker))
    rng = random.Random(42)
    paths, tables, size = [], 0, 0
    for kind, share in KINDS:
        pattern, writer = WRITERS[kind]
        for i in range(int(files * share)):
            path = pattern.format(i=i, d=i // 100)
            text, made = writer(rng, i)
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
            paths.append(path)
            tables += made
            size += len(text)
    subprocess.run(["git", "init", "-q", root], check=True)
    subprocess.run(["git", "-C", root, "add", "-A"], check=True)
    commit = ["git", "-C", root, "-c", "user.name=bench", "-c", "user.email=b@b", "-c", "commit.gpgsign=false", "commit", "-qm"]
    subprocess.run(commit + ["generated"], check=True)
    # The typical agent run: one commit that changes CHANGED files spread over the kinds.
    for path in paths[:: max(1, len(paths) // CHANGED)][:CHANGED]:
        full = os.path.join(root, path)
        comment = "--" if path.endswith(".sql") else "//" if path.endswith((".ts", ".tsx", ".prisma")) else "#"
        with open(full, "a") as f:
            f.write(f"\n{comment} changed by the agent\n")
    subprocess.run(["git", "-C", root, "add", "-A"], check=True)
    subprocess.run(commit + ["the agent's change"], check=True)
    facts = {"files": len(paths), "tables": tables, "bytes": size}
    open(listing, "w").write("\n".join(paths))
    json.dump(facts, open(marker, "w"))
    return paths, facts


def timed(cmd, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--baton", required=True)
    ap.add_argument("--rg", default="rg")
    ap.add_argument("--work", required=True, help="directory for the generated repository")
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("-n", type=int, default=10, help="rounds")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument("--max-ratio", type=float, default=2.0, help="the full run's target, as a multiple of the floor's process")
    ap.add_argument("--max-typical-ms", type=float, default=100.0, help="the typical run's target")
    a = ap.parse_args()
    root = os.path.join(a.work, f"bridge-{a.files}")
    os.makedirs(root, exist_ok=True)
    paths, facts = make_repo(root, a.files)
    baton_cmd = [a.baton, "bridge", "--agent", "bench-agent", "--json", "--files", *paths]
    floor_cmd = [a.baton, "bridge", "--parse-floor", "--files", *paths]
    typical_cmd = [a.baton, "bridge", "--agent", "bench-agent", "--json", "--since", "HEAD~1"]
    rg_cmd = [a.rg, "--no-config", "--hidden", "--no-messages", "-n", *sum((["-e", p] for p in RG_PATTERNS), []), "--", *paths]
    commands = [("baton", baton_cmd), ("floor", floor_cmd), ("typical", typical_cmd), ("rg", rg_cmd)]
    runs = {name: [] for name, _ in commands}
    cpu = {name: [] for name, _ in commands}
    parse_wall = []
    peak_rss_mib = 0.0
    handoff = typical = None
    for r in range(a.n + 1):
        order = commands[r % len(commands):] + commands[: r % len(commands)]
        for name, cmd in order:
            elapsed, used, out = timed(cmd, root)
            if name == "rg":
                if out.returncode not in (0, 1):
                    sys.exit(f"rg failed: {out.stderr.decode()}")
            elif out.returncode != 0:
                sys.exit(f"baton bridge ({name}) failed: {out.stderr.decode()}")
            elif name == "baton":
                handoff = json.loads(out.stdout)
            elif name == "typical":
                typical = json.loads(out.stdout)
            if r > 0:  # the first round warms the page cache
                runs[name].append(elapsed)
                cpu[name].append(used)
                if name == "floor":
                    parse_wall.append(float(re.search(r"in ([\d.]+) ms", out.stdout.decode()).group(1)) / 1000)
        peak_rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    med = {k: statistics.median(v) for k, v in runs.items()}
    floor = statistics.median(parse_wall)
    ratio = med["baton"] / med["floor"]
    mb = facts["bytes"] / 1e6
    load = os.getloadavg()[0]
    print(f"\n  repository: {facts['files']} files, {mb:.1f} MB, {facts['tables']} tables; {a.n} interleaved rounds; "
          f"{os.cpu_count()} cores, load average {load:.1f}\n")
    print(f"  {'run':<34}{'median s':>10}{'cpu s':>8}   runs s")
    labels = {
        "baton": "baton bridge --json (10,000 files)",
        "floor": "bare parse floor (its process)",
        "typical": f"typical run (--since, {CHANGED} files)",
        "rg": f"rg, {len(RG_PATTERNS)} patterns (reference)",
    }
    for name, _ in commands:
        shown = " ".join(f"{t:.3f}" for t in runs[name][:6])
        print(f"  {labels[name]:<34}{med[name]:>10.3f}{statistics.median(cpu[name]):>8.3f}   {shown}")
    print(f"  {'bare parse floor (the parse alone)':<34}{floor:>10.3f}{'':>8}   {' '.join(f'{t:.3f}' for t in parse_wall[:6])}")
    _, _, out = timed(baton_cmd + ["--timings"], root)
    print("  where baton's time goes (one run, --timings):")
    for line in out.stderr.decode().splitlines():
        print(f"    {line}")
    structured = handoff["structured"]
    got = len(structured["tables"])
    print(f"\n  baton: {got} tables, {len(structured['indexes'])} indexes, {len(structured['endpoints'])} endpoints, "
          f"{len(structured['components'])} components, {len(structured['pipelines'])} pipelines, "
          f"{len(structured['dockerStages'])} docker stages, {len(structured['envVars'])} env vars, "
          f"{len(structured['findings'])} findings; files read {handoff['files']['read']}; "
          f"largest child RSS {peak_rss_mib:.0f} MiB\n")
    read = typical["files"]["read"]
    ok = True
    for passed, text in (
        (ratio <= a.max_ratio, f"full run within {a.max_ratio:g}x of the floor's process ({ratio:.2f}x; "
         f"{med['baton'] / floor:.1f}x the parse alone, {med['baton'] / med['rg']:.1f}x rg)"),
        (med["typical"] * 1000 < a.max_typical_ms,
         f"typical agent run under {a.max_typical_ms:g} ms ({med['typical'] * 1000:.0f} ms, {read} files read)"),
        (got == facts["tables"], f"baton extracted every generated table ({got} of {facts['tables']})"),
    ):
        print(f"{'PASS' if passed else 'FAIL'}  {text}")
        ok &= passed
    if a.check and not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
