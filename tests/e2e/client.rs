//! The real Claude Code client: found in (or installed once with npm into) the target
//! directory, and started with an environment that points it at the mock and isolates it.

use std::ffi::OsStr;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::mock::Mock;
use super::sandbox::Sandbox;

/// The client version the tests drive by default: the latest on the registry when they were
/// last checked. `BATON_E2E_CLAUDE_VERSION` picks another (CI runs them on 2.1.197 too).
pub const LATEST: &str = "2.1.332";

/// The client version under test: `$BATON_E2E_CLAUDE_VERSION`, else [`LATEST`].
pub fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| match std::env::var("BATON_E2E_CLAUDE_VERSION") {
        Ok(v) if !v.trim().is_empty() => v.trim().to_owned(),
        _ => LATEST.to_owned(),
    })
}

/// The key the client sends; the mock accepts anything.
pub const API_KEY: &str = "sk-test-baton-e2e-0123456789abcdefghij";
/// The model every test runs (a 200k-token window, displayed as "Sonnet 4.5").
pub const MODEL: &str = "claude-sonnet-4-5";
/// Upper bound for one headless run; a healthy one takes a few seconds.
const RUN_LIMIT: Duration = Duration::from_secs(150);
/// How long to wait for a finished child's output pipes to close.
const PIPE_GRACE: Duration = Duration::from_secs(10);

/// The `claude` executable, installed on first use; panics (never skips) when that fails.
pub fn claude_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| install(version()))
}

/// The [`LATEST`] client whatever version is under test (what only it can do: mods).
pub fn latest_claude_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| install(LATEST))
}

/// The built baton binary, shell-quoted for a settings `command`.
pub fn baton_command(subcommand: &str) -> String {
    format!("'{}' {subcommand}", crate::common::baton_bin().replace('\'', r"'\''"))
}

/// The fixtures captured from the client under test (`tests/fixtures/claude-code-<version>`).
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("claude-code-{}", version()))
}

/// `claude` configured for `sandbox` and `mock`: loopback API, temp HOME and TMPDIR, no
/// telemetry or updates, nothing inherited from a surrounding Claude Code session.
pub fn claude_command(sandbox: &Sandbox, mock: &Mock) -> Command {
    let mut command = Command::new(claude_bin());
    client_env(&mut command, sandbox, mock);
    command
}

/// Gives `command` (the client, or a tmux server that will start it) the client's environment
/// and the project as working directory.
pub fn client_env(command: &mut Command, sandbox: &Sandbox, mock: &Mock) {
    isolate(command, &sandbox.home, &sandbox.tmp);
    command
        .current_dir(&sandbox.project)
        .env("ANTHROPIC_BASE_URL", mock.base_url())
        .env("ANTHROPIC_API_KEY", API_KEY);
}

/// Runs `claude -p PROMPT --allowedTools Bash` to completion and returns its output;
/// panics if it fails or outlives [`RUN_LIMIT`].
pub fn run_headless(sandbox: &Sandbox, mock: &Mock, prompt: &str) -> Output {
    let mut command = claude_command(sandbox, mock);
    command.args(["-p", prompt, "--allowedTools", "Bash", "--model", MODEL]);
    let output = output_within(command, RUN_LIMIT);
    assert!(
        output.status.success(),
        "claude -p exited with {}\nstdout: {}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    output
}

/// What a finished command printed (stdout, then stderr); panics with it, naming the command
/// as `what`, unless it exited 0.
#[track_caller]
pub fn succeeded(out: Output, what: &str) -> String {
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "`{what}` failed ({}):\n{said}", out.status);
    said
}

/// Removes inherited `CLAUDE*`/`ANTHROPIC_*` variables and points HOME, TMPDIR and the XDG
/// directories at the sandbox.
pub fn isolate(command: &mut Command, home: &Path, tmp: &Path) {
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("CLAUDE") || name.starts_with("ANTHROPIC_") || name == "TMUX" || name == "TMUX_PANE" {
            command.env_remove(name.as_ref());
        }
    }
    command
        .env("HOME", home)
        .env("TMPDIR", tmp)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("DISABLE_TELEMETRY", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1");
}

/// Runs `command` with null stdin, collecting stdout and stderr; kills it and panics after
/// `limit`.
pub fn output_within(mut command: Command, limit: Duration) -> Output {
    let program = command.get_program().to_string_lossy().into_owned();
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status = wait_within(&mut child, limit);
    let output = Output {
        status: status.unwrap_or_else(|| child.wait().expect("reap the killed child")),
        stdout: stdout.recv_timeout(PIPE_GRACE).unwrap_or_default(),
        stderr: stderr.recv_timeout(PIPE_GRACE).unwrap_or_default(),
    };
    if status.is_none() {
        panic!(
            "{program} still running after {limit:?}; killed it\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
    }
    output
}

fn wait_within(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().expect("poll the child") {
            return Some(status);
        }
        thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    None
}

/// Reads a pipe to its end on a thread. The result is awaited for at most [`PIPE_GRACE`]
/// after the child exits: a grandchild left holding the pipe must not hang the test.
fn drain(pipe: Option<impl Read + Send + 'static>) -> mpsc::Receiver<Vec<u8>> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        let _ = sender.send(bytes);
    });
    receiver
}

/// Installs client `wanted` (into `claude-code-<version>` under the target directory) unless
/// a working copy is already there.
fn install(wanted: &str) -> PathBuf {
    let package = format!("@anthropic-ai/claude-code@{wanted}");
    let dir = super::npm::install(&format!("claude-code-{wanted}"), &package, |dir| {
        installed_version(dir, &dir.join("node_modules/.bin/claude")).is_some_and(|found| found.starts_with(wanted))
    });
    let bin = dir.join("node_modules/.bin/claude");
    let found = installed_version(&dir, &bin);
    assert!(
        found.as_deref().is_some_and(|found| found.starts_with(wanted)),
        "{} --version gave {found:?}, expected {wanted}",
        bin.display(),
    );
    bin
}

/// `claude --version`, run with a throwaway HOME so the real one is never touched.
fn installed_version(dir: &Path, bin: &Path) -> Option<String> {
    if !bin.exists() {
        return None;
    }
    let home = dir.join("version-home");
    let tmp = home.join("tmp");
    fs::create_dir_all(&tmp).ok()?;
    let mut command = Command::new(bin);
    command.arg("--version");
    isolate(&mut command, &home, &tmp);
    let output = output_within(command, Duration::from_secs(60));
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// True when `name` is on PATH (used to fail with a clear message rather than a spawn error).
pub fn on_path(name: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| dir.join(OsStr::new(name)).is_file())
}
