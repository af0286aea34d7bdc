//! Argument parsing and help. Hook-facing commands (`statusline`, `hook`) run silently:
//! whatever happens, they exit 0 with nothing on stderr.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use crate::error::Error;

const HELP: &str = "\
baton: keeps Claude Code agents from losing the thread

Usage: baton <command> [options]

Commands called by Claude Code:
  statusline   Render the status line from Claude Code's JSON on stdin and write the
               context bridge file ($TMPDIR/claude-ctx-<session>.json)
  hook         Handle any hook event from its JSON on stdin (PostToolUse: context
               monitor; SessionStart compact/clear: reset the monitor)

Options:
  -h, --help     Show this help (or a command's: baton <command> --help)
  -V, --version  Show the version

Examples:
  echo '{\"model\":{\"display_name\":\"Sonnet 4.5\"}}' | baton statusline
  baton hook < payload.json

Settings (.claude/settings.json):
  \"statusLine\": {\"type\": \"command\", \"command\": \"baton statusline\", \"padding\": 0}
  \"hooks\": {\"PostToolUse\": [{\"matcher\": \"\", \"hooks\": [{\"type\": \"command\", \"command\": \"baton hook\"}]}]}
";

const STATUSLINE_HELP: &str = "\
baton statusline: render the status line and write the context bridge file

Usage: baton statusline < payload.json

Reads Claude Code's statusline JSON on stdin and prints one line:
  model │ in-progress task or GSD state │ directory (branch) │ context bar and percent
The percent agrees with Claude Code's own indicator; set \"statusline\": {\"percent\": \"raw\"}
in ~/.config/baton/config.json or .baton/config.json for the share of the whole window.
NO_COLOR disables colours; COLUMNS limits the width.

Example:
  baton statusline < tests/fixtures/claude-code-2.1.197/statusline-after-reply.json
";

const HOOK_HELP: &str = "\
baton hook: handle a Claude Code hook event

Usage: baton hook < payload.json

Dispatches on hook_event_name. PostToolUse: the context monitor adds an advisory
CONTEXT WARNING (remaining <= 35%) or CONTEXT CRITICAL (<= 25%) for the agent, at most
once per 5 tool uses, an escalation at once. SessionStart with source compact or clear
resets it. Always exits 0 with stdout empty or one JSON object.
Thresholds: \"monitor\": {\"warning_remaining\": 35, \"critical_remaining\": 25,
\"debounce_calls\": 5, \"stale_seconds\": 60, \"enabled\": true} in baton's config;
.planning/config.json {\"hooks\": {\"context_warnings\": false}} also turns it off.

Example:
  baton hook < tests/fixtures/claude-code-2.1.197/posttooluse-bash.json
";

/// Runs baton with the arguments after the program name.
pub fn main(args: Vec<OsString>) -> ExitCode {
    let command = args.first().and_then(|a| a.to_str()).unwrap_or("");
    let wants_help = args.iter().skip(1).any(|a| a == "--help" || a == "-h");
    match (command, wants_help) {
        ("statusline", false) => run_silently(|| Some(crate::context::statusline::run())),
        ("hook" | "monitor", false) => run_silently(crate::hook::run),
        _ => match run(args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "baton: {e}");
                ExitCode::from(e.exit_code())
            }
        },
    }
}

/// Commands people run: help, version, and (later) the rest.
fn run(args: Vec<OsString>) -> Result<(), Error> {
    let mut parser = lexopt::Parser::from_args(args);
    match parser.next()? {
        None | Some(lexopt::Arg::Short('h') | lexopt::Arg::Long("help")) => print(HELP),
        Some(lexopt::Arg::Short('V') | lexopt::Arg::Long("version")) => {
            print(&format!("baton {}\n", env!("CARGO_PKG_VERSION")))
        }
        Some(lexopt::Arg::Value(command)) => match command.to_str() {
            Some("statusline") => print(STATUSLINE_HELP),
            Some("hook" | "monitor") => print(HOOK_HELP),
            Some("help") => match parser.next()? {
                Some(lexopt::Arg::Value(topic)) if topic == "statusline" => print(STATUSLINE_HELP),
                Some(lexopt::Arg::Value(topic)) if topic == "hook" => print(HOOK_HELP),
                _ => print(HELP),
            },
            _ => Err(Error::Usage(format!(
                "unknown command '{}'",
                command.to_string_lossy()
            ))),
        },
        Some(other) => Err(Error::Usage(format!("unexpected {}", other.unexpected()))),
    }
}

fn print(text: &str) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    // A closed pipe (`baton --help | head -1`) is not an error.
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    Ok(())
}

/// Runs a hook-facing command: panics are caught (and logged to `$BATON_LOG`), nothing
/// reaches stderr, the exit code is always 0. `Some(text)` is printed as one line.
pub fn run_silently(body: impl FnOnce() -> Option<String> + std::panic::UnwindSafe) -> ExitCode {
    std::panic::set_hook(Box::new(|info| crate::log::note(&format!("panic: {info}"))));
    if let Ok(Some(text)) = std::panic::catch_unwind(body) {
        let mut out = std::io::stdout().lock();
        let _ = out
            .write_all(text.as_bytes())
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush());
    }
    ExitCode::SUCCESS
}
