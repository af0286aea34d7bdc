//! Shared helpers for the integration tests: a sandbox (its own HOME, TMPDIR and project
//! dir), a runner for the built binary, payloads shaped like the real client's, transcripts.

#![allow(dead_code)]

pub mod gsd;
pub mod os;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The binary under test: `$BATON_TEST_BIN` when set (CI runs the suite once more against
/// the static musl build), else the one cargo built for this test run.
pub fn baton_bin() -> &'static str {
    static BIN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BIN.get_or_init(|| match std::env::var("BATON_TEST_BIN") {
        Ok(path) if !path.is_empty() => path,
        _ => env!("CARGO_BIN_EXE_baton").to_owned(),
    })
}
/// A run that takes longer than this is hung.
pub const HANG_LIMIT: Duration = Duration::from_secs(10);

/// Payloads captured from the real client (Claude Code 2.1.197).
pub fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/claude-code-2.1.197")
        .join(name);
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
}

/// Payloads captured from the latest client (Claude Code 2.1.332, `probe/FINDINGS.md`).
pub fn latest_fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/claude-code-2.1.332")
        .join(name);
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
}

/// Path of a fixture file.
pub fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/claude-code-2.1.197")
        .join(name)
}

/// Path of a fixture captured from Claude Code `version` (`2.1.197`, `2.1.332`).
pub fn fixture_path_of(version: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/fixtures/claude-code-{version}"))
        .join(name)
}

/// A JSON payload captured from Claude Code `version`.
pub fn fixture_of(version: &str, name: &str) -> Value {
    serde_json::from_slice(&std::fs::read(fixture_path_of(version, name)).unwrap()).unwrap()
}

/// Isolated HOME, TMPDIR and project directory for one test.
pub struct Sandbox {
    _root: tempfile::TempDir,
    pub home: PathBuf,
    pub tmp: PathBuf,
    pub project: PathBuf,
    env: Vec<(String, String)>,
}

impl Sandbox {
    /// A fresh sandbox: empty home, temp and project directories.
    pub fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home");
        let tmp = root.path().join("tmp");
        let project = root.path().join("proj");
        for dir in [&home, &tmp, &project] {
            std::fs::create_dir_all(dir).unwrap();
        }
        Self {
            _root: root,
            home,
            tmp,
            project,
            env: Vec::new(),
        }
    }

    /// Sets an extra environment variable for every run.
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.to_owned(), value.to_owned()));
        self
    }

    /// A command running baton with the sandbox's environment.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(baton_bin());
        cmd.args(args);
        self.with_env(cmd)
    }

    /// A command running baton under `wrapper` (a tracer: `strace …`), with the sandbox's environment.
    pub fn wrapped_command(&self, wrapper: &[String], args: &[&str]) -> Command {
        let mut cmd = Command::new(&wrapper[0]);
        cmd.args(&wrapper[1..]).arg("--").arg(baton_bin()).args(args);
        self.with_env(cmd)
    }

    fn with_env(&self, mut cmd: Command) -> Command {
        cmd.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("TMPDIR", &self.tmp)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .current_dir(&self.project);
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    /// Runs `baton hook` with `payload` on stdin.
    pub fn hook(&self, payload: &Value) -> Outcome {
        self.run(&["hook"], payload.to_string().as_bytes())
    }

    /// Runs `baton statusline` with `payload` on stdin.
    pub fn statusline(&self, payload: &Value) -> Outcome {
        self.run(&["statusline"], payload.to_string().as_bytes())
    }

    /// Runs baton with `stdin` written and closed.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> Outcome {
        self.run_with(args, stdin, true)
    }

    /// Runs baton with `payload` on stdin and `env` set for this run only.
    pub fn run_env(&self, args: &[&str], payload: &Value, env: &[(&str, &str)]) -> Outcome {
        self.run_inner(args, payload.to_string().as_bytes(), true, env)
    }

    /// Runs baton with `stdin` written, leaving the pipe open when `close` is false.
    pub fn run_with(&self, args: &[&str], stdin: &[u8], close: bool) -> Outcome {
        self.run_inner(args, stdin, close, &[])
    }

    fn run_inner(&self, args: &[&str], stdin: &[u8], close: bool, env: &[(&str, &str)]) -> Outcome {
        let started = Instant::now();
        let mut command = self.command(args);
        command.envs(env.iter().copied());
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        let input = stdin.to_vec();
        // Write from a thread: baton may stop reading early (cap, garbage) and that is fine.
        let writer = std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
            if close {
                drop(pipe);
                None
            } else {
                Some(pipe)
            }
        });
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > HANG_LIMIT {
                let _ = child.kill();
                panic!("baton {args:?} hung for over {HANG_LIMIT:?}");
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let elapsed = started.elapsed();
        let output = child.wait_with_output().unwrap();
        drop(writer.join());
        Outcome {
            code: status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            elapsed,
        }
    }

    /// Writes `<project>/<relative>` (creating directories).
    pub fn write(&self, relative: &str, contents: &str) -> PathBuf {
        let path = self.project.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// Makes the project look like a GSD project (`.planning/STATE.md`).
    pub fn with_planning_state(&self) {
        self.write(
            ".planning/STATE.md",
            "---\nmilestone: v1.2\nmilestone_name: Auth\nstatus: executing\ncurrent_phase: 3\n---\n\n\
             ## Current Position\nPhase: 3 of 8 (API endpoints)\nPlan: 2 of 4\n",
        );
    }

    /// `$TMPDIR/claude-ctx-<session><suffix>`.
    pub fn temp_file(&self, session: &str, suffix: &str) -> PathBuf {
        self.tmp.join(format!("claude-ctx-{session}{suffix}"))
    }

    /// Writes a GSD-format bridge file for `session` at `remaining`%, `age` seconds old.
    pub fn bridge(&self, session: &str, remaining: u32, age: u64) {
        let timestamp = now() - age;
        let body = json!({"session_id": session, "remaining_percentage": remaining,
                          "used_pct": 100 - remaining, "timestamp": timestamp});
        std::fs::write(self.temp_file(session, ".json"), body.to_string()).unwrap();
    }

    /// Reads and parses a JSON file.
    pub fn read_json(&self, path: &Path) -> Value {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    }

    /// Writes a transcript whose last main-chain reply used `tokens` input tokens.
    pub fn transcript(&self, name: &str, model: &str, tokens: u64) -> PathBuf {
        let path = self.project.join(format!("{name}.jsonl"));
        std::fs::write(&path, transcript_lines(model, tokens)).unwrap();
        path
    }
}

