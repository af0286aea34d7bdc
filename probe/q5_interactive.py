#!/usr/bin/env python3
"""Q3/Q4/Q5: the interactive client under a private tmux server.

footer USAGE [MODEL=..] [ENV=VAL ..]: one prompt, the reply reports USAGE input tokens; records
  the statusline payloads (session start, after the reply), whether the statusline's stdin was
  closed, and Claude Code's own footer text.
compact USAGE [..]: as footer, then types /compact, then another prompt (reply at 30,000 tokens);
  records the summary request, hooks, the statusline payloads after compaction and after the
  next reply, and the screen.
compact2 USAGE: as compact, with a second exchange before /compact (needed on 2.1.197).
cache USAGE: two prompts; replies split USAGE into input/cache_read/cache_creation
  (10k/USAGE-50k/40k, then 5k/USAGE-10k/5k): what the statusline's context_window shows.
auto USAGE [..]: three prompts, replies at 100,000, USAGE, 30,000; does the client compact before
  the third? What do the statusline payloads show around it?

Run: python3 probe/q5_interactive.py 2.1.332 footer 150000 [MODEL=claude-sonnet-4-5] [CLAUDE_...=..]
"""
import json
import re
import sys
import time

from harness import Mock, Sandbox, Tmux, text

VERSION = sys.argv[1]
MODE = sys.argv[2]
USAGE = int(sys.argv[3])
ENV = dict(a.split("=", 1) for a in sys.argv[4:] if "=" in a)
MODEL = ENV.pop("MODEL", "claude-sonnet-4-5")
# PC=json|plain|sysmsg: what the PostCompact hook prints (json = hookSpecificOutput.additionalContext)
PC = ENV.pop("PC", "json")
PC_OUTPUTS = {
    "json": {"hookSpecificOutput": {"hookEventName": "PostCompact", "additionalContext": "PROBE-POSTCOMPACT-CTX"}},
    "plain": "PROBE-POSTCOMPACT-CTX plain stdout\n",
    "sysmsg": {"systemMessage": "PROBE-POSTCOMPACT-CTX system message"},
}
P1 = "PROBE-ONE say hi"
P2 = "PROBE-TWO say more"
P3 = "PROBE-THREE once more"
SUMMARY = "<analysis>probe</analysis>\n<summary>PROBE-SUMMARY: the user said hi.</summary>"


def classify(req):
    last = "\n".join(req.last_user_texts())
    if "create a detailed summary of the conversation" in last.lower():
        return "summary-request"
    if not req.is_turn():
        return "side"
    if P3 in last:
        return "p3"
    if P2 in last:
        return "p2"
    if P1 in "\n".join(req.all_texts()):
        return "p1"
    return "other-turn"


def script(req):
    kind = classify(req)
    if kind == "summary-request":
        return text(USAGE, SUMMARY, output_tokens=300)
    if kind == "p1" and MODE == "cache":
        return text(10000, "hello from the mock", cache_read=USAGE - 50000, cache_creation=40000)
    if kind == "p2" and MODE == "cache":
        return text(5000, "second reply", cache_read=USAGE - 10000, cache_creation=5000)
    if kind == "p1":
        return text(100000 if MODE == "auto" else USAGE, "hello from the mock")
    if kind == "p3":
        return text(30000, "third reply")
    if kind == "p2" and MODE == "compact2":
        return text(USAGE, "second reply")
    if kind == "p2":
        return text(30000 if MODE == "compact" else USAGE, "second reply")
    return None


def footer(screen):
    found = re.findall(r"(\d+% context used|\d+% until auto-compact|auto-compact next|Context low \([^)]*\)[^\n]*)",
                       screen or "")
    return found


def sl_payloads(sb):
    return [c for c in sb.captures("statusline")]


def wait_sl(sb, pred, limit=60):
    t0 = time.time()
    while time.time() - t0 < limit:
        for c in reversed(sl_payloads(sb)):
            if pred(c["payload"] or {}):
                return c
        time.sleep(0.3)
    return None


