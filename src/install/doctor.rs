//! `baton doctor`: checks the wiring (binary on PATH and matching the settings, entries
//! present, the bridge file fresh for a recent session, hooks not failing) and says what to fix.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use super::Scope;
use super::settings::{EVENTS, is_baton_command};

/// A session whose transcript changed this recently should have a fresh bridge file.
const RECENT: Duration = Duration::from_secs(10 * 60);

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

/// Runs every check for the user's settings and the project's (when it has any).
pub fn run(binary: &Path, project: Option<&Path>) -> Vec<Check> {
    let mut checks = vec![on_path(binary)];
    let mut scopes = vec![Scope::User];
    if let Some(dir) = project {
        scopes.push(Scope::Project(dir.to_path_buf()));
    }
    let mut commands: Vec<String> = Vec::new();
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
                    commands.push(cmd.to_owned());
                }
                for (event, _) in EVENTS {
                    let groups = value["hooks"][*event].as_array().cloned().unwrap_or_default();
                    for hook in groups.iter().filter_map(|g| g["hooks"].as_array()).flatten() {
                        if let Some(cmd) = hook["command"].as_str().filter(|c| is_baton_command(c)) {
                            wired_events.push(event);
                            commands.push(cmd.to_owned());
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
    commands.sort();
    commands.dedup();
    for command in &commands {
        checks.push(command_runs(command, binary));
    }
    checks.push(bridge_freshness());
    checks.extend(hook_errors_in_transcripts());
    checks
}

/// The first `baton` on PATH, and whether it is this binary.
fn on_path(binary: &Path) -> Check {
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.join("baton")).find(|c| c.is_file()))
        .unwrap_or_default();
    let this = binary.canonicalize().unwrap_or_else(|_| binary.to_path_buf());
    match found {
        None => Check::fail(
            "`baton` is not on PATH",
            format!(
                "add {} to PATH (slash commands and scripts call `baton`)",
                this.parent().unwrap_or(&this).display()
            ),
        ),
        Some(p) if p.canonicalize().ok().as_deref() == Some(this.as_path()) => {
            Check::pass(format!("`baton` on PATH is {}", p.display()))
        }
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

/// Runs a wired command with a real-looking payload and checks the hook contract.
fn command_runs(command: &str, binary: &Path) -> Check {
    let (program, mode) = split_command(command);
    if !Path::new(&program).is_file() && which(&program).is_none() {
        return Check::fail(
            format!("`{command}`: {program} does not exist"),
            "run `baton install` again to point the settings at this binary",
        );
    }
    let payload = if mode == "statusline" {
        r#"{"session_id":"baton-doctor","model":{"display_name":"Doctor"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":1000}}}"#
    } else {
        r#"{"session_id":"baton-doctor","hook_event_name":"Stop","cwd":"/"}"#
    };
    // A scratch temp dir, so the check leaves no bridge file among the real ones.
    let scratch = std::env::temp_dir().join("baton-doctor");
    let _ = std::fs::create_dir_all(&scratch);
    let run = Command::new(&program)
        .arg(&mode)
        .env("TMPDIR", &scratch)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            if let Some(mut stdin) = child.stdin.take() {
                let _ = stdin.write_all(payload.as_bytes());
            }
            child.wait_with_output()
        });
    let same = Path::new(&program).canonicalize().ok() == binary.canonicalize().ok();
    match run {
        Ok(out) if out.status.success() && out.stderr.is_empty() => {
            let note = if same {
                ""
            } else {
                " (a different baton binary than this one)"
            };
            Check::pass(format!("`{command}` runs and exits cleanly{note}"))
        }
        Ok(out) => Check::fail(
            format!(
                "`{command}` exited {:?} with stderr {:?}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ),
            "reinstall with ./install.sh; Claude Code shows this as a hook error",
        ),
        Err(e) => Check::fail(format!("`{command}` cannot run: {e}"), "reinstall with ./install.sh"),
    }
}

fn split_command(command: &str) -> (String, String) {
    let command = command.trim();
    let (program, rest) = match command.strip_prefix('\'').and_then(|q| q.split_once('\'')) {
        Some((p, r)) => (p.to_owned(), r),
        None => {
            let (p, r) = command.split_once(char::is_whitespace).unwrap_or((command, ""));
            (p.to_owned(), r)
        }
    };
    let mode = rest.split_whitespace().next().unwrap_or("hook");
    (
        program,
        if mode == "statusline" { "statusline" } else { "hook" }.to_owned(),
    )
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(program))
        .find(|c| c.is_file())
}