/// Unix seconds now.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A few transcript lines shaped like the real client's, ending in a reply using `tokens`
/// (split across input, cache write and cache read, as the API reports it).
pub fn transcript_lines(model: &str, tokens: u64) -> String {
    let user = json!({"type":"user","isSidechain":false,"message":{"role":"user","content":"run echo"}});
    let older = assistant_line(model, 1000, false);
    let sidechain = assistant_line(model, 190_000, true);
    let last = assistant_line(model, tokens, false);
    let result = json!({"type":"user","isSidechain":false,"message":{"role":"user","content":[
        {"tool_use_id":"toolu_1","type":"tool_result","content":"step1","is_error":false}]}});
    format!("{user}\n{older}\n{sidechain}\n{last}\n{result}\n")
}

/// One assistant transcript line with usage adding up to `tokens`.
pub fn assistant_line(model: &str, tokens: u64, sidechain: bool) -> Value {
    let cache_read = tokens / 2;
    let cache_write = tokens / 4;
    json!({"type":"assistant","isSidechain":sidechain,"requestId":"req_1","message":{
        "id":"msg_1","type":"message","role":"assistant","model":model,
        "content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"echo step1"}}],
        "usage":{"input_tokens": tokens - cache_read - cache_write,
                 "cache_creation_input_tokens": cache_write,"cache_read_input_tokens": cache_read,
                 "output_tokens": 20}}})
}

/// A PostToolUse payload like the real client's, for `session` in the sandbox's project.
pub fn post_tool_use(sandbox: &Sandbox, session: &str, transcript: Option<&Path>) -> Value {
    let mut p = fixture("posttooluse-bash.json");
    p["session_id"] = json!(session);
    p["cwd"] = json!(sandbox.project);
    p["transcript_path"] = json!(transcript.map_or_else(|| sandbox.project.join("missing.jsonl"), Path::to_path_buf));
    p
}

/// A SessionStart payload for `session` with `source`.
pub fn session_start(sandbox: &Sandbox, session: &str, source: &str) -> Value {
    let mut p = fixture("sessionstart-startup.json");
    p["session_id"] = json!(session);
    p["cwd"] = json!(sandbox.project);
    p["source"] = json!(source);
    p
}

/// What one run of baton did.
#[derive(Debug)]
pub struct Outcome {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Outcome {
    /// The hook contract: exit 0, empty stderr, stdout empty or exactly one JSON object.
    #[track_caller]
    pub fn assert_hook_contract(&self) -> &Self {
        assert_eq!(self.code, Some(0), "exit code; {self:?}");
        assert!(self.stderr.is_empty(), "stderr must stay empty; {self:?}");
        let out = self.stdout.trim();
        if !out.is_empty() {
            let v: Value =
                serde_json::from_str(out).unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}): {out}"));
            assert!(v.is_object(), "stdout must be an object: {out}");
        }
        self
    }

    /// The statusline contract: exit 0, empty stderr, exactly one non-blank line.
    #[track_caller]
    pub fn assert_one_line(&self) -> String {
        assert_eq!(self.code, Some(0), "exit code; {self:?}");
        assert!(self.stderr.is_empty(), "stderr must stay empty; {self:?}");
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "one line expected; {self:?}");
        assert!(!lines[0].trim().is_empty(), "the line must not be blank");
        lines[0].to_owned()
    }

    /// The additionalContext the hook gave the model; fails when there is none.
    #[track_caller]
    pub fn context_text(&self) -> String {
        self.context()
            .unwrap_or_else(|| panic!("expected additionalContext; {self:?}"))
    }

    /// The additionalContext the hook gave the model, if any.
    #[track_caller]
    pub fn context(&self) -> Option<String> {
        self.assert_hook_contract();
        let out = self.stdout.trim();
        if out.is_empty() {
            return None;
        }
        let v: Value = serde_json::from_str(out).unwrap();
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "PostToolUse", "{out}");
        Some(
            v["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .expect("additionalContext")
                .to_owned(),
        )
    }
}

