//! Shared helpers for the integration tests: a sandbox (its own HOME, TMPDIR and project
//! dir), a runner for the built binary, payloads shaped like the real client's, transcripts.

#![allow(dead_code)]

pub mod binary;
pub mod git;
pub mod gsd;
pub mod os;
pub mod outcome;
pub mod reply;

pub use binary::{baton_bin, host_path, native, wired};
pub use git::{git, git_repo, git_with};
pub use outcome::{Outcome, plain};
pub use reply::Reply;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

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

    /// Starts `n` hooks, each blocked on stdin, then gives them all `payload` at once (so they
    /// run together), and returns what each did.
    pub fn hooks_released_together(&self, n: usize, payload: &[u8]) -> Vec<std::process::Output> {
        let mut children: Vec<_> = (0..n)
            .map(|_| {
                self.command(&["hook"])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let pipes: Vec<_> = children.iter_mut().map(|c| c.stdin.take().unwrap()).collect();
        for mut pipe in pipes {
            pipe.write_all(payload).unwrap();
        }
        children.into_iter().map(|c| c.wait_with_output().unwrap()).collect()
    }

    /// A captured statusline payload moved into the sandbox's project, with a transcript
    /// path where no file is.
    pub fn statusline_payload_in_project(&self, captured: Value) -> Value {
        let mut p = captured;
        p["cwd"] = json!(native(&self.project));
        p["workspace"]["current_dir"] = json!(native(&self.project));
        p["workspace"]["project_dir"] = json!(native(&self.project));
        p["transcript_path"] = json!(native(self.project.join("missing.jsonl")));
        p
    }

    /// A command running baton with the sandbox's environment.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = binary::command(baton_bin());
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

    /// baton's own debounce record for `key` (a session, or `<session>-agent-<agent_id>`), in
    /// its private directory; `temp_file(session, "-warned.json")` is GSD's monitor's.
    pub fn debounce_file(&self, key: &str) -> PathBuf {
        self.tmp
            .join(&os::private_dir_names()[0])
            .join(format!("session-{key}-warned.json"))
    }

    /// [`Self::debounce_file`], its private directory made as baton makes it (0700), so a test
    /// can plant something there before baton runs.
    pub fn planted_debounce_file(&self, key: &str) -> PathBuf {
        let path = self.debounce_file(key);
        let private = path.parent().unwrap();
        std::fs::create_dir_all(private).unwrap();
        os::set_mode(private, 0o700);
        path
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
    p["cwd"] = json!(native(&sandbox.project));
    p["transcript_path"] = json!(transcript.map_or_else(|| sandbox.project.join("missing.jsonl"), Path::to_path_buf));
    p
}

/// A SubagentStart or SubagentStop payload like the real client's (its captured session), for
/// run `agent` of type `agent_type` in the sandbox's project.
pub fn subagent_event(sandbox: &Sandbox, event: &str, agent: &str, agent_type: &str) -> Value {
    let mut p = fixture(&format!("{}.json", event.to_ascii_lowercase()));
    p["cwd"] = json!(native(&sandbox.project));
    p["agent_id"] = json!(agent);
    p["agent_type"] = json!(agent_type);
    p
}

/// A SessionStart payload for `session` with `source`.
pub fn session_start(sandbox: &Sandbox, session: &str, source: &str) -> Value {
    let mut p = fixture("sessionstart-startup.json");
    p["session_id"] = json!(session);
    p["cwd"] = json!(native(&sandbox.project));
    p["source"] = json!(source);
    p
}

impl Sandbox {
    /// `<HOME>/.claude/projects/<project dir name>`: where Claude Code keeps the transcripts
    /// of the sandbox's project (every character of its path as the binary sees it, but
    /// letters and digits, becomes `-`: `-tmp-x-proj`, `C--Users-x-proj`).
    pub fn claude_project_dir(&self) -> PathBuf {
        let real = std::fs::canonicalize(&self.project).unwrap();
        let name: String = native(real)
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
