#!/usr/bin/env python3
"""Q1: a tool call inside a subagent. What PostToolUse carries, where the subagent transcript is,
whether all its lines are isSidechain, whether PostToolUse/SubagentStart additionalContext
reaches the subagent's next request.

Run: python3 probe/q1_subagent.py 2.1.332 [fg]   (or 2.1.197)
"""
import json
import os
import sys

from harness import Mock, Sandbox, bash, headless, text, tool

VERSION = sys.argv[1] if len(sys.argv) > 1 else "2.1.332"
# "fg": the Agent call passes run_in_background=false (2.1.332 runs agents in the background by default)
FOREGROUND = len(sys.argv) > 2 and sys.argv[2] == "fg"
MAIN = "PROBE-MAIN delegate the greeting to a subagent"
SUB = "PROBE-SUB write the greeting file"


def script(req):
    if not req.is_turn():
        return None
    n = req.assistant_turns()
    if SUB in req.prompt():
        if n == 0:
            return bash(140000, "echo sub-step-1", cache_read=1000)
        if n == 1:
            return bash(141000, "echo sub-step-2", cache_read=1000)
        return text(142000, "Sub done: wrote nothing.", cache_read=1000)
    if n == 0:
        agent = {"description": "greeting", "prompt": SUB, "subagent_type": "general-purpose"}
        if FOREGROUND:
            agent["run_in_background"] = False
        return tool(20000, "Agent", agent)
    return text(21000, "done")


def main():
    sb = Sandbox("q1-subagent" + ("-fg" if FOREGROUND else ""), VERSION)
    sb.hook_settings()
    sb.respond("PostToolUse", {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                                      "additionalContext": "PROBE-CTX tool={tool_use_id} agent={agent_id}"}})
    sb.respond("SubagentStart", {"hookSpecificOutput": {"hookEventName": "SubagentStart",
                                                        "additionalContext": "PROBE-SUBSTART-CTX agent={agent_id}"}})
    mock = Mock(script)
    run = headless(sb, mock, MAIN)
    res = {"run": run}
    ptu = [c["payload"] for c in sb.captures("PostToolUse")]
    res["posttooluse_keys"] = [sorted(p.keys()) for p in ptu]
    res["posttooluse"] = [{k: sb.rel(p.get(k)) for k in ("tool_name", "tool_use_id", "agent_id", "agent_type",
                                                        "agent_transcript_path", "transcript_path", "session_id")}
                          for p in ptu]
    stop = [c["payload"] for c in sb.captures("SubagentStop")]
    res["subagentstop"] = [{k: sb.rel(v) for k, v in p.items() if k != "last_assistant_message"} for p in stop]
    res["subagentstart"] = [c["payload"] for c in sb.captures("SubagentStart")]
    # what reached the subagent's requests
    subs = mock.turns_of(SUB)
    mains = mock.turns_of(MAIN)
    res["sub_requests"] = len(subs)
    res["sub_request_reminders"] = [[t for t in r.last_user_texts() if "PROBE" in t] for r in subs]
    res["sub_requests_where_PostToolUse_ctx"] = [r.find("PostToolUse:Bash hook additional context") for r in subs]
    res["main_requests_where_PostToolUse_ctx"] = [r.find("PostToolUse:Agent hook additional context") for r in mains]
    res["sub_requests_where_SubagentStart_ctx"] = [r.find("SubagentStart hook additional context") for r in subs]
    res["sub_first_request_all_texts_with_probe"] = [t for t in subs[0].all_texts() if "PROBE-SUBSTART" in t] if subs else None
    res["main_request_reminders"] = [[t for t in r.last_user_texts() if "PROBE" in t] for r in mains]
    # transcripts
    ts = sb.transcripts()
    res["transcripts"] = [sb.rel(t) for t in ts]
    for t in ts:
        lines = [json.loads(x) for x in open(t) if x.strip()]
        key = "main" if "/subagents/" not in t else "sub:" + os.path.basename(t)
        res["transcript_" + key] = {
            "lines": len(lines),
            "types": sorted({l.get("type") for l in lines}),
            "isSidechain_values": sorted({str(l.get("isSidechain")) for l in lines}),
            "by_type_sidechain": sorted({"%s:%s" % (l.get("type"), l.get("isSidechain")) for l in lines}),
            "assistant_usage": [l["message"].get("usage", {}).get("input_tokens") for l in lines
                                if l.get("type") == "assistant"],
            "agentId_values": sorted({str(l.get("agentId")) for l in lines}),
        }
    sb.save(mock, res)
    print(json.dumps(res, indent=1)[:12000])


if __name__ == "__main__":
    main()
