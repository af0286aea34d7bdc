//! Help for the commands Claude Code calls: `statusline` and `hook`.

use super::Command;

pub const STATUSLINE: Command = Command {
    name: "statusline",
    summary: "Render the status line from Claude Code's JSON on stdin; write the context bridge file",
    help: "\
baton statusline: render the status line and write the context bridge file

Usage: baton statusline < payload.json

Reads Claude Code's statusline JSON on stdin and prints one line:
  model │ in-progress task or GSD state │ directory (branch) │ context bar, percent, forecast
(`≈6 left`: model requests that fit before Claude Code compacts, at the recent rate) and
writes $TMPDIR/claude-ctx-<session>.json for the context monitor (GSD's format).
The percent agrees with Claude Code's own indicator. In ~/.config/baton/config.json or
.baton/config.json: \"statusline\": {\"percent\": \"raw\"} for the share of the whole window,
\"forecast\": false, and \"segments\": [\"model\", \"task\", \"dir\", \"context\", \"cost\",
\"duration\", \"limits\", \"cache\", \"compactions\"] to choose and order the segments.
NO_COLOR disables colours; COLUMNS limits the width. Always exits 0.

Example:
  baton statusline < tests/fixtures/claude-code-2.1.197/statusline-after-reply.json
",
    run: None,
};

pub const HOOK: Command = Command {
    name: "hook",
    summary: "Handle any Claude Code hook event from its JSON on stdin (context monitor, resets)",
    help: "\
baton hook: handle a Claude Code hook event

Usage: baton hook < payload.json

Dispatches on hook_event_name. PostToolUse: the context monitor adds an advisory
CONTEXT WARNING (remaining <= 35%) or CONTEXT CRITICAL (<= 25%) for the agent, at most
once per 5 tool uses, an escalation at once, with the forecast (requests that fit before
compaction at the recent rate). SessionStart with source compact or clear, and PostCompact,
reset it; PostCompact also counts the compaction for the statusline. Always exits 0 with stdout empty or one JSON object; errors go to $BATON_LOG.

Configuration (~/.config/baton/config.json or .baton/config.json):
  {\"monitor\": {\"enabled\": true, \"warning_remaining\": 35, \"critical_remaining\": 25,
               \"debounce_calls\": 5, \"stale_seconds\": 60}}
.planning/config.json {\"hooks\": {\"context_warnings\": false}} also turns it off.

Example:
  baton hook < tests/fixtures/claude-code-2.1.197/posttooluse-bash.json
",
    run: None,
};
