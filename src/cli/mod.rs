//! Argument parsing and help. Every command is one entry of [`COMMANDS`]; its module
//! in `cli/` parses its options and calls the library. Hook-facing commands (`statusline`,
//! `hook`, `mod`) run silently: whatever happens they exit 0 with nothing on stderr.

mod agents;
mod bridge;
mod completions;
mod continuity;
mod ctx;
mod ctx_args;
mod ctx_init;
mod ctx_view;
mod hook;
mod install;
mod profile;
mod progress;
mod report;
mod stdin_args;
mod window;

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

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
    hook::MOD,
    progress::PROGRESS,
    continuity::PAUSE,
    continuity::RESUME,
    report::REPORT,
    window::WINDOW,
    install::INSTALL,
    install::UNINSTALL,
    install::DOCTOR,
    completions::COMPLETIONS,
    profile::PROFILE,
    agents::AGENTS,
    ctx::CTX,
    bridge::BRIDGE,
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

What `baton install` writes into .claude/settings.json (with the binary's full path):
";

/// The help's last line: where a new user starts.
const GETTING_STARTED: &str = "
Getting started: `baton install` wires baton into Claude Code, `baton doctor` checks it; the guide is docs/ in baton's repository (start at docs/introduction.md).
";

/// Exit status of a command that panicked (as Rust programs exit on a panic).
pub const PANIC_EXIT: u8 = 101;

/// Runs baton with the arguments after the program name; returns the exit status. Stdout is
/// flushed before it returns. A panic in a command is reported on stderr as an internal
/// error (exit 101); hooks and the statusline stay silent whatever happens (exit 0).
pub fn main(mut args: Vec<OsString>) -> u8 {
    let verbose = take_verbose(&mut args);
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
        "mod" if !wants_help => run_silently(|| {
            fault_point();
            crate::client_mod::run()
        }),
        _ => run_command(args, verbose),
    };
    let _ = std::io::stdout().flush();
    code
}

/// `--verbose` before the command (`baton --verbose report`), taken out of `args`, or
/// `BATON_LOG=debug`: a command's error is followed by the errors that caused it.
fn take_verbose(args: &mut Vec<OsString>) -> bool {
    let flag = args.first().is_some_and(|a| a == "--verbose");
    if flag {
        args.remove(0);
    }
    flag || crate::log::debug()
}

