//! `baton doctor`: checks the wiring (binary on PATH and matching the settings, entries
//! present, the bridge file fresh for a recent session, hooks not failing) and says what to fix.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::Scope;
use super::command_line::{BatonCommand, is_baton_command};
use super::settings::EVENTS;

mod sessions;

use sessions::{bridge_freshness, hook_errors_in_transcripts};

/// One finding.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub ok: bool,
    pub what: String,
    /// What to do when it is not ok.
    pub fix: Option<String>,
}

impl Check {
    fn pass(what: impl Into<String>) -> Self {
        Self {
            ok: true,
            what: what.into(),
            fix: None,
        }
    }
    fn fail(what: impl Into<String>, fix: impl Into<String>) -> Self {
        Self {
            ok: false,
            what: what.into(),
            fix: Some(fix.into()),
        }
    }
}

/// Seconds a wired command may take before the doctor kills it and says so.
const RUN_LIMIT: Duration = Duration::from_secs(5);

/// Runs every check for the user's settings and the project's (when it has any).
pub fn run(binary: &Path, project: Option<&Path>) -> Vec<Check> {
    let mut checks = vec![on_path(binary)];
    let mut scopes = vec![Scope::User];
    if let Some(dir) = project {
        scopes.push(Scope::Project(dir.to_path_buf()));
    }
    let mut commands: Vec<(String, Scope)> = Vec::new();
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
                if let Some(cmd) = value["statusLine"]["command"].as_str().filter(|c| is_baton_command(c)) {
                    statusline = true;
                    commands.push((cmd.to_owned(), scope.clone()));
                }
                for (event, _) in EVENTS {
                    let groups = value["hooks"][*event].as_array().cloned().unwrap_or_default();
                    for hook in groups.iter().filter_map(|g| g["hooks"].as_array()).flatten() {
                        if let Some(cmd) = hook["command"].as_str().filter(|c| is_baton_command(c)) {
                            wired_events.push(event);
                            commands.push((cmd.to_owned(), scope.clone()));
                        }
                    }
                }
            }
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
    commands.retain(|(c, _)| {
        let new = !seen.contains(c);
        seen.push(c.clone());
        new
    });
    // A private scratch temp dir, so the runs leave no bridge file among the real ones.
    let scratch = tempfile::Builder::new()
        .prefix("baton-doctor-")
        .tempdir_in(crate::fsx::temp_dir())
        .or_else(|_| tempfile::tempdir());
    match &scratch {
        Ok(scratch) => {
            for (command, scope) in &commands {
                checks.push(command_runs(command, scope, binary, scratch.path()));
            }
        }
        Err(e) => checks.push(Check::fail(
            format!("cannot make a scratch directory to run the wired commands in: {e}"),
            "make the temp dir ($TMPDIR or /tmp) writable",
        )),
    }
    checks.push(bridge_freshness());
    checks.push(hook_errors_in_transcripts());
    checks
}