/// The newest bridge file against the newest transcript: a session active in the last ten
/// minutes should have a bridge file written by the statusline within that time.
fn bridge_freshness() -> Check {
    let newest_bridge = newest(&crate::fsx::temp_dir(), |n| {
        n.starts_with("claude-ctx-") && n.ends_with(".json") && !n.ends_with("-warned.json")
    });
    let projects = crate::claude_home::config_dir().map(|d| d.join("projects"));
    let newest_transcript = projects.and_then(|dir| {
        std::fs::read_dir(dir)
            .ok()?
            .flatten()
            .filter_map(|p| newest(&p.path(), |n| n.ends_with(".jsonl")))
            .max_by_key(|(_, t)| *t)
    });
    let age = |t: SystemTime| SystemTime::now().duration_since(t).unwrap_or_default();
    match (newest_transcript, newest_bridge) {
        (Some((transcript, t)), bridge) if age(t) < RECENT => match bridge {
            Some((_, b)) if age(b) < RECENT => Check::pass(format!("bridge file written {}s ago", age(b).as_secs())),
            _ => Check::fail(
                format!(
                    "session {} was active {}s ago but no bridge file is fresh",
                    transcript.display(),
                    age(t).as_secs()
                ),
                "the statusline is not running: check statusLine in the settings this session reads (headless `claude -p` never runs it; the monitor then reads the transcript itself)",
            ),
        },
        (_, Some((_, b))) => Check::pass(format!(
            "newest bridge file is {}s old (no session active now)",
            age(b).as_secs()
        )),
        (_, None) => Check::pass("no recent session to check the bridge file against"),
    }
}

fn newest(dir: &Path, wanted: impl Fn(&str) -> bool) -> Option<(PathBuf, SystemTime)> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(&wanted))
        .filter_map(|e| Some((e.path(), e.metadata().ok()?.modified().ok()?)))
        .max_by_key(|(_, t)| *t)
}

/// Hook failures of baton recorded in the newest transcripts' tails.
fn hook_errors_in_transcripts() -> Vec<Check> {
    let Some(projects) = crate::claude_home::config_dir().map(|d| d.join("projects")) else {
        return Vec::new();
    };
    let Ok(dirs) = std::fs::read_dir(projects) else {
        return Vec::new();
    };
    let mut transcripts: Vec<(PathBuf, SystemTime)> = dirs
        .flatten()
        .filter_map(|d| newest(&d.path(), |n| n.ends_with(".jsonl")))
        .collect();
    transcripts.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
    let mut failures = 0;
    for (path, _) in transcripts.iter().take(5) {
        let Ok(text) = read_tail(path, 256 * 1024) else {
            continue;
        };
        failures += text
            .lines()
            .filter(|l| {
                l.contains("baton")
                    && (l.contains("\"hook_error\"")
                        || l.contains("\"hook_non_blocking_error\"")
                        || (l.contains("\"exitCode\":") && !l.contains("\"exitCode\":0")))
            })
            .count();
    }
    if failures > 0 {
        vec![Check::fail(
            format!("{failures} failed baton hook runs in recent transcripts"),
            "run `baton doctor` after `./install.sh`; set BATON_LOG=/tmp/baton.log to see why",
        )]
    } else {
        vec![Check::pass("no failed baton hook runs in recent transcripts")]
    }
}

fn read_tail(path: &Path, bytes: u64) -> std::io::Result<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = crate::fsx::open_regular(path)?;
    let len = file.metadata()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(bytes)))?;
    let mut buf = Vec::new();
    file.take(bytes).read_to_end(&mut buf)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_wired_commands() {
        assert_eq!(
            split_command("/x/baton statusline"),
            ("/x/baton".into(), "statusline".into())
        );
        assert_eq!(
            split_command("'/my dir/baton' hook"),
            ("/my dir/baton".into(), "hook".into())
        );
        assert_eq!(split_command("baton monitor"), ("baton".into(), "hook".into()));
    }
}