/// Runs a command (not a hook): its error is one `baton <command>: …` message on stderr with
/// the error's exit code (and, `verbose`, a `caused by: …` line for each error under it); a
/// panic is a message that asks for a report, exit 101.
fn run_command(args: Vec<OsString>, verbose: bool) -> u8 {
    std::panic::set_hook(Box::new(|info| {
        let _ = writeln!(
            std::io::stderr(),
            "baton: internal error: {info}\nThis is a bug in baton {}; please report it with the command you ran.",
            env!("CARGO_PKG_VERSION")
        );
    }));
    let outcome = std::panic::catch_unwind(move || {
        fault_point();
        let mut command = None;
        let result = run(args, &mut command);
        (result, command)
    });
    match outcome {
        Ok((Ok(()), _)) => 0,
        Ok((Err(e), command)) => {
            let mut message = error_message(command, &e);
            if verbose {
                for cause in e.chain() {
                    message.push_str(&format!("\ncaused by: {cause}"));
                }
            }
            let _ = writeln!(std::io::stderr(), "{message}");
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

/// How an error reads on stderr: one `baton <command>:` prefix, and after a usage error the
/// help to read (the command's own when the command is known).
fn error_message(command: Option<&str>, error: &Error) -> String {
    let who = command.map_or_else(|| "baton".to_owned(), |name| format!("baton {name}"));
    match (error, command) {
        (Error::Usage(_), Some(_)) => format!("{who}: {error}\nSee `{who} --help` for its options and examples."),
        (Error::Usage(_), None) => format!("{who}: {error}\nSee `baton --help` for the commands."),
        _ => format!("{who}: {error}"),
    }
}

/// Parses the arguments and runs the command; `command` is set once the command is known,
/// so an error can name it.
fn run(args: Vec<OsString>, command: &mut Option<&'static str>) -> Result<()> {
    // A command named before `--args-stdin` is the one an error there is about.
    let named = args
        .first()
        .and_then(|a| a.to_str())
        .and_then(|n| find(n).ok())
        .map(|c| c.name);
    let args = stdin_args::expand(args).inspect_err(|_| *command = named)?;
    let help_requested = args.iter().skip(1).any(|a| a == "--help" || a == "-h");
    let mut parser = lexopt::Parser::from_args(args);
    match parser.next()? {
        None | Some(lexopt::Arg::Short('h') | lexopt::Arg::Long("help")) => print(&top_help()),
        Some(lexopt::Arg::Short('V') | lexopt::Arg::Long("version")) => {
            print(&format!("{}\n", crate::install::identity::version_line()))
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
            let found = find(&name)?;
            *command = Some(found.name);
            if help_requested {
                return print(found.help);
            }
            match found.run {
                Some(run) => run(&mut parser),
                None => print(found.help),
            }
        }
        Some(other) => Err(other.unexpected().into()),
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
    help.push_str(&settings_entries());
    help.push_str(GETTING_STARTED);
    help
}

/// baton's settings.json entries as install writes them, from the one place that makes them.
fn settings_entries() -> String {
    use crate::install::settings::{EVENTS, Wiring};
    let wiring = Wiring::for_binary("baton");
    let mut text = format!("  \"statusLine\": {}\n  \"hooks\": {{\n", wiring.statusline());
    for (i, (event, matcher)) in EVENTS.iter().enumerate() {
        let comma = if i + 1 < EVENTS.len() { "," } else { "" };
        text.push_str(&format!("    \"{event}\": [{}]{comma}\n", wiring.hook_group(*matcher)));
    }
    text.push_str("  }\n");
    text
}

/// Parses the arguments of a command that takes words and `--json`; anything else is a usage error.
pub fn words_and_json(parser: &mut lexopt::Parser) -> Result<(Vec<String>, bool)> {
    let mut json = false;
    let mut words = Vec::new();
    while let Some(arg) = parser.next()? {
        match arg {
            lexopt::Arg::Long("json") => json = true,
            lexopt::Arg::Value(v) => words.push(utf8(v, "arguments")?),
            other => return Err(other.unexpected().into()),
        }
    }
    Ok((words, json))
}

/// The text value of `flag` (`--note TEXT`); it must be UTF-8.
pub fn text_value(parser: &mut lexopt::Parser, flag: &str) -> Result<String> {
    let value = parser
        .value()
        .map_err(|_| Error::Usage(format!("{flag} needs a value")))?;
    utf8(value, flag)
}

/// The path value of `flag` (`--out FILE`): any bytes the system allows, but not empty.
pub fn path_value(parser: &mut lexopt::Parser, flag: &str, what: &str) -> Result<PathBuf> {
    let value = parser
        .value()
        .map_err(|_| Error::Usage(format!("{flag} needs {what}")))?;
    if value.is_empty() {
        return Err(Error::Usage(format!("{flag} needs {what}, not an empty string")));
    }
    Ok(PathBuf::from(value))
}

/// The directory value of `flag` (`--project DIR`), made absolute; it must exist.
pub fn dir_value(parser: &mut lexopt::Parser, flag: &str) -> Result<PathBuf> {
    let dir = path_value(parser, flag, "a directory")?;
    match crate::platform::path::canonical(&dir) {
        Ok(real) if real.is_dir() => Ok(real),
        Ok(_) => Err(Error::Usage(format!("{flag} {}: not a directory", dir.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(Error::Usage(format!("{flag} {}: no such directory", dir.display())))
        }
        Err(e) => Err(Error::Usage(format!("{flag} {}: {e}", dir.display()))),
    }
}

/// An argument as text; bytes that are not UTF-8 are a usage error, never replaced.
fn utf8(value: OsString, what: &str) -> Result<String> {
    value
        .into_string()
        .map_err(|v| Error::Usage(format!("{what} must be UTF-8 text, not {}", v.to_string_lossy())))
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
