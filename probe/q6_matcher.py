#!/usr/bin/env python3
"""Q6: PreCompact/PostCompact entries in settings.json; does `matcher` select the trigger?

A first -p session, then `claude -p /compact --continue` (trigger manual). PreCompact is wired
with matcher "manual", PostCompact with matcher "auto", SessionStart with matcher "compact":
which fire?

With "bare" the groups have no matcher key at all (the shape `baton install` writes).

Run: python3 probe/q6_matcher.py 2.1.332 [bare]
"""
import json
import sys

from harness import HOOK, Mock, Sandbox, bash, headless, text

VERSION = sys.argv[1] if len(sys.argv) > 1 else "2.1.332"
BARE = len(sys.argv) > 2 and sys.argv[2] == "bare"
MAIN = "PROBE-MATCHER main task"


def script(req):
    last = "\n".join(req.last_user_texts())
    if "create a detailed summary of the conversation" in last.lower():
        return text(50000, "<summary>PROBE-SUMMARY</summary>")
    if req.is_turn() and MAIN in req.prompt():
        return bash(50000, "echo m") if req.assistant_turns() == 0 else text(50000, "done")
    return None


def main():
    sb = Sandbox("q6-matcher" + ("-bare" if BARE else ""), VERSION)
    hooks = [{"type": "command", "command": HOOK, "timeout": 10}]
    entry = lambda m: [{"hooks": hooks}] if BARE else [{"matcher": m, "hooks": hooks}]
    sb.settings({"hooks": {"PreCompact": entry("manual"), "PostCompact": entry("auto"),
                           "SessionStart": entry("compact")}})
    mock = Mock(script)
    runs = [headless(sb, mock, MAIN), headless(sb, mock, "/compact", args=["--continue"])]
    fired = [(c["event"], (c["payload"] or {}).get("trigger") or (c["payload"] or {}).get("source"))
             for c in sb.captures()]
    res = {"runs": [{k: r[k] for k in ("cmd", "rc")} for r in runs], "fired": fired,
           "settings_hooks": "no matcher" if BARE else {"PreCompact": "manual", "PostCompact": "auto",
                                                         "SessionStart": "compact"}}
    sb.save(mock, res)
    print(json.dumps(res))


if __name__ == "__main__":
    main()
