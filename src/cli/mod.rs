//! The command line. Every command is one variant of [`Commands`] whose arguments its module in
//! `cli/` defines once (clap derive: the parser, the help, the completions and the man page come
//! from that definition) and runs by calling the library. Hook-facing commands (`statusline`,
//! `hook`, `mod`) run silently: whatever happens they exit 0 with nothing on stderr.

mod agents;
mod bridge;
mod completions;
mod continuity;
mod ctx;
mod ctx_args;
mod ctx_init;
mod ctx_values;
mod ctx_view;
mod hook;
mod install;
mod json_flag;
mod profile;
mod progress;
mod report;
mod session_args;
mod stdin_args;
mod usage;
mod values;
mod window;

use std::ffi::OsString;
use std::io::Write;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::error::{Error, Result};

/// baton's command line: one subcommand per command, in the order `baton --help` lists them.
#[derive(Parser)]
#[command(
    name = "baton",
    bin_name = "baton",
    about = "Keeps Claude Code agents from losing the thread",
    disable_version_flag = true,
    disable_help_subcommand = true,
    help_template = TOP_HELP
)]
struct Cli {
    /// Show the version
    #[arg(short = 'V', long)]
    version: bool,
    // Taken before the command only (`baton --verbose report`), by `main` itself: declared
    // here for the help, the completions and the man page.
    #[arg(
        long,
        help = "Before the command: after an error, also print what caused it (or BATON_LOG=debug)"
    )]
    verbose: bool,
    #[command(subcommand)]
    command: Option<Commands>,
}

// The summaries of the commands are their `about`, in their modules (no doc comments here: they
// would replace it).
#[derive(Subcommand)]
enum Commands {
    Statusline(hook::Statusline),
    #[command(alias = "monitor")]
    Hook(hook::Hook),
    Mod(hook::Mod),
    Progress(progress::Args),
    Pause(continuity::Pause),
    Resume(continuity::Resume),
    Report(report::Args),
    Window(window::Args),
    Install(install::Install),
    Uninstall(install::Uninstall),
    Doctor(install::Doctor),
    Completions(completions::Args),
    Profile(profile::Args),
    Agents(agents::Args),
    Ctx(ctx_args::Args),
    Bridge(bridge::Args),
    /// `baton help COMMAND`: the command's help.
    #[command(hide = true)]
    Help {
        topic: Option<String>,
    },
}

/// The layout of `baton --help`; its end (the settings and where to start) is added at run time.
const TOP_HELP: &str = "\
baton: keeps Claude Code agents from losing the thread

Usage: baton <command> [options]
       baton <command> --help

Commands:
{subcommands}

Options:
  -h, --help     Show this help, or a command's
  -V, --version  Show the version
      --verbose  Before the command: after an error, also print what caused it{after-help}";

/// The layout of a command's help: its description first, then the usage and the options.
const COMMAND_HELP: &str = "{before-help}{usage-heading} {usage}\n\n{all-args}{after-help}";

/// The help's last line: where a new user starts.
const GETTING_STARTED: &str = "
Getting started: `baton install` wires baton into Claude Code, `baton doctor` checks it; the guide is docs/ in baton's repository (start at docs/introduction.md).";

/// The whole command line as clap sees it: parser, help, completions and the man page come from it.
pub fn command() -> clap::Command {
    Cli::command()
        .mut_subcommands(|c| c.help_template(COMMAND_HELP))
        .after_help(format!(
            "What `baton install` writes into .claude/settings.json (with the binary's full path):\n{}{GETTING_STARTED}",
            settings_entries()
        ))
}

/// The command line as the man pages show it (docs/man/, rendered by a test with clap_mangen):
/// each command's description, the start of its `--help`, is its long about there.
pub fn manual() -> clap::Command {
    command().mut_subcommands(|c| match c.get_before_help().cloned() {
        Some(description) => c.long_about(description),
        None => c,
    })
}

