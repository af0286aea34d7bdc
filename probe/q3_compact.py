#!/usr/bin/env python3
"""Q3/Q4/Q6: compaction in headless mode.

auto USAGE [ENV=VAL ...]: the main agent's first reply (a Bash call) reports USAGE input tokens;
  did the client compact before the next turn? Which hooks fired, what did the summary request
  look like, what is in the transcript afterwards?
manual: a first -p session, then `claude -p /compact --continue` (or --resume).

Hooks: every event is captured; PostCompact and SessionStart answer with additionalContext
(PROBE-POSTCOMPACT-CTX / PROBE-SESSIONSTART-CTX-<source>) so we see whether either reaches the model.

Run: python3 probe/q3_compact.py 2.1.332 auto 170000 [CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=50]
     python3 probe/q3_compact.py 2.1.332 manual
"""
import json
import sys

from harness import Mock, Sandbox, bash, headless, text

VERSION = sys.argv[1]
MODE = sys.argv[2]
USAGE = int(sys.argv[3]) if MODE == "auto" else 50000
ENV = dict(a.split("=", 1) for a in sys.argv[4 if MODE == "auto" else 3:] if "=" in a)
MODEL = ENV.pop("MODEL", "claude-sonnet-4-5")
NO_CTX = ENV.pop("NO_CTX", None)
# PTL=1: the main agent's second turn is answered once with the API's prompt-too-long error
PTL = ENV.pop("PTL", None)
# PC=json|plain|sysmsg|none: what the PostCompact hook prints (default json = hookSpecificOutput.additionalContext)
PC = ENV.pop("PC", "json")
PC_OUTPUTS = {
    "json": {"hookSpecificOutput": {"hookEventName": "PostCompact", "additionalContext": "PROBE-POSTCOMPACT-CTX"}},
    "plain": "PROBE-POSTCOMPACT-CTX plain stdout\n",
    "sysmsg": {"systemMessage": "PROBE-POSTCOMPACT-CTX system message"},
}
STATE = {"ptl_sent": 0}
MAIN = "PROBE-COMPACT main task"
SUMMARY = "<analysis>probe</analysis>\n<summary>PROBE-SUMMARY: the user ran probe commands.</summary>"


def classify(req):
    joined = "\n".join(req.all_texts())
    if req.messages and "PROBE-SUMMARY" in joined:
        return "after-compact"
    last = "\n".join(req.last_user_texts()).lower()
    if "create a detailed summary of the conversation" in last:
        return "summary-request"
    if req.is_turn() and MAIN in req.prompt():
        return "main"
    return "side"


def script(req):
    kind = classify(req)
    if kind == "summary-request":
        return text(USAGE, SUMMARY, output_tokens=400)
    if kind == "after-compact":
        return text(9000, "after compact done")
    if kind == "main":
        n = req.assistant_turns()
        if n == 0:
            return bash(USAGE, "echo probe-compact-1")
        if n == 1 and PTL and not STATE["ptl_sent"]:
            STATE["ptl_sent"] += 1
            return ("error", 400, {"type": "error", "error": {"type": "invalid_request_error",
                                   "message": "prompt is too long: 201000 tokens > 200000 maximum"}})
        if n == 1 and MODE == "auto":
            return bash(USAGE, "echo probe-compact-2")
        return text(USAGE, "done")
    return None


def transcript_summary(sb):
    out = []
    for t in sb.transcripts():
        for line in open(t):
            d = json.loads(line)
            ty = d.get("type")
            if ty in ("system",) or d.get("isCompactSummary") or ty == "summary":
                out.append({k: d.get(k) for k in ("type", "subtype", "compactMetadata", "isCompactSummary",
                                                  "isVisibleInTranscriptOnly", "content", "logicalParentUuid",
                                                  "level") if k in d})
            elif ty == "assistant":
                u = d["message"].get("usage", {})
                out.append({"type": "assistant", "id": d["message"].get("id"), "input_tokens": u.get("input_tokens"),
                            "text": str(d["message"].get("content"))[:80]})
            elif ty == "user":
                c = d["message"].get("content")
                out.append({"type": "user", "content": (c if isinstance(c, str) else json.dumps(c))[:160]})
            elif ty == "attachment":
                a = d.get("attachment", {})
                if a.get("hookEvent") or "compact" in a.get("type", ""):
                    out.append({"type": "attachment", "att": {k: (str(v)[:200]) for k, v in a.items()}})
    return out


