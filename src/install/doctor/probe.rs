//! What users depend on, tried on a wired command the way Claude Code runs it, in a scratch
//! directory (its own temp dir, home, Claude Code and baton config and project, a made-up
//! session): the statusline prints one line and writes the bridge file; the monitor, given a
//! PostToolUse at 15% context left, warns the agent. The user's real files are never touched.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Seconds a wired command may take before the doctor kills it and says so.
pub const RUN_LIMIT: Duration = Duration::from_secs(5);

/// The context the monitor probe reports: 170k of a 200k window, 15% left.
const PROBE_TOKENS: u64 = 170_000;

/// How one probe went wrong.
pub enum Failure {
    /// It did not finish within [`RUN_LIMIT`].
    TimedOut,
    /// It could not be started.
    Spawn(std::io::Error),
    /// It ran, but not as Claude Code needs: what was wrong.
    Wrong(String),
}

/// A scratch place for the probes: removed when dropped.
pub struct Scratch {
    dir: tempfile::TempDir,
    /// Probes run so far: each gets a session of its own, so that one command's warning does
    /// not debounce the next one's (the plugin's hooks beside the settings').
    probes: std::cell::Cell<u32>,
}

impl Scratch {
    /// A fresh scratch directory under the temp dir (so the probes write where baton does).
    pub fn new() -> std::io::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("baton-doctor-")
            .tempdir_in(crate::fsx::temp_dir())
            .or_else(|_| tempfile::tempdir())?;
        for sub in ["tmp", "home", "project"] {
            std::fs::create_dir_all(dir.path().join(sub))?;
        }
        Ok(Self {
            dir,
            probes: std::cell::Cell::new(0),
        })
    }

    /// A made-up session id no other probe of this run uses.
    fn session(&self, role: &str) -> String {
        let n = self.probes.get() + 1;
        self.probes.set(n);
        format!("baton-doctor-{role}-{n}")
    }

    fn path(&self, sub: &str) -> PathBuf {
        self.dir.path().join(sub)
    }
}

/// Runs `program mode` (as wired: `statusline`) with a statusline payload at half the window;
/// it must print one line and write the session's bridge file.
pub fn statusline(program: &Path, mode: &str, plugin_root: Option<&Path>, scratch: &Scratch) -> Result<(), Failure> {
    let session = scratch.session("statusline");
    let payload = json!({
        "session_id": session,
        "transcript_path": scratch.path("project").join(format!("{session}.jsonl")),
        "cwd": scratch.path("project"),
        "model": {"id": "claude-sonnet-4-5", "display_name": "Sonnet 4.5"},
        "workspace": {"current_dir": scratch.path("project"), "project_dir": scratch.path("project")},
        "context_window": {"context_window_size": 200_000, "current_usage": {"input_tokens": 2_000,
            "cache_creation_input_tokens": 1_000, "cache_read_input_tokens": 97_000, "output_tokens": 50},
            "used_percentage": 50, "remaining_percentage": 50},
    });
    let ran = run(program, mode, &payload, plugin_root, scratch)?;
    ran.clean()?;
    let lines: Vec<&str> = ran.stdout.lines().collect();
    if lines.len() != 1 || lines[0].trim().is_empty() {
        return Err(Failure::Wrong(format!(
            "printed {} instead of one status line: {:?}",
            crate::words::count(lines.len(), "line", "lines"),
            ran.stdout
        )));
    }
    let bridge = crate::context::bridge::path(&session)
        .and_then(|p| p.strip_prefix(crate::fsx::temp_dir()).ok().map(Path::to_path_buf))
        .map(|relative| scratch.path("tmp").join(relative));
    let written: Option<Value> = bridge
        .as_deref()
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|bytes| serde_json::from_slice(&bytes).ok());
    match written {
        Some(b) if b["session_id"] == session.as_str() && b["remaining_percentage"].is_number() => Ok(()),
        Some(b) => Err(Failure::Wrong(format!(
            "wrote a bridge file the monitor cannot use: {b}"
        ))),
        None => Err(Failure::Wrong(
            "printed the line but wrote no bridge file for the context monitor".to_owned(),
        )),
    }
}