/// Strips ANSI escape sequences.
pub fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Runs git in `dir` with a fixed identity (no user config needed); panics on failure and
/// returns stdout, trimmed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(["-c", "user.name=Baton Test", "-c", "user.email=test@baton.invalid"])
        .args(["-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("git {args:?}: {e}"));
    assert!(
        output.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// Makes `dir` a git repository with one commit holding `files` (path, contents);
/// returns the commit id.
pub fn git_repo(dir: &Path, files: &[(&str, &str)]) -> String {
    git(dir, &["init", "-q"]);
    for (path, contents) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "start"]);
    git(dir, &["rev-parse", "HEAD"])
}

/// One API response written as a transcript line the way the real client writes it
/// (`tests/fixtures/claude-code-2.1.197/transcript-headless-3-tools.jsonl`), for the
/// report tests. `split: false` leaves out `usage.cache_creation` (older clients).
#[derive(Debug, Clone)]
pub struct Reply {
    pub model: String,
    pub message_id: Option<String>,
    pub request_id: Option<String>,
    pub input: u64,
    pub output: u64,
    pub cache_write_5m: u64,
    pub cache_write_1h: u64,
    pub cache_read: u64,
    pub sidechain: bool,
    pub split: bool,
    pub timestamp: String,
}

impl Reply {
    /// Response number `n` of `model`, with its own message and request ids.
    pub fn new(model: &str, n: usize) -> Self {
        Self {
            model: model.to_owned(),
            message_id: Some(format!("msg_{n:06}")),
            request_id: Some(format!("req_{n:06}")),
            input: 0,
            output: 0,
            cache_write_5m: 0,
            cache_write_1h: 0,
            cache_read: 0,
            sidechain: false,
            split: true,
            timestamp: "2026-11-30T00:10:41.140Z".to_owned(),
        }
    }

    /// The transcript line.
    pub fn line(&self) -> String {
        let mut usage = json!({"input_tokens": self.input, "output_tokens": self.output,
            "cache_creation_input_tokens": self.cache_write_5m + self.cache_write_1h,
            "cache_read_input_tokens": self.cache_read,
            "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
            "service_tier": "standard", "inference_geo": "", "iterations": [], "speed": "standard"});
        if self.split {
            usage["cache_creation"] = json!({"ephemeral_1h_input_tokens": self.cache_write_1h,
                                             "ephemeral_5m_input_tokens": self.cache_write_5m});
        }
        let mut line = json!({"parentUuid": "p", "isSidechain": self.sidechain, "message": {
            "id": self.message_id, "type": "message", "role": "assistant", "model": self.model,
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                         "input": {"command": "echo \"usage\"", "description": "a \"usage\": {} line"}}],
            "stop_reason": "tool_use", "stop_sequence": null, "usage": usage},
            "type": "assistant", "uuid": "u", "timestamp": self.timestamp, "userType": "external",
            "cwd": "/home/user/proj", "sessionId": "s", "version": "2.1.197"});
        if let Some(id) = &self.request_id {
            line["requestId"] = json!(id);
        }
        if self.message_id.is_none() {
            line["message"].as_object_mut().unwrap().remove("id");
        }
        line.to_string()
    }
}

impl Sandbox {
    /// `<HOME>/.claude/projects/<project dir name>`: where Claude Code keeps the transcripts
    /// of the sandbox's project (every character but letters and digits becomes `-`).
    pub fn claude_project_dir(&self) -> PathBuf {
        let real = std::fs::canonicalize(&self.project).unwrap();
        let name: String = real
            .to_string_lossy()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        self.home.join(".claude/projects").join(name)
    }

    /// Writes the main transcript of `session` where Claude Code would.
    pub fn session_transcript(&self, session: &str, text: &str) -> PathBuf {
        let path = self.claude_project_dir().join(format!("{session}.jsonl"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Writes a subagent's transcript of `session`: `<session>/subagents/agent-<agent>.jsonl`.
    pub fn subagent_transcript(&self, session: &str, agent: &str, text: &str) -> PathBuf {
        let path = self
            .claude_project_dir()
            .join(session)
            .join("subagents")
            .join(format!("agent-{agent}.jsonl"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }
}

/// The (claim, verdict) pairs of a ledger run's spot-check (`verification.checks`).
pub fn verdicts(verification: &Value) -> Vec<(&str, &str)> {
    let checks = verification["checks"].as_array().map(Vec::as_slice).unwrap_or_default();
    checks
        .iter()
        .map(|c| {
            (
                c["claim"].as_str().unwrap_or_default(),
                c["verdict"].as_str().unwrap_or_default(),
            )
        })
        .collect()
}