/// The names of the commands, as `baton --help` lists them.
fn command_names(cli: &clap::Command) -> Vec<String> {
    cli.get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_owned())
        .collect()
}

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
    let action = args.get(1).and_then(|a| a.to_str()).map(str::to_owned);
    let outcome = std::panic::catch_unwind(move || {
        fault_point();
        let mut command = None;
        let result = run(args, &mut command);
        (result, command)
    });
    match outcome {
        Ok((Ok(()), _)) => 0,
        Ok((Err(e), command)) => {
            let mut message = error_message(command.as_deref(), action.as_deref(), &e);
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
fn error_message(command: Option<&str>, action: Option<&str>, error: &Error) -> String {
    let who = command.map_or_else(|| "baton".to_owned(), |name| format!("baton {name}"));
    match (error, command) {
        (Error::Usage(_), Some(name)) => {
            // An action's own help when the word after the command names one (`ctx get`).
            let topic = match action.and_then(|a| self::command().find_subcommand(name)?.find_subcommand(a).cloned()) {
                Some(action) => format!("{who} {}", action.get_name()),
                None => who.clone(),
            };
            format!("{who}: {error}\nSee `{topic} --help` for its options and examples.")
        }
        (Error::Usage(_), None) => format!("{who}: {error}\nSee `baton --help` for the commands."),
        _ => format!("{who}: {error}"),
    }
}

/// Parses the arguments and runs the command; `command` is set once the command is known,
/// so an error can name it.
fn run(args: Vec<OsString>, command: &mut Option<String>) -> Result<()> {
    let mut cli = self::command();
    // The command named first is the one an error is about (`--args-stdin`'s or the parse's).
    *command = args.first().and_then(|a| a.to_str()).and_then(|name| known(&cli, name));
    let args = stdin_args::expand(args)?;
    let matches = match cli.try_get_matches_from_mut(std::iter::once(OsString::from("baton")).chain(args)) {
        Ok(matches) => matches,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            return print(&format!("{}\n", e.render().to_string().trim_end()));
        }
        Err(e) => return Err(usage::from_clap(&e)),
    };
    let parsed = Cli::from_arg_matches(&matches).map_err(|e| usage::from_clap(&e))?;
    if parsed.version {
        return print(&format!("{}\n", crate::install::identity::version_line()));
    }
    let Some(chosen) = parsed.command else {
        return print(&command_help(&mut cli, None));
    };
    match chosen {
        Commands::Progress(args) => progress::run(args),
        Commands::Pause(args) => continuity::run_pause(args),
        Commands::Resume(args) => continuity::run_resume(args),
        Commands::Report(args) => report::run(args),
        Commands::Window(args) => window::run(args),
        Commands::Install(args) => install::run_install(args),
        Commands::Uninstall(args) => install::run_uninstall(args),
        Commands::Doctor(args) => install::run_doctor(args),
        Commands::Completions(args) => completions::run(args, cli),
        Commands::Profile(args) => profile::run(args),
        Commands::Agents(args) => agents::run(args),
        Commands::Ctx(args) => ctx::run(args),
        Commands::Bridge(args) => bridge::run(args),
        // The hook-facing commands run before any parser; here they only have help to give.
        Commands::Statusline(_) | Commands::Hook(_) | Commands::Mod(_) => {
            let name = command.clone();
            print(&command_help(&mut cli, name.as_deref()))
        }
        Commands::Help { topic } => {
            *command = None;
            let topic = match topic {
                Some(name) => Some(known(&cli, &name).ok_or_else(|| usage::unknown_command(&name))?),
                None => None,
            };
            print(&command_help(&mut cli, topic.as_deref()))
        }
    }
}

/// A command's name as the command line knows it (`monitor` is `hook`), if it is one.
fn known(cli: &clap::Command, name: &str) -> Option<String> {
    let found = cli.find_subcommand(name).filter(|c| !c.is_hide_set())?;
    Some(found.get_name().to_owned())
}

/// The help of `command`, or baton's own.
fn command_help(cli: &mut clap::Command, command: Option<&str>) -> String {
    cli.build();
    let help = match command.and_then(|name| cli.find_subcommand_mut(name)) {
        Some(sub) => sub.render_long_help(),
        None => cli.render_long_help(),
    };
    format!("{}\n", help.to_string().trim_end())
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

/// Prints to stdout; a closed pipe (`baton --help | head -1`) is not an error.
pub fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    Ok(())
}

/// Runs a hook-facing command: panics are caught (and logged to `$BATON_LOG`), nothing
/// reaches stderr, the exit code is always 0. `Some(text)` is printed as one line.
pub fn run_silently(body: impl FnOnce() -> Option<String> + std::panic::UnwindSafe) -> u8 {
    crate::fsx::mark_in_hook();
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
