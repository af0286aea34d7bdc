//! `baton doctor`: checks the wiring (entries present, matching this binary, not wired twice
//! by the settings and the plugin, each wired command probed for what users depend on), baton's
//! config read without skipping anything, no second context monitor, the bridge file fresh for
//! a recent interactive session, hooks not failing, and says what to fix; baton off PATH is a
//! note (Claude Code runs it by its full path) with the line that puts it there.

use std::path::{Path, PathBuf};

use super::Scope;
use super::command_line::BatonCommand;
use super::plugins;
use super::settings::EVENTS;
use super::wired::Wired;
use crate::platform::Family;

mod config;
mod monitors;
mod probe;
mod sessions;

use sessions::{bridge_freshness, hook_errors_in_transcripts};

/// How a finding stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Status {
    Ok,
    /// Worth knowing, nothing broken (the doctor still says "All good.").
    Note,
    /// Something to fix: the doctor exits 1.
    Fix,
}

/// One finding.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub status: Status,
    pub what: String,
    /// What to do when it is to fix.
    pub fix: Option<String>,
}

impl Check {
    fn pass(what: impl Into<String>) -> Self {
        Self {
            status: Status::Ok,
            what: what.into(),
            fix: None,
        }
    }
    fn note(what: impl Into<String>) -> Self {
        Self {
            status: Status::Note,
            what: what.into(),
            fix: None,
        }
    }
    fn fail(what: impl Into<String>, fix: impl Into<String>) -> Self {
        Self {
            status: Status::Fix,
            what: what.into(),
            fix: Some(fix.into()),
        }
    }
}

/// Where a wired command comes from: a settings file, or an installed baton plugin.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    Settings(Scope),
    /// An installed plugin (`baton@<marketplace>`) and its directory: its hooks run with
    /// `CLAUDE_PLUGIN_ROOT` set to it.
    Plugin {
        id: String,
        root: PathBuf,
    },
}

/// What a wired command is for, which decides how it is probed.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Role {
    Statusline,
    Hook,
}

/// Runs every check for the user's settings, the project's (when it has any) and an installed
/// baton plugin.
pub fn run(binary: &Path, project: Option<&Path>) -> Vec<Check> {
    let mut checks = vec![on_path(binary)];
    let mut scopes = vec![Scope::User];
    if let Some(dir) = project {
        scopes.push(Scope::Project(dir.to_path_buf()));
    }
    let mut commands: Vec<(String, Source, Role)> = Vec::new();
    let mut wired_events: Vec<&str> = Vec::new();
    let mut statusline = false;
    for scope in &scopes {
        let Ok(path) = scope.settings_path() else { continue };
        if !path.exists() {
            continue;
        }
        match super::read_settings(&path) {
            Err(e) => checks.push(Check::fail(
                format!("{e}"),
                "fix the JSON so Claude Code (and baton) can read it",
            )),
            Ok((value, _)) => {
                let wired = Wired::from_settings(&value);
                if let Some(plugin) = plugins::enabled_for(scope, &value) {
                    checks.extend(wired_twice(scope, &path, &wired, &plugin));
                }
                if let Some(cmd) = wired.statusline {
                    statusline = true;
                    commands.push((cmd, Source::Settings(scope.clone()), Role::Statusline));
                }
                for (event, cmd) in wired.hooks {
                    wired_events.push(event);
                    commands.push((cmd, Source::Settings(scope.clone()), Role::Hook));
                }
            }
        }
    }
    for plugin in plugins::installed() {
        for (event, cmd) in plugin.wired.hooks {
            wired_events.push(event);
            let source = Source::Plugin {
                id: plugin.id.clone(),
                root: plugin.root.clone(),
            };
            commands.push((cmd, source, Role::Hook));
        }
    }
    let where_ = scopes
        .iter()
        .filter_map(|s| s.settings_path().ok())
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" or ");
    if statusline {
        checks.push(Check::pass("statusLine runs baton"));
    } else {
        checks.push(Check::fail(
            format!("no baton statusLine in {where_}"),
            "run `baton install` (or `baton install --force` to replace another statusline)",
        ));
    }
    for (event, _) in EVENTS {
        if wired_events.contains(event) {
            checks.push(Check::pass(format!("{event} hook runs baton")));
        } else {
            checks.push(Check::fail(
                format!("no baton {event} hook in {where_}"),
                "run `baton install`",
            ));
        }
    }
    let mut seen = Vec::new();
    commands.retain(|entry| {
        let new = !seen.contains(entry);
        seen.push(entry.clone());
        new
    });
    // A private scratch place (temp dir, home, project), so the probes touch no real file.
    match probe::Scratch::new() {
        Ok(scratch) => {
            for (command, source, role) in &commands {
                checks.push(command_runs(command, source, *role, binary, &scratch));
            }
        }
        Err(e) => checks.push(Check::fail(
            format!("cannot make a scratch directory to run the wired commands in: {e}"),
            "make the temp dir ($TMPDIR or /tmp) writable",
        )),
    }
    checks.extend(config::checks(project));
    checks.extend(monitors::check(project));
    checks.push(bridge_freshness());
    checks.push(hook_errors_in_transcripts());
    checks
}