/// Runs `program mode` (as wired: `hook`) with a PostToolUse payload whose transcript ends in
/// a reply using 170k of 200k tokens; it must add a context warning for the agent.
pub fn monitor(program: &Path, mode: &str, plugin_root: Option<&Path>, scratch: &Scratch) -> Result<(), Failure> {
    let session = scratch.session("monitor");
    let transcript = scratch.path("project").join(format!("{session}.jsonl"));
    let lines = [
        json!({"type": "user", "isSidechain": false, "message": {"role": "user", "content": "run the tests"}}),
        json!({"type": "assistant", "isSidechain": false, "requestId": "req_doctor",
            "timestamp": crate::clock::utc_rfc3339(chrono::Utc::now().timestamp_millis()),
            "message": {"id": "msg_doctor", "role": "assistant", "model": "claude-sonnet-4-5",
                "content": [{"type": "tool_use", "id": "toolu_doctor", "name": "Bash",
                             "input": {"command": "cargo test"}}],
                "usage": {"input_tokens": 4, "cache_creation_input_tokens": 1_000,
                          "cache_read_input_tokens": PROBE_TOKENS - 1_004, "output_tokens": 30}}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&transcript, text).map_err(Failure::Spawn)?;
    let payload = json!({
        "session_id": session,
        "transcript_path": transcript,
        "cwd": scratch.path("project"),
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "cargo test"},
        "tool_response": {"stdout": "ok", "stderr": "", "interrupted": false},
        "tool_use_id": "toolu_doctor",
    });
    let ran = run(program, mode, &payload, plugin_root, scratch)?;
    ran.clean()?;
    let out: Option<Value> = serde_json::from_str(ran.stdout.trim()).ok();
    let context = out
        .as_ref()
        .and_then(|v| v["hookSpecificOutput"]["additionalContext"].as_str());
    match context {
        Some(text) if text.contains("CONTEXT") => Ok(()),
        _ if ran.stdout.trim().is_empty() => Err(Failure::Wrong(
            "gave the agent no context warning for a PostToolUse at 15% context left".to_owned(),
        )),
        _ => Err(Failure::Wrong(format!(
            "answered a PostToolUse at 15% context left without a context warning: {:?}",
            ran.stdout
        ))),
    }
}

/// What one run printed.
struct Ran {
    status: std::process::ExitStatus,
    stdout: String,
    stderr: String,
}

impl Ran {
    /// The hook contract: exit 0 and nothing on stderr.
    fn clean(&self) -> Result<(), Failure> {
        if self.status.success() && self.stderr.is_empty() {
            return Ok(());
        }
        Err(Failure::Wrong(format!(
            "exited {} with stderr {:?} (Claude Code shows this as an error)",
            self.status
                .code()
                .map_or_else(|| "on a signal".to_owned(), |c| c.to_string()),
            self.stderr
        )))
    }
}

/// Runs `program mode` with `payload` on stdin in the scratch environment; kills it after
/// [`RUN_LIMIT`].
fn run(
    program: &Path,
    mode: &str,
    payload: &Value,
    plugin_root: Option<&Path>,
    scratch: &Scratch,
) -> Result<Ran, Failure> {
    let home = scratch.path("home");
    let mut command = Command::new(program);
    for var in crate::platform::temp::temp_dir_vars(crate::platform::Family::CURRENT) {
        command.env(var, scratch.path("tmp"));
    }
    command
        .arg(mode)
        .current_dir(scratch.path("project"))
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("CLAUDE_CONFIG_DIR", home.join(".claude"))
        .env("BATON_CONFIG", home.join("baton-config.json"))
        .env_remove("BATON_LOG")
        .env_remove("CLAUDE_PLUGIN_ROOT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(root) = plugin_root {
        command.env("CLAUDE_PLUGIN_ROOT", root);
    }
    let mut child = command.spawn().map_err(Failure::Spawn)?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(payload.to_string().as_bytes());
    }
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > RUN_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Failure::TimedOut);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(Failure::Spawn(e)),
        }
    };
    // A child it left behind may hold the pipes open: take what came within a moment.
    let take = |r: std::sync::mpsc::Receiver<Vec<u8>>| {
        String::from_utf8_lossy(&r.recv_timeout(Duration::from_millis(500)).unwrap_or_default()).into_owned()
    };
    Ok(Ran {
        status,
        stdout: take(stdout),
        stderr: take(stderr),
    })
}

/// Reads a pipe to its end on a thread.
fn drain(pipe: Option<impl std::io::Read + Send + 'static>) -> std::sync::mpsc::Receiver<Vec<u8>> {
    let (send, receive) = std::sync::mpsc::channel();
    if let Some(mut pipe) = pipe {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = pipe.read_to_end(&mut buf);
            let _ = send.send(buf);
        });
    }
    receive
}
