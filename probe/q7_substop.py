#!/usr/bin/env python3
"""Q7: SubagentStop additionalContext (baton's spot-check path). Does it reach the subagent (a new
subagent turn), where in the request, how often (stop_hook_active), and what does the main agent
get as the Agent result — foreground and background agents.

Run: python3 probe/q7_substop.py 2.1.332 [fg|bg]
"""
import json
import sys

from harness import Mock, Sandbox, bash, headless, text, tool

VERSION = sys.argv[1] if len(sys.argv) > 1 else "2.1.332"
MODE = sys.argv[2] if len(sys.argv) > 2 else "fg"
MAIN = "PROBE-STOP main delegate"
SUB = "PROBE-STOP-SUB do the work"
CTX = "PROBE-SUBSTOP-CTX please re-check your claim"


def script(req):
    if not req.is_turn():
        return None
    n = req.assistant_turns()
    if SUB in req.prompt():
        if n == 0:
            return bash(20000, "echo sub-work")
        told = sum(1 for _ in req.find(CTX))
        return text(20000, "REPORT-%d: did the work" % told)
    if n == 0:
        agent = {"description": "stop probe", "prompt": SUB, "subagent_type": "general-purpose"}
        if MODE == "fg":
            agent["run_in_background"] = False
        return tool(20000, "Agent", agent)
    return text(20000, "done")


def main():
    sb = Sandbox("q7-substop-" + MODE, VERSION)
    sb.hook_settings(events=["SubagentStart", "SubagentStop", "PostToolUse", "Stop"])
    sb.respond("SubagentStop", {"hookSpecificOutput": {"hookEventName": "SubagentStop", "additionalContext": CTX}})
    mock = Mock(script)
    run = headless(sb, mock, MAIN)
    subs = mock.turns_of(SUB)
    mains = mock.turns_of(MAIN)
    res = {"run": {k: run[k] for k in ("cmd", "rc", "stdout", "seconds")},
           "sub_requests": len(subs),
           "sub_where_ctx": [r.find(CTX) for r in subs],
           "subagentstop": [{k: (c["payload"] or {}).get(k) for k in ("stop_hook_active", "last_assistant_message",
                                                                        "agent_type")}
                            for c in sb.captures("SubagentStop")],
           "main_requests": len(mains),
           "main_last_texts": [[t[:400] for t in r.last_user_texts()] for r in mains],
           "main_tool_results": [[json.dumps(b)[:600] for m in r.messages[-1:] for b in
                                  (m.get("content") if isinstance(m.get("content"), list) else [])
                                  if b.get("type") == "tool_result"] for r in mains]}
    sb.save(mock, res)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
