//! Help for the commands Claude Code calls: `statusline`, `hook`, and `mod` (baton's mod). They
//! run before any parser (`cli::main`) and take no options; the definitions here give their help.

/// `baton statusline`.
#[derive(clap::Args)]
#[command(
    about = "Render the status line from Claude Code's JSON on stdin; write the context bridge file",
    override_usage = "baton statusline < payload.json",
    before_help = "\
baton statusline: render the status line and write the context bridge file

Reads Claude Code's statusline JSON on stdin and prints one line:
  model │ in-progress task or GSD state │ directory (branch) │ context bar, percent, forecast
(`≈6 left`: model requests that fit before Claude Code compacts, at the recent rate) and
writes $TMPDIR/claude-ctx-<session>.json for the context monitor (GSD's format).
The percent agrees with Claude Code's own indicator. In ~/.config/baton/config.json or
.baton/config.json: \"statusline\": {\"percent\": \"raw\"} for the share of the whole window,
\"forecast\": false, and \"segments\": [\"model\", \"task\", \"dir\", \"context\", \"cost\",
\"duration\", \"limits\", \"cache\", \"compactions\"] to choose and order the segments.
NO_COLOR disables colours; COLUMNS limits the width. Always exits 0.",
    after_help = "\
Example:
  baton statusline < tests/fixtures/claude-code-2.1.197/statusline-after-reply.json"
)]
pub struct Statusline {}

/// `baton hook`.
#[derive(clap::Args)]
#[command(
    about = "Handle any Claude Code hook event from its JSON on stdin (context monitor, resets)",
    override_usage = "baton hook < payload.json",
    before_help = "\
baton hook: handle a Claude Code hook event

Dispatches on hook_event_name. PostToolUse: the context monitor adds an advisory
CONTEXT WARNING (remaining <= 35%) or CONTEXT CRITICAL (<= 25%) for the agent, at most
once per 5 tool uses, an escalation at once, with the forecast (requests that fit before
compaction at the recent rate). SessionStart with source compact or clear, and PostCompact,
reset it; PostCompact also counts the compaction for the statusline. Always exits 0 with stdout empty or one JSON object; errors go to $BATON_LOG.

Configuration (~/.config/baton/config.json or .baton/config.json):
  {\"monitor\": {\"enabled\": true, \"warning_remaining\": 35, \"critical_remaining\": 25,
               \"debounce_calls\": 5, \"stale_seconds\": 60}}
.planning/config.json {\"hooks\": {\"context_warnings\": false}} also turns it off.",
    after_help = "\
Example:
  baton hook < tests/fixtures/claude-code-2.1.197/posttooluse-bash.json"
)]
pub struct Hook {}

/// `baton mod`.
#[derive(clap::Args)]
#[command(
    about = "Answer baton's mod inside Claude Code 2.1.287+ (exact figures, rows, band, chart, handoffs)",
    override_usage = "baton mod < question.json",
    before_help = "\
baton mod: answer baton's mod (Claude Code 2.1.287+)

The mod (mod/baton.tsx in the baton plugin) runs inside the client and asks this with one
JSON object on stdin; the answer is one JSON object on stdout ({} for nothing to say).
\"event\": \"start\" takes the session (baton's PostToolUse and SubagentStart hooks then leave
warnings and handoffs to the mod while the client runs); \"tool\" judges a tool call on the
context of the request that made it (the agent's own, subagents included) with the monitor's
thresholds, debounce and forecast, naming the largest items in its live context; \"spawn\"
gives a starting subagent its store inputs and the handoffs of the agents before it; \"row\"
and \"band\" draw a subagent's row and the band above the prompt; \"window\" draws the pane's
chart (baton window's view in the pane's columns and rows, as styled runs); \"end\" gives the
session back to the hooks. Always exits 0.

Configuration (~/.config/baton/config.json or .baton/config.json):
  {\"mod\": {\"enabled\": true, \"rows\": true, \"band\": true}}",
    after_help = "\
Example:
  echo '{\"event\":\"tool\",\"session_id\":\"s1\",\"cwd\":\"/tmp\",\"requests\":[140000],\"window\":200000}' | baton mod"
)]
pub struct Mod {}
