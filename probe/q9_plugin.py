#!/usr/bin/env python3
"""Q9: what a plugin install from baton's marketplace does, headless.

The repository's files as a clone has them (`git ls-files`, plus a `target/` marker and a
`.git`) become a local marketplace; then `claude plugin validate`, `claude plugin marketplace
add DIR`, `claude plugin install baton@baton --scope user`. Recorded: where the plugin lands
and what is copied, what the client writes to settings and its plugin lists, whether anything
of the plugin runs at install. A logging stand-in at ~/.local/bin/baton (which the plugin's
bin/baton shim tries first) records each call (argv, CLAUDE_PLUGIN_ROOT, PATH, the parent's
command line) and then runs the real baton. A `claude -p` session with one Bash call
(`command -v baton`) shows which hooks fire and how; `claude -p /baton:progress` and
`/baton:setup` show the plugin's slash commands running through the shim.

Run: python3 probe/q9_plugin.py 2.1.332|2.1.197 (needs target/debug/baton: cargo build)
"""
import json
import os
import shutil
import subprocess
import sys

from harness import CLIENTS, REPO, Mock, Sandbox, bash, headless, text

VERSION = sys.argv[1] if len(sys.argv) > 1 else "2.1.332"
BATON = os.path.join(REPO, "target/debug/baton")
TASK = "PROBE-PLUGIN task"


def client(sb, mock, *args, cwd=None):
    p = subprocess.run([CLIENTS[sb.version], *args], cwd=cwd or sb.project, env=sb.env(mock),
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    return {"cmd": " ".join(args), "rc": p.returncode, "out": (p.stdout + p.stderr).strip()[-3000:]}


def market(sb):
    """The repository's files as a clone has them, plus a target/ marker, in a git repo."""
    dest = os.path.join(sb.root, "market")
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = os.path.join(REPO, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))
    os.makedirs(os.path.join(dest, "target/release"), exist_ok=True)
    with open(os.path.join(dest, "target/release/MARKER"), "w") as f:
        f.write("a build output a directory marketplace copies along\n")
    git = ["git", "-c", "user.name=probe", "-c", "user.email=probe@baton.invalid"]
    subprocess.run(git + ["init", "-q", "."], cwd=dest, check=True)
    subprocess.run(git + ["add", "-A"], cwd=dest, check=True)
    subprocess.run(git + ["commit", "-qm", "probe"], cwd=dest, check=True)
    return dest


def logging_baton(sb):
    path = os.path.join(sb.home, ".local/bin/baton")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("""#!/bin/sh
d="$PROBE_CAPTURE/baton-calls"; mkdir -p "$d"
{ echo "argv: $*"; echo "cwd: $(pwd)"; echo "CLAUDE_PLUGIN_ROOT=${CLAUDE_PLUGIN_ROOT-<unset>}"
  echo "PATH=$PATH"; echo "parent: $(tr '\\0' ' ' < /proc/$PPID/cmdline)"; } > "$d/$(date +%%s%%N)-$$.txt"
exec %s "$@"
""" % BATON)
    os.chmod(path, 0o755)


def calls(sb):
    d = os.path.join(sb.capture, "baton-calls")
    out = []
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        with open(os.path.join(d, name)) as f:
            out.append(sb.scrub(f.read()))
    return out


def tree(path, depth=1):
    if not os.path.isdir(path):
        return None
    return sorted(os.listdir(path)) if depth == 1 else {
        n: tree(os.path.join(path, n), depth - 1) for n in sorted(os.listdir(path))}


def read(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def script(req):
    if req.is_turn() and TASK in req.prompt():
        return bash(1000, "command -v baton; echo done") if req.assistant_turns() == 0 else text(1000, "finished")
    return None


def main():
    sb = Sandbox("q9-plugin", VERSION)
    sb.trust()
    mock = Mock(script)
    logging_baton(sb)
    res = {"market": "repository files (git ls-files) + target/release/MARKER + .git"}
    dest = market(sb)
    res["validate"] = client(sb, mock, "plugin", "validate", dest)
    res["marketplace_add"] = client(sb, mock, "plugin", "marketplace", "add", dest)
    res["install"] = client(sb, mock, "plugin", "install", "baton@baton", "--scope", "user")
    res["calls_during_install"] = calls(sb)
    res["user_settings"] = read(os.path.join(sb.home, ".claude/settings.json"))
    res["installed_plugins"] = read(os.path.join(sb.home, ".claude/plugins/installed_plugins.json"))
    res["known_marketplaces"] = read(os.path.join(sb.home, ".claude/plugins/known_marketplaces.json"))
    res["plugins_dir"] = tree(os.path.join(sb.home, ".claude/plugins"), 3)
    root = ((res["installed_plugins"] or {}).get("plugins", {}).get("baton@baton") or [{}])[0].get("installPath")
    if root:
        res["install_path_entries"] = tree(root)
        res["copied_target_marker"] = os.path.exists(os.path.join(root, "target/release/MARKER"))
        res["copied_git_dir"] = os.path.exists(os.path.join(root, ".git"))
    run = headless(sb, mock, TASK)
    res["session"] = {k: run[k] for k in ("rc", "stdout")}
    res["calls_in_session"] = calls(sb)[len(res["calls_during_install"]):]
    after_call = [r for r in mock.turns_of(TASK) if r.assistant_turns() == 1]
    res["tool_result_seen_by_model"] = after_call[0].all_texts()[-3:] if after_call else None
    before = len(calls(sb))
    for command in ("/baton:progress", "/baton:setup"):
        out = headless(sb, mock, command)
        res[command] = {k: out[k] for k in ("rc", "stdout")}
        res[command]["calls"] = calls(sb)[before:]
        before = len(calls(sb))
    res["user_settings_after_setup"] = read(os.path.join(sb.home, ".claude/settings.json"))
    res["uninstall"] = client(sb, mock, "plugin", "uninstall", "baton@baton", "--scope", "user")
    res["plugins_dir_after_uninstall"] = tree(os.path.join(sb.home, ".claude/plugins"), 3)
    sb.save(mock, res)
    print(json.dumps(res, indent=1)[:12000])


if __name__ == "__main__":
    main()
