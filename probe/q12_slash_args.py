#!/usr/bin/env python3
"""Q12: what a user slash command (~/.claude/commands/baton/*.md) may write so that the user's
arguments reach baton as data, and so that the client's permission check lets it run when HOME
holds a space and a non-ASCII letter.

For each case a command file is written with an `allowed-tools` line and a body (the inline
`` !`PROGRAM pause $ARGUMENTS` `` form, or a fenced ```! block with a quoted heredoc), and
`claude -p "/baton:probe ARGS"` runs headless with no --allowedTools against the loopback mock.
PROGRAM is a stand-in at $HOME/.local/bin/baton that records its argv and stdin. Recorded: did it
run, what it got, what the client said ("Shell command permission check failed …").

Run: python3 probe/q12_slash_args.py 2.1.332|2.1.197 [CASE-SUBSTRING]
"""
import json
import os
import shutil
import subprocess
import sys

from harness import CLIENTS, MODEL, Mock, Sandbox, text

VERSION = sys.argv[1] if len(sys.argv) > 1 else "2.1.332"
ONLY = sys.argv[2] if len(sys.argv) > 2 else ""
END = "BATON_ARGS_END"


def posix_quote(word):
    safe = all(c.isascii() and (c.isalnum() or c in "/._-+,:@") for c in word)
    return word if word and safe else "'" + word.replace("'", "'\\''") + "'"


def stand_in(path, capture):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n{ for a in \"$@\"; do printf '[%%s]\\n' \"$a\"; done; echo '--stdin--'; "
                "case \"$*\" in *--args-stdin*) cat;; esac; } > '%s'\necho recorded\n" % capture)
    os.chmod(path, 0o755)


def allowed(kind, path):
    word = posix_quote(path)
    return {
        "bare-path": "allowed-tools: Bash(%s:*)" % path,
        "quoted-word-yaml-quoted": "allowed-tools: \"Bash(%s:*)\"" % word.replace("\\", "\\\\").replace('"', '\\"'),
        "quoted-word-plain": "allowed-tools: Bash(%s:*)" % word,
        "bash": "allowed-tools: Bash",
    }[kind]


def body(kind, path):
    word = posix_quote(path)
    if kind == "inline":
        return "!`%s pause $ARGUMENTS`\n" % word
    return "```!\n%s pause --args-stdin <<'%s'\n$ARGUMENTS\n%s\n```\n" % (word, END, END)


def run_case(home_name, tools, form, args):
    kind = "apostrophe" if "'" in home_name else "space" if " " in home_name else "plain"
    name = "q12-%s-%s-%s-%d" % (kind, tools, form, len(args or ""))
    sb = Sandbox(name, VERSION)
    # HOME under the sandbox root, named as asked (a space and a non-ASCII letter, or not).
    sb.home = os.path.join(sb.root, home_name)
    sb.tmp = os.path.join(sb.home, "tmp")
    os.makedirs(sb.tmp, exist_ok=True)
    sb.trust()
    program = os.path.join(sb.home, ".local/bin/baton")
    capture = os.path.join(sb.capture, "argv.txt")
    stand_in(program, capture)
    cmd_dir = os.path.join(sb.home, ".claude/commands/baton")
    os.makedirs(cmd_dir, exist_ok=True)
    with open(os.path.join(cmd_dir, "probe.md"), "w") as f:
        f.write("---\ndescription: probe\n%s\n---\n%s\nSay what it recorded.\n" % (allowed(tools, program), body(form, program)))
    mock = Mock(lambda req: text(1000, "done") if req.is_turn() else None)
    prompt = "/baton:probe" if args is None else "/baton:probe " + args
    p = subprocess.run([CLIENTS[VERSION], "-p", prompt, "--model", MODEL], cwd=sb.project,
                       env=sb.env(mock), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180)
    got = open(capture).read() if os.path.exists(capture) else None
    prompt = "\n".join(t for r in mock.turns()[:1] for t in r.all_texts())
    turns = len(mock.turns())
    mock.stop()
    said = (p.stdout + p.stderr).strip()
    return {"home": home_name, "allowed-tools": tools, "form": form, "args": args, "rc": p.returncode,
            "ran": got is not None, "got": got, "said": sb.scrub(said)[-600:],
            "prompt_has_output": "recorded" in prompt, "prompt": sb.scrub(prompt)[-300:], "turns": turns,
            "pwned": sorted(f for f in os.listdir(sb.project) if f.startswith("PWNED"))}


def main():
    apostrophe = "don't forget the tests"
    hostile = "note $(touch PWNED) `id` ; echo x \"q\" it's"
    cases = []
    for home in ("Jane Doé", "JaneDoe"):
        for tools in ("bare-path", "quoted-word-yaml-quoted", "quoted-word-plain"):
            for form in ("inline", "heredoc"):
                cases.append((home, tools, form, apostrophe))
    for home in ("Jane Doé",):
        cases.append((home, "quoted-word-yaml-quoted", "heredoc", hostile))
        cases.append((home, "quoted-word-yaml-quoted", "heredoc", "first line\n%s\n$(touch PWNED2)" % END))
        cases.append((home, "quoted-word-yaml-quoted", "heredoc", "a `single` backtick and ``` three"))
        cases.append((home, "quoted-word-yaml-quoted", "heredoc", ""))
        cases.append((home, "quoted-word-yaml-quoted", "heredoc", None))
        cases.append((home, "quoted-word-yaml-quoted", "heredoc", "ends with ! and !bang"))
    cases.append(("Jane O'Doé", "quoted-word-yaml-quoted", "heredoc", apostrophe))
    results = []
    for case in cases:
        if ONLY and ONLY not in " ".join(map(str, case)):
            continue
        r = run_case(*case)
        results.append(r)
        print(json.dumps(r, ensure_ascii=False))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", VERSION, "q12-slash-args")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "result.json"), "w") as f:
        json.dump(results, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
