//! The doctor's checks of recent sessions: a fresh bridge file for each interactive session
//! active in the last ten minutes, and no failed baton hook runs recorded in their transcripts.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use super::Check;
use crate::context::bridge;
use crate::install::command_line::is_baton_command;

/// A session whose transcript changed this recently should have a fresh bridge file.
const RECENT: Duration = Duration::from_secs(10 * 60);

/// How much of a transcript's end (or start) the checks read.
const TAIL_BYTES: u64 = 256 * 1024;

/// Main transcripts (`<projects>/<project>/<session id>.jsonl`) with their change time,
/// newest first.
fn transcripts() -> Vec<(String, PathBuf, SystemTime)> {
    let Some(projects) = crate::claude_home::config_dir().map(|d| d.join("projects")) else {
        return Vec::new();
    };
    let Ok(dirs) = std::fs::read_dir(projects) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf, SystemTime)> = dirs
        .flatten()
        .filter_map(|d| std::fs::read_dir(d.path()).ok())
        .flat_map(|entries| entries.flatten())
        .filter_map(|e| {
            let path = e.path();
            let id = path.file_name()?.to_str()?.strip_suffix(".jsonl")?.to_owned();
            let modified = e.metadata().ok().filter(|m| m.is_file())?.modified().ok()?;
            Some((id, path, modified))
        })
        .collect();
    found.sort_by_key(|(_, _, t)| std::cmp::Reverse(*t));
    found
}

fn age(t: SystemTime) -> Duration {
    SystemTime::now().duration_since(t).unwrap_or_default()
}

/// A headless session (`claude -p`, or the Agent SDK) runs no statusline, so it has no bridge
/// file. Its transcript says so: the client's lines carry `entrypoint`, `sdk-cli` for
/// `claude -p` and `cli` for the interactive client (2.1.197 and 2.1.332; the SDKs' own start
/// with `sdk-` too). The newest one decides (a session resumed the other way), else the first.
fn headless(transcript: &Path) -> bool {
    let newest = read_tail(transcript, TAIL_BYTES).ok().and_then(|t| last_entrypoint(&t));
    let found = newest.or_else(|| read_head(transcript, TAIL_BYTES).ok().and_then(|t| last_entrypoint(&t)));
    found.is_some_and(|e| e.starts_with("sdk"))
}

/// The value of the last `"entrypoint":"…"` in `text`, read as text: a line may be longer
/// than what was read of it (one carrying the tool list runs past 100 KiB), and the top-level
/// key comes after a line's message. A value inside a string is escaped (`\"`), so it does
/// not match.
fn last_entrypoint(text: &str) -> Option<String> {
    const KEY: &str = "\"entrypoint\":\"";
    let at = text.rfind(KEY)? + KEY.len();
    let rest = &text[at..];
    let end = rest.find('"')?;
    Some(rest[..end].to_owned())
}

/// Each interactive session active in the last ten minutes should have its own bridge file
/// (`claude-ctx-<session id>.json`, the transcript's file stem) written within that time.
pub(super) fn bridge_freshness() -> Check {
    let (headless, recent): (Vec<_>, Vec<_>) = transcripts()
        .into_iter()
        .filter(|(_, _, t)| age(*t) < RECENT)
        .partition(|(_, path, _)| headless(path));
    let skipped = match headless.len() {
        0 => String::new(),
        n => format!(
            "; {} (`claude -p`, which runs no statusline) not checked",
            crate::words::count(n, "headless session", "headless sessions")
        ),
    };
    if recent.is_empty() {
        return Check::pass(format!(
            "no interactive session active in the last ten minutes to check the bridge file against{skipped}"
        ));
    }
    let stale: Vec<_> = recent
        .iter()
        .filter(|(id, _, _)| {
            let fresh = bridge::path(id)
                .and_then(|b| std::fs::metadata(b).ok())
                .and_then(|m| m.modified().ok())
                .is_some_and(|b| age(b) < RECENT);
            !fresh
        })
        .collect();
    match stale.first() {
        None => Check::pass(format!(
            "every interactive session active in the last ten minutes ({}) has a fresh bridge file{skipped}",
            recent.len()
        )),
        Some((id, _, t)) => Check::fail(
            format!(
                "session {id} was active {}s ago but {} is missing or stale{}",
                age(*t).as_secs(),
                bridge::path(id).map_or_else(
                    || "its bridge file (the session id cannot name a file)".to_owned(),
                    |path| path.display().to_string()
                ),
                if stale.len() > 1 {
                    format!(" ({} such sessions)", stale.len())
                } else {
                    String::new()
                }
            ),
            "the statusline is not running for it: check statusLine in the settings that session reads \
             (the monitor then reads the transcript itself, as for a headless `claude -p`)",
        ),
    }
}

