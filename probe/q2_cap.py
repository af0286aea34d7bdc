#!/usr/bin/env python3
"""Q2: the additionalContext size cap for SessionStart / PostToolUse / SubagentStart.

Each case is one headless session whose hook answers with a context of a known length
(ASCII or astral emoji U+1F600, 1 code point = 2 UTF-16 units = 4 UTF-8 bytes). The string
starts with <<S>> and ends with <<E>>; the script reports what text reached the model.

Run: python3 probe/q2_cap.py 2.1.332 SessionStart [case ...]
"""
import json
import sys

from harness import Mock, Sandbox, bash, headless, text, tool

VERSION = sys.argv[1] if len(sys.argv) > 1 else "2.1.332"
EVENT = sys.argv[2] if len(sys.argv) > 2 else "SessionStart"
MAIN = "PROBE-CAP main task"
SUB = "PROBE-CAP-SUB subagent task"
EMOJI = "\U0001F600"


def ascii_case(n):
    filler = ("0123456789" * (n // 10 + 1))[: n - 10]
    return "<<S>>" + filler + "<<E>>"


def emoji_case(count):
    return "<<S>>" + EMOJI * count + "<<E>>"


CASES = {
    "ascii-9000": ascii_case(9000),
    "ascii-10000": ascii_case(10000),
    "ascii-10001": ascii_case(10001),
    "ascii-20000": ascii_case(20000),
    # 5000 code points, 9990 UTF-16 units, 19970 bytes
    "emoji-4990": emoji_case(4990),
    # 5010 code points, 10010 UTF-16 units
    "emoji-5000": emoji_case(5000),
    # 10000 code points, 19990 UTF-16 units
    "emoji-9990": emoji_case(9990),
    # 10001 code points
    "emoji-9991": emoji_case(9991),
}


def measure(s):
    return {"code_points": len(s), "utf16_units": len(s.encode("utf-16-le")) // 2, "utf8_bytes": len(s.encode())}


def strings_of(req):
    out = []
    for m in req.messages:
        c = m.get("content")
        if isinstance(c, str):
            out.append(c)
            continue
        for b in c or []:
            if b.get("type") == "text":
                out.append(b.get("text", ""))
            elif b.get("type") == "tool_result":
                cc = b.get("content")
                if isinstance(cc, str):
                    out.append(cc)
                else:
                    out += [x.get("text", "") for x in cc or []]
    return out


def script(req):
    if not req.is_turn():
        return None
    n = req.assistant_turns()
    if SUB in req.prompt():
        return text(1000, "sub done") if n else bash(1000, "echo in-sub")
    if EVENT == "SubagentStart":
        return tool(1000, "Agent", {"description": "cap", "prompt": SUB, "subagent_type": "general-purpose",
                                    "run_in_background": False}) if n == 0 else text(1000, "done")
    return bash(1000, "echo probe-cap") if n == 0 else text(1000, "done")


def run_case(name, ctx):
    sb = Sandbox("q2-%s-%s" % (EVENT, name), VERSION)
    sb.hook_settings(events=[EVENT, "PostToolUse"] if EVENT != "PostToolUse" else [EVENT])
    sb.respond(EVENT if EVENT != "PostToolUse" else "PostToolUse.Bash",
               {"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": ctx}})
    mock = Mock(script)
    run = headless(sb, mock, MAIN)
    res = {"case": name, "sent": measure(ctx), "run": {k: run[k] for k in ("cmd", "rc", "stderr", "seconds")}}
    seen = []
    for i, req in enumerate(mock.requests):
        for s in strings_of(req):
            if "<<S>>" in s:
                seen.append((i, s))
    if not seen:
        res["reached_model"] = None
    else:
        i, s = seen[-1]
        start = s.index("<<S>>")
        body = s[start:]
        res["reached_model"] = {
            "request": i,
            "has_end_marker": "<<E>>" in s,
            "block_len": measure(s),
            "from_marker_len": measure(body.split("<<E>>")[0] + ("<<E>>" if "<<E>>" in body else "")),
            "prefix": s[:start][-300:],
            "head": s[:start + 120] if len(s) > 400 else s,
            "tail": s[-700:] if len(s) > 400 else "",
        }
    # how the client logged it
    atts = []
    for t in sb.transcripts():
        for line in open(t):
            d = json.loads(line)
            a = d.get("attachment") or {}
            if a.get("hookEvent") == EVENT or a.get("type") in ("hook_additional_context",):
                a2 = {k: (v if not isinstance(v, (str, list)) or len(json.dumps(v)) < 400 else
                          "<%d chars> %s" % (len(json.dumps(v)), json.dumps(v)[:200])) for k, v in a.items()}
                atts.append(a2)
    res["attachments"] = atts
    sb.save(mock, res, limit=30000)
    return res


def main():
    names = sys.argv[3:] or list(CASES)
    results = [run_case(n, CASES[n]) for n in names]
    for r in results:
        rm = r["reached_model"]
        print("%-12s sent=%s -> %s" % (r["case"], r["sent"], "NOT IN ANY REQUEST" if rm is None else
                                       "end_marker=%s from_marker=%s" % (rm["has_end_marker"], rm["from_marker_len"])))
        if rm and not rm["has_end_marker"]:
            print("    prefix:", repr(rm["prefix"][-200:]))
            print("    tail:", repr(rm["tail"][-500:]))
    print(json.dumps(results, ensure_ascii=False)[:300])


if __name__ == "__main__":
    main()