/// baton's hooks in a settings file whose scope the enabled baton plugin also gives them to:
/// each of those events runs baton twice. The one thing to fix: keep either.
fn wired_twice(scope: &Scope, settings: &Path, wired: &Wired, plugin: &str) -> Option<Check> {
    if wired.hooks.is_empty() {
        return None;
    }
    let mut events: Vec<&str> = Vec::new();
    for (event, _) in &wired.hooks {
        if !events.contains(event) {
            events.push(event);
        }
    }
    let (uninstall, install) = match scope {
        Scope::User => ("baton uninstall".to_owned(), "baton install".to_owned()),
        Scope::Project(dir) => (
            format!("baton uninstall --project {}", dir.display()),
            format!("baton install --project {}", dir.display()),
        ),
    };
    Some(Check::fail(
        format!(
            "baton is wired twice: {} runs baton for {} (an earlier `baton install`), and the enabled plugin \
             {plugin} runs it for the same events, so each runs twice",
            settings.display(),
            events.join(", ")
        ),
        format!(
            "keep one: `{uninstall}` takes baton's entries out of that file (then `{install}` wires only the \
             statusLine, which a plugin cannot), or `claude plugin disable {plugin}` keeps the settings' entries"
        ),
    ))
}

/// The first `baton` on PATH, and whether it is this binary.
fn on_path(binary: &Path) -> Check {
    let found = which("baton");
    let this = canonical(binary);
    match found {
        // Claude Code runs baton by the full path in the settings: only a terminal needs PATH.
        None => {
            let dir = this.parent().unwrap_or(&this);
            let shell = std::env::var("SHELL").ok();
            let path = std::env::var_os("PATH");
            let hint = super::binary::path_hint(dir, path.as_deref(), shell.as_deref(), Family::CURRENT);
            Check::note(match hint {
                Some(hint) => hint.strip_prefix("Note: ").unwrap_or(&hint).to_owned(),
                None => format!(
                    "{} is on PATH but holds no `baton` (this one is {})",
                    dir.display(),
                    this.display()
                ),
            })
        }
        Some(p) if canonical(&p) == this => Check::pass(format!("`baton` on PATH is {}", p.display())),
        Some(p) => Check::fail(
            format!(
                "`baton` on PATH is {}, not this binary ({})",
                p.display(),
                this.display()
            ),
            "reinstall with ./install.sh, or put the right directory first on PATH",
        ),
    }
}