def main():
    tag = "auto-%d" % USAGE if MODE == "auto" else MODE
    tag += "-PTL" if PTL else ""
    tag += "-PC=" + PC if PC != "json" else ""
    tag += "".join("-%s=%s" % (k.replace("CLAUDE_", "").replace("CODE_", ""), v) for k, v in ENV.items())
    if MODEL != "claude-sonnet-4-5":
        tag += "-" + MODEL.replace("[", "").replace("]", "")
    sb = Sandbox("q3-" + tag, VERSION)
    sb.hook_settings()
    if not NO_CTX:
        if PC in PC_OUTPUTS:
            sb.respond("PostCompact", PC_OUTPUTS[PC])
        sb.respond("SessionStart", {"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                           "additionalContext": "PROBE-SESSIONSTART-CTX"}})
    mock = Mock(script)
    runs = [headless(sb, mock, MAIN, env=ENV, model=MODEL)]
    if MODE == "manual":
        runs.append(headless(sb, mock, "/compact", env=ENV, model=MODEL, args=["--continue"]))
    res = {"runs": runs, "env": ENV, "model": MODEL}
    res["requests"] = [{"i": i, "kind": classify(r), "path": r.path, "tools": len((r.body or {}).get("tools") or []),
                        "messages": len(r.messages), "model": (r.body or {}).get("model"),
                        "max_tokens": (r.body or {}).get("max_tokens")}
                       for i, r in enumerate(mock.requests)]
    summ = [r for r in mock.requests if classify(r) == "summary-request"]
    if summ:
        r = summ[0]
        res["summary_request_last_user_texts"] = [t[:3000] for t in r.last_user_texts()]
        res["summary_request_system_heads"] = [b.get("text", "")[:300] for b in (r.body.get("system") or [])] \
            if isinstance(r.body.get("system"), list) else r.body.get("system")
    after = [r for r in mock.requests if classify(r) == "after-compact"]
    if after:
        r = after[0]
        res["after_compact_first_request_texts"] = [t[:600] for t in r.all_texts()]
        res["after_compact_where_postcompact_ctx"] = r.find("PROBE-POSTCOMPACT-CTX")
        res["after_compact_where_sessionstart_ctx"] = r.find("PROBE-SESSIONSTART-CTX")
    res["hooks"] = [(c["event"], {k: v for k, v in (c["payload"] or {}).items()
                                  if k in ("source", "trigger", "custom_instructions", "compact_summary",
                                           "hook_event_name", "reason")})
                    for c in sb.captures()]
    res["postcompact_payloads"] = [c["payload"] for c in sb.captures("PostCompact")]
    res["precompact_payloads"] = [c["payload"] for c in sb.captures("PreCompact")]
    res["transcript"] = transcript_summary(sb)
    res["postcompact_mentions_in_requests"] = [(i, r.find("PROBE-POSTCOMPACT-CTX")) for i, r in enumerate(mock.requests)
                                               if r.find("PROBE-POSTCOMPACT-CTX")]
    res["postcompact_mentions_in_transcripts"] = sum(open(t).read().count("PROBE-POSTCOMPACT") for t in sb.transcripts())
    sb.save(mock, res)
    print("requests:", [(q["i"], q["kind"], q["tools"], q["messages"]) for q in res["requests"]])
    print("hooks:", json.dumps(res["hooks"]))
    print("stderr:", runs[-1]["stderr"][-300:], "rc:", [r["rc"] for r in runs])
    print("boundaries:", [t for t in res["transcript"] if t.get("subtype") == "compact_boundary"])
    print("postcompact ctx in requests:", res["postcompact_mentions_in_requests"],
          "in transcripts:", res["postcompact_mentions_in_transcripts"])
    print("out:", sb.out)


if __name__ == "__main__":
    main()
