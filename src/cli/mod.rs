//! Argument parsing and help. Every command is one entry of [`COMMANDS`]; its module
//! in `cli/` parses its options and calls the library. Hook-facing commands (`statusline`,
//! `hook`) run silently: whatever happens they exit 0 with nothing on stderr.

mod agents;
mod completions;
mod continuity;
mod hook;
mod install;
mod profile;
mod progress;
mod report;

use std::ffi::OsString;
use std::io::Write;

use crate::error::{Error, Result};

/// One command: its name, a one-line summary, its `--help` text and its entry point.
pub struct Command {
    pub name: &'static str,
    pub summary: &'static str,
    pub help: &'static str,
    /// `None` for the hook-facing commands, which run through [`run_silently`].
    pub run: Option<fn(&mut lexopt::Parser) -> Result<()>>,
}

/// Every command, in the order `baton --help` lists them.
pub const COMMANDS: &[Command] = &[
    hook::STATUSLINE,
    hook::HOOK,
    progress::PROGRESS,
    continuity::PAUSE,
    continuity::RESUME,
    report::REPORT,
    install::INSTALL,
    install::UNINSTALL,
    install::DOCTOR,
    completions::COMPLETIONS,
    profile::PROFILE,
    agents::AGENTS,
];

const HELP_HEAD: &str = "\
baton: keeps Claude Code agents from losing the thread

Usage: baton <command> [options]
       baton <command> --help

Commands:
";

const HELP_TAIL: &str = "
Options:
  -h, --help     Show this help, or a command's
  -V, --version  Show the version

Settings (.claude/settings.json):
  \"statusLine\": {\"type\": \"command\", \"command\": \"baton statusline\", \"padding\": 0}
  \"hooks\": {\"PostToolUse\": [{\"matcher\": \"\", \"hooks\": [{\"type\": \"command\", \"command\": \"baton hook\"}]}]}
";

/// Exit status of a command that panicked (as Rust programs exit on a panic).
pub const PANIC_EXIT: u8 = 101;

/// Runs baton with the arguments after the program name; returns the exit status. Stdout is
/// flushed before it returns. A panic in a command is reported on stderr as an internal
/// error (exit 101); hooks and the statusline stay silent whatever happens (exit 0).
pub fn main(args: Vec<OsString>) -> u8 {
    let name = args.first().and_then(|a| a.to_str()).unwrap_or("");
    let wants_help = args.iter().skip(1).any(|a| a == "--help" || a == "-h");
    let code = match name {
        "statusline" if !wants_help => run_silently(|| {
            fault_point();
            Some(crate::context::statusline::run())
        }),
        "hook" | "monitor" if !wants_help => run_silently(|| {
            fault_point();
            crate::dispatch::run()
        }),
        _ => run_command(args),
    };
    let _ = std::io::stdout().flush();
    code
}

/// Runs a command (not a hook): its error is one `baton: …` line on stderr with the error's
/// exit code; a panic is a message that asks for a report, exit 101.
fn run_command(args: Vec<OsString>) -> u8 {
    std::panic::set_hook(Box::new(|info| {
        let _ = writeln!(
            std::io::stderr(),
            "baton: internal error: {info}\nThis is a bug in baton {}; please report it with the command you ran.",
            env!("CARGO_PKG_VERSION")
        );
    }));
    let outcome = std::panic::catch_unwind(move || {
        fault_point();
        run(args)
    });
    match outcome {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => {
            let _ = writeln!(std::io::stderr(), "baton: {e}");
            e.exit_code()
        }
        Err(_) => PANIC_EXIT,
    }
}

/// Debug builds only: `BATON_FAULT=panic` makes the command panic, so the tests can check
/// what a panic does through the built binary.
fn fault_point() {
    #[cfg(debug_assertions)]
    if std::env::var_os("BATON_FAULT").is_some_and(|v| v == "panic") {
        panic!("BATON_FAULT=panic");
    }
}

fn run(args: Vec<OsString>) -> Result<()> {
    let help_requested = args.iter().skip(1).any(|a| a == "--help" || a == "-h");
    let mut parser = lexopt::Parser::from_args(args);
    match parser.next()? {
        None | Some(lexopt::Arg::Short('h') | lexopt::Arg::Long("help")) => print(&top_help()),
        Some(lexopt::Arg::Short('V') | lexopt::Arg::Long("version")) => {
            print(&format!("baton {}\n", env!("CARGO_PKG_VERSION")))
        }
        Some(lexopt::Arg::Value(name)) => {
            let name = name.to_string_lossy().into_owned();
            if name == "help" {
                let topic = parser.next()?;
                return match topic {
                    Some(lexopt::Arg::Value(t)) => print(find(&t.to_string_lossy())?.help),
                    _ => print(&top_help()),
                };
            }
            let command = find(&name)?;
            if help_requested {
                return print(command.help);
            }
            match command.run {
                Some(run) => run(&mut parser),
                None => print(command.help),
            }
        }
        Some(other) => Err(Error::Usage(format!("unexpected {}", other.unexpected()))),
    }
}

fn find(name: &str) -> Result<&'static Command> {
    let name = if name == "monitor" { "hook" } else { name };
    COMMANDS.iter().find(|c| c.name == name).ok_or_else(|| {
        let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        Error::Usage(format!(
            "unknown command '{name}'; the commands are: {}",
            names.join(", ")
        ))
    })
}

fn top_help() -> String {
    let mut help = HELP_HEAD.to_owned();
    for c in COMMANDS {
        help.push_str(&format!("  {:<12} {}\n", c.name, c.summary));
    }
    help.push_str(HELP_TAIL);
    help
}

/// Parses the arguments of a command that takes words and `--json`; anything else is a usage error.
pub fn words_and_json(parser: &mut lexopt::Parser, command: &str) -> Result<(Vec<String>, bool)> {
    let mut json = false;
    let mut words = Vec::new();
    while let Some(arg) = parser.next()? {
        match arg {
            lexopt::Arg::Long("json") => json = true,
            lexopt::Arg::Value(v) => words.push(v.to_string_lossy().into_owned()),
            other => {
                return Err(Error::Usage(format!(
                    "baton {command}: unexpected {}",
                    other.unexpected()
                )));
            }
        }
    }
    Ok((words, json))
}

/// Prints to stdout; a closed pipe (`baton --help | head -1`) is not an error.
pub fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    Ok(())
}

/// Runs a hook-facing command: panics are caught (and logged to `$BATON_LOG`), nothing
/// reaches stderr, the exit code is always 0. `Some(text)` is printed as one line.
pub fn run_silently(body: impl FnOnce() -> Option<String> + std::panic::UnwindSafe) -> u8 {
    crate::hook::mark_in_hook();
    std::panic::set_hook(Box::new(|info| crate::log::note(&format!("panic: {info}"))));
    if let Ok(Some(text)) = std::panic::catch_unwind(body) {
        let mut out = std::io::stdout().lock();
        let _ = out
            .write_all(text.as_bytes())
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush());
    }
    0
}