/// A transcript line recording a failed run of a baton hook: an attachment of type
/// `hook_non_blocking_error` (or `hook_blocking_error`), or with a non-zero `exitCode`, whose
/// command runs baton.
fn failed_baton_hook(line: &str) -> Option<(String, String)> {
    if !line.contains("\"attachment\"") {
        return None;
    }
    let value: Value = serde_json::from_str(line).ok()?;
    if value["type"] != "attachment" {
        return None;
    }
    let a = &value["attachment"];
    let failed = matches!(
        a["type"].as_str(),
        Some("hook_non_blocking_error" | "hook_blocking_error")
    ) || a["exitCode"].as_i64().is_some_and(|c| c != 0);
    let command = a["command"].as_str().filter(|c| is_baton_command(c))?;
    let said = a["stderr"].as_str().or(a["content"].as_str()).unwrap_or("").trim();
    failed.then(|| (command.to_owned(), said.to_owned()))
}

/// Hook failures of baton recorded in the newest transcripts' tails.
pub(super) fn hook_errors_in_transcripts() -> Check {
    let mut failures = Vec::new();
    for (_, path, _) in transcripts().iter().take(5) {
        let Ok(text) = read_tail(path, TAIL_BYTES) else {
            continue;
        };
        failures.extend(text.lines().filter_map(failed_baton_hook));
    }
    match failures.last() {
        None => Check::pass("no failed baton hook runs in recent transcripts"),
        Some((command, said)) => Check::fail(
            format!(
                "{} in recent transcripts; the last: `{command}`{}",
                crate::words::count(failures.len(), "failed baton hook run", "failed baton hook runs"),
                if said.is_empty() {
                    String::new()
                } else {
                    format!(" said {said:?}")
                }
            ),
            "fix what the checks above report (a stale path: `baton install` re-points it); otherwise run the \
             command with BATON_LOG=/tmp/baton.log set in the environment Claude Code starts from, and read that \
             log after the next failure",
        ),
    }
}

fn read_head(path: &Path, bytes: u64) -> std::io::Result<String> {
    use std::io::Read;
    let mut buf = Vec::new();
    crate::fsx::open_regular(path)?.take(bytes).read_to_end(&mut buf)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
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
    fn the_entrypoint_is_the_last_top_level_one_and_never_one_inside_a_string() {
        let line = |entry: &str, said: &str| {
            serde_json::json!({"type": "user", "message": {"role": "user", "content": said},
                "entrypoint": entry})
            .to_string()
        };
        let text = format!("{}\n{}\n", line("cli", "x"), line("sdk-cli", "\"entrypoint\":\"cli\""));
        assert_eq!(last_entrypoint(&text).as_deref(), Some("sdk-cli"));
        assert_eq!(last_entrypoint("{\"type\":\"last-prompt\"}"), None);
    }

    #[test]
    fn failed_hooks_are_read_from_attachments_of_baton_commands() {
        let line = |kind: &str, code: i64, command: &str| {
            serde_json::json!({"type": "attachment", "attachment": {"type": kind, "exitCode": code,
                "command": command, "stderr": "boom", "hookEvent": "PostToolUse"}})
            .to_string()
        };
        assert!(failed_baton_hook(&line("hook_non_blocking_error", 1, "/x/baton hook")).is_some());
        assert!(failed_baton_hook(&line("hook_success", 2, "'/my dir/baton' statusline")).is_some());
        assert!(failed_baton_hook(&line("hook_success", 1, "${CLAUDE_PLUGIN_ROOT}/bin/baton hook")).is_some());
        assert!(failed_baton_hook(&line("hook_success", 0, "/x/baton hook")).is_none());
        assert!(failed_baton_hook(&line("hook_non_blocking_error", 1, "node baton-helper.js")).is_none());
        assert!(failed_baton_hook(&line("hook_non_blocking_error", 1, "echo baton hook")).is_none());
        assert!(
            failed_baton_hook(r#"{"type":"user","message":"baton hook_non_blocking_error \"exitCode\":1"}"#).is_none()
        );
    }
}