fn canonical(path: &Path) -> PathBuf {
    crate::platform::path::canonical(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The binary a wired program names: a path (`~/` is the home directory) or a bare name
/// looked up on PATH.
fn resolve_program(program: &BatonCommand) -> Option<PathBuf> {
    if let Some(rest) = program.program.strip_prefix("~/") {
        return Some(dirs::home_dir()?.join(rest));
    }
    if program.program.contains(['/', '\\']) {
        return Some(PathBuf::from(&program.program));
    }
    which(&program.program)
}

/// Probes a wired command for its role as Claude Code would run it (see [`probe`]); a
/// command in the settings that runs a different baton binary than this one fails first (its
/// settings are stale), and so does the plugin form outside a plugin.
fn command_runs(command: &str, source: &Source, role: Role, binary: &Path, scratch: &probe::Scratch) -> Check {
    let Some(parsed) = BatonCommand::parse(command) else {
        return Check::fail(format!("`{command}` is not a baton command"), "run `baton install`");
    };
    let (program, plugin_root, fix) = match source {
        Source::Plugin { root, .. } => {
            let rest = parsed.program.split_once('/').map_or("", |(_, r)| r);
            (
                root.join(rest),
                Some(root.as_path()),
                format!(
                    "install the binary the plugin runs: `npx baton-cc install` (the plugin's bin/baton in {} runs \
                     that copy, a baton on PATH, or a cargo build of the plugin's folder)",
                    root.display()
                ),
            )
        }
        Source::Settings(scope) => {
            let reinstall = match scope {
                Scope::User => format!("{} install", binary.display()),
                Scope::Project(dir) => format!("{} install --project {}", binary.display(), dir.display()),
            };
            let repoint = format!("run `{reinstall}`: it re-points baton's entries at this binary");
            if parsed.is_plugin_form() {
                // Claude Code 2.1.197 refuses it: "Hook command references ${CLAUDE_PLUGIN_ROOT}
                // but the hook is not associated with a plugin".
                return Check::fail(
                    format!(
                        "`{command}` in {}: Claude Code sets CLAUDE_PLUGIN_ROOT only for a plugin's own \
                         hooks (hooks/hooks.json), so from settings.json this never runs baton",
                        scope
                            .settings_path()
                            .map(|p| p.display().to_string())
                            .unwrap_or_default()
                    ),
                    format!("take the entry out of that file and run `{reinstall}`"),
                );
            }
            let Some(program) = resolve_program(&parsed) else {
                return Check::fail(format!("`{command}`: `{}` is not on PATH", parsed.program), repoint);
            };
            if !program.is_file() {
                return Check::fail(format!("`{command}`: {} does not exist", program.display()), repoint);
            }
            if canonical(&program) != canonical(binary) {
                return Check::fail(
                    format!(
                        "`{command}` runs {}, not this baton ({})",
                        program.display(),
                        canonical(binary).display()
                    ),
                    format!("{repoint} (or run the doctor of the baton you mean to use)"),
                );
            }
            (
                program,
                None,
                format!("{repoint}; Claude Code shows a failing hook as an error"),
            )
        }
    };
    // The command line's own mode word runs: a statusLine wired as `baton hook` must fail.
    let (result, does) = if role == Role::Statusline {
        (
            probe::statusline(&program, &parsed.mode, plugin_root, scratch),
            "prints the status line and writes the bridge file",
        )
    } else {
        (
            probe::monitor(&program, &parsed.mode, plugin_root, scratch),
            "warns the agent at 15% context left (a PostToolUse probe)",
        )
    };
    let command = match source {
        Source::Plugin { id, .. } => format!("{command}` (plugin {id})"),
        Source::Settings(_) => format!("{command}`"),
    };
    let command = format!("`{command}");
    match result {
        Ok(()) => Check::pass(format!("{command} {does}")),
        Err(probe::Failure::Wrong(what)) => Check::fail(format!("{command} {what}"), fix),
        Err(probe::Failure::TimedOut) => Check::fail(
            format!("{command} did not finish in {}s (killed)", probe::RUN_LIMIT.as_secs()),
            "Claude Code kills hooks that hang; set BATON_LOG=/tmp/baton.log and run it again to see where it waits",
        ),
        Err(probe::Failure::Spawn(e)) => Check::fail(format!("{command} cannot run: {e}"), fix),
    }
}

fn which(program: &str) -> Option<PathBuf> {
    let file = format!("{program}{}", std::env::consts::EXE_SUFFIX);
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(&file))
        .find(|c| c.is_file())
}