def main():
    tag = "%s-%d" % (MODE, USAGE) + ("-" + MODEL.replace("[", "").replace("]", "") if MODEL != "claude-sonnet-4-5" else "")
    tag += "-PC=" + PC if PC != "json" else ""
    tag += "".join("-%s=%s" % (k.replace("CLAUDE_", "").replace("CODE_", ""), v) for k, v in ENV.items())
    sb = Sandbox("q5-" + tag, VERSION)
    sb.trust()
    sb.hook_settings(statusline=True)
    sb.respond("PostCompact", PC_OUTPUTS[PC])
    sb.respond("SessionStart", {"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                       "additionalContext": "PROBE-SESSIONSTART-CTX"}})
    mock = Mock(script)
    tm = Tmux(sb, mock, model=MODEL, env=ENV)
    res = {"mode": MODE, "usage": USAGE, "model": MODEL, "env": ENV}
    try:
        first = wait_sl(sb, lambda p: True, 60)
        res["statusline_at_start"] = first
        tm.submit(P1)
        after = wait_sl(sb, lambda p: (p.get("context_window") or {}).get("current_usage") is not None, 60)
        time.sleep(2.5)
        res["statusline_after_reply"] = after
        # the footer can be hidden behind a notification for a while: give it up to 20 s
        res["screen_after_reply"] = tm.wait(lambda s: footer(s), 20) or tm.screen()
        res["footer_after_reply"] = footer(res["screen_after_reply"])
        if MODE == "compact2":
            # 2.1.197 refuses /compact after one exchange ("Not enough messages to compact.")
            tm.submit(P2)
            tm.wait(lambda s: "second reply" in s, 60)
            time.sleep(2)
        if MODE in ("compact", "compact2"):
            n_before = len(sl_payloads(sb))
            tm.submit("/compact")
            ok = tm.wait(lambda s: "Not enough messages to compact" in s or
                         any(classify(r) == "summary-request" for r in mock.requests) and
                         ("ompacted" in s or "PROBE" in s), 90)
            time.sleep(4)
            res["screen_after_compact"] = tm.screen()
            res["statuslines_after_compact"] = [c for c in sl_payloads(sb)[n_before:]]
            n_before = len(sl_payloads(sb))
            tm.submit(P3)
            tm.wait(lambda s: "third reply" in s, 60)
            time.sleep(3)
            res["statuslines_after_next_reply"] = [c for c in sl_payloads(sb)[n_before:]]
            res["screen_after_next_reply"] = tm.screen()
        if MODE in ("auto", "cache"):
            n_before = len(sl_payloads(sb))
            tm.submit(P2)
            tm.wait(lambda s: "second reply" in s, 90)
            time.sleep(3)
            res["statuslines_after_p2"] = [c for c in sl_payloads(sb)[n_before:]]
            res["screen_after_p2"] = tm.screen()
            res["footer_after_p2"] = footer(res["screen_after_p2"])
        if MODE == "auto":
            n_before = len(sl_payloads(sb))
            tm.submit(P3)
            tm.wait(lambda s: "third reply" in s, 90)
            time.sleep(3)
            res["statuslines_after_p3"] = [c for c in sl_payloads(sb)[n_before:]]
            res["screen_after_p3"] = tm.screen()
    finally:
        tm.kill()
        time.sleep(1)
    res["requests"] = [(i, classify(r), len(r.messages)) for i, r in enumerate(mock.requests)]
    summ = [r for r in mock.requests if classify(r) == "summary-request"]
    if summ:
        res["summary_request"] = {"last_user_texts": [t[:2500] for t in summ[0].last_user_texts()],
                                  "tools": len(summ[0].body.get("tools") or []),
                                  "messages": len(summ[0].messages), "max_tokens": summ[0].body.get("max_tokens")}
    after = [r for r in mock.requests if classify(r) == ("p3" if MODE in ("compact", "compact2") else "p2")]
    if after:
        res["p2_where_postcompact_ctx"] = after[0].find("PROBE-POSTCOMPACT-CTX")
        res["p2_where_sessionstart_ctx"] = after[0].find("PROBE-SESSIONSTART-CTX")
        res["p2_first_texts"] = [t[:300] for t in after[0].all_texts()][:12]
    res["hooks"] = [(c["event"], {k: v for k, v in (c["payload"] or {}).items()
                                  if k in ("source", "trigger", "custom_instructions", "compact_summary", "reason")})
                    for c in sb.captures() if c["event"] != "statusline"]
    bounds = []
    for t in sb.transcripts():
        for line in open(t):
            d = json.loads(line)
            if d.get("subtype") == "compact_boundary":
                bounds.append(d.get("compactMetadata"))
    res["compact_boundaries"] = bounds
    sb.save(mock, res)
    cw = lambda c: (c or {}).get("payload", {}).get("context_window") if c else None
    print("footer_after_reply:", res.get("footer_after_reply"))
    print("sl start cw:", json.dumps(cw(res.get("statusline_at_start"))))
    print("sl after cw:", json.dumps(cw(res.get("statusline_after_reply"))))
    for key in ("statuslines_after_compact", "statuslines_after_next_reply", "statuslines_after_p2",
                "statuslines_after_p3"):
        for c in res.get(key, []):
            print(key, json.dumps(cw(c)), "eof", c["eof_seen"])
    print("requests:", res["requests"])
    print("hooks:", res["hooks"])
    print("boundaries:", bounds)
    print("footer_after_p2:", res.get("footer_after_p2"))
    pcs = [(i, r.find("PROBE-POSTCOMPACT-CTX")) for i, r in enumerate(mock.requests) if r.find("PROBE-POSTCOMPACT-CTX")]
    res["postcompact_ctx_in_requests"] = pcs
    print("postcompact ctx in requests:", pcs)
    for i, r in enumerate(mock.requests):
        for m in r.messages:
            for b in m.get("content") if isinstance(m.get("content"), list) else []:
                if "PROBE-POSTCOMPACT" in json.dumps(b):
                    print("  req", i, re.sub(r"\x1b\[[0-9;]*m", "", b.get("text", ""))[:400].replace("\n", " | "))
    sb.save(mock, res)
    print("out:", sb.out)


if __name__ == "__main__":
    main()