/// The first `baton` on PATH, and whether it is this binary.
fn on_path(binary: &Path) -> Check {
    let found = which("baton");
    let this = canonical(binary);
    match found {
        None => Check::fail(
            "`baton` is not on PATH",
            format!(
                "add {} to PATH (slash commands and scripts call `baton`)",
                this.parent().unwrap_or(&this).display()
            ),
        ),
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
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// The binary a wired program names: a path (`~/` is the home directory), the plugin's shim
/// when `CLAUDE_PLUGIN_ROOT` is set, or a bare name looked up on PATH.
fn resolve_program(program: &BatonCommand) -> Option<PathBuf> {
    if program.is_plugin_form() {
        let root = std::env::var_os("CLAUDE_PLUGIN_ROOT")?;
        let rest = program.program.split_once('/').map_or("", |(_, r)| r);
        return Some(Path::new(&root).join(rest));
    }
    if let Some(rest) = program.program.strip_prefix("~/") {
        return Some(dirs::home_dir()?.join(rest));
    }
    if program.program.contains(['/', '\\']) {
        return Some(PathBuf::from(&program.program));
    }
    which(&program.program)
}

/// Runs a wired command with a real-looking payload and checks the hook contract; a command
/// that runs a different baton binary than this one fails (its settings are stale).
fn command_runs(command: &str, scope: &Scope, binary: &Path, scratch: &Path) -> Check {
    let Some(parsed) = BatonCommand::parse(command) else {
        return Check::fail(format!("`{command}` is not a baton command"), "run `baton install`");
    };
    let reinstall = match scope {
        Scope::User => format!("{} install", binary.display()),
        Scope::Project(dir) => format!("{} install --project {}", binary.display(), dir.display()),
    };
    let Some(program) = resolve_program(&parsed) else {
        if parsed.is_plugin_form() {
            return Check::pass(format!(
                "`{command}` is the plugin form: the plugin's bin/baton picks the binary"
            ));
        }
        return Check::fail(
            format!("`{command}`: `{}` is not on PATH", parsed.program),
            format!("run `{reinstall}`: it re-points baton's entries at this binary"),
        );
    };
    if !program.is_file() {
        return Check::fail(
            format!("`{command}`: {} does not exist", program.display()),
            format!("run `{reinstall}`: it re-points baton's entries at this binary"),
        );
    }
    if !parsed.is_plugin_form() && canonical(&program) != canonical(binary) {
        return Check::fail(
            format!(
                "`{command}` runs {}, not this baton ({})",
                program.display(),
                canonical(binary).display()
            ),
            format!(
                "run `{reinstall}`: it re-points baton's entries at this binary (or run the doctor of the baton \
                 you mean to use)"
            ),
        );
    }
    let mode = if parsed.mode == "statusline" {
        "statusline"
    } else {
        "hook"
    };
    let payload = if mode == "statusline" {
        r#"{"session_id":"baton-doctor","model":{"display_name":"Doctor"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":1000}}}"#
    } else {
        r#"{"session_id":"baton-doctor","hook_event_name":"Stop","cwd":"/"}"#
    };
    match run_with_limit(&program, mode, payload, scratch, RUN_LIMIT) {
        Ok(Ran::Exited(status, stderr)) if status.success() && stderr.is_empty() => {
            Check::pass(format!("`{command}` runs and exits cleanly"))
        }
        Ok(Ran::Exited(status, stderr)) => Check::fail(
            format!(
                "`{command}` exited {:?} with stderr {:?}",
                status.code(),
                String::from_utf8_lossy(&stderr)
            ),
            format!("run `{reinstall}`; Claude Code shows this as a hook error"),
        ),
        Ok(Ran::TimedOut) => Check::fail(
            format!("`{command}` did not finish in {}s (killed)", RUN_LIMIT.as_secs()),
            "Claude Code kills hooks that hang; set BATON_LOG=/tmp/baton.log and run it again to see where it waits",
        ),
        Err(e) => Check::fail(format!("`{command}` cannot run: {e}"), format!("run `{reinstall}`")),
    }
}

enum Ran {
    Exited(std::process::ExitStatus, Vec<u8>),
    TimedOut,
}

/// Runs `program mode` with `payload` on stdin and `TMPDIR` set to `scratch`; kills it after `limit`.
fn run_with_limit(program: &Path, mode: &str, payload: &str, scratch: &Path, limit: Duration) -> std::io::Result<Ran> {
    let mut child = Command::new(program)
        .arg(mode)
        .env("TMPDIR", scratch)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(payload.as_bytes());
    }
    let (send, receive) = std::sync::mpsc::channel();
    if let Some(mut stderr) = child.stderr.take() {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = std::io::Read::read_to_end(&mut stderr, &mut buf);
            let _ = send.send(buf);
        });
    }
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(Ran::TimedOut);
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    // A child it left behind may hold stderr open: take what came within a moment.
    let stderr = receive.recv_timeout(Duration::from_millis(500)).unwrap_or_default();
    Ok(Ran::Exited(status, stderr))
}

fn which(program: &str) -> Option<PathBuf> {
    let file = format!("{program}{}", std::env::consts::EXE_SUFFIX);
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(&file))
        .find(|c| c.is_file())
}
