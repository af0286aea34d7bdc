#!/usr/bin/env python3
"""Extracts the mod API from the Claude Code binary: the declarations (`claude-code.d.ts`, a
zstd frame in Bun's embedded file system), the built-in `plugin-authoring` skill (SKILL.md and
its long form reference.md, zstd frames) and its example modules (plain text), into
probe/out/mod-api/. They are Anthropic's text: read them there, commit none of it.

Run: python3 probe/mod/extract.py [path to the claude binary]   (needs the `zstd` command)
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT = os.path.join(REPO, "target/claude-code-2.1.332/node_modules/@anthropic-ai/claude-code-linux-x64/claude")
OUT = os.path.join(REPO, "probe/out/mod-api")
MAGIC = b"\x28\xb5\x2f\xfd"
# The first line of each file we want, and the name to save it under.
WANTED = {
    "// Claude Code function hooks: the plugin API's TypeScript declarations.": "claude-code.d.ts",
    "---\nname: plugin-authoring": "SKILL.md",
    "# Function hooks: the long form": "reference.md",
}


def frames(blob):
    """Every zstd frame of `blob` that decompresses to text, as (offset, text)."""
    at = 0
    while True:
        at = blob.find(MAGIC, at)
        if at < 0:
            return
        run = subprocess.run(["zstd", "-dc", "--no-progress"], input=blob[at:at + 4_000_000], capture_output=True)
        if len(run.stdout) > 200:
            yield at, run.stdout.decode("utf-8", "replace")
        at += 4


def examples(blob):
    """The skill's example modules: NUL-delimited text holding `export const register`."""
    seen = set()
    for m in re.finditer(rb"export const register", blob):
        start = blob.rfind(b"\x00", 0, m.start()) + 1
        end = blob.find(b"\x00", m.start())
        text = blob[start:end].decode("utf-8", "replace")
        if text[:200] not in seen:
            seen.add(text[:200])
            yield text


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    blob = open(binary, "rb").read()
    os.makedirs(OUT, exist_ok=True)
    found = {}
    for _, text in frames(blob):
        for head, name in WANTED.items():
            if text.startswith(head) and name not in found:
                found[name] = text
    for name, text in found.items():
        with open(os.path.join(OUT, name), "w") as f:
            f.write(text)
    for i, text in enumerate(examples(blob)):
        with open(os.path.join(OUT, "example-%d.tsx" % i), "w") as f:
            f.write(text)
    missing = sorted(set(WANTED.values()) - set(found))
    print("wrote", sorted(os.listdir(OUT)), "to", OUT, "; missing:", missing or "none")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
