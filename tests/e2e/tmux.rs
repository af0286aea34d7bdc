//! A private tmux server running the interactive client, for tests that need what only the
//! interactive client does (the statusline): start, type, read the screen.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use super::client::{MODEL, claude_bin, client_env, on_path, output_within};
use super::mock::Mock;
use super::poll;
use super::sandbox::Sandbox;

/// Generous: the client starts in ~2 s idle, much slower on a loaded 2-core machine.
pub const LIMIT: Duration = Duration::from_secs(90);

/// A private tmux server (its own socket) holding one session; killed on drop.
pub struct Tmux {
    socket: String,
    /// The pane's process (the client), waited for on drop so the sandbox can be removed.
    client: Option<u32>,
    /// The server's socket file, which tmux leaves behind; removed on drop.
    socket_path: Option<String>,
}

impl Tmux {
    /// Starts `claude --model MODEL` in a detached 200x50 session, with the client's environment.
    pub fn start(sandbox: &Sandbox, mock: &Mock) -> Tmux {
        Tmux::start_with(sandbox, mock, &[], &[])
    }

    /// As [`Tmux::start`], with `env` set for the client and `args` after its own.
    pub fn start_with(sandbox: &Sandbox, mock: &Mock, args: &[&std::ffi::OsStr], env: &[(&str, &Path)]) -> Tmux {
        assert!(on_path("tmux"), "tmux is not on PATH: the statusline e2e test needs it");
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let socket = format!(
            "baton-e2e-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::SeqCst)
        );
        // Keep the pane after the client exits, so a crash still shows on the screen; focus
        // events stop the client's tmux notice taking the footer's place.
        let config = sandbox.home.join("tmux.conf");
        fs::write(
            &config,
            "set -g remain-on-exit on\nset -g focus-events on\nset -g history-limit 5000\n",
        )
        .expect("write tmux.conf");
        let mut command = Command::new("tmux");
        client_env(&mut command, sandbox, mock);
        command.envs(env.iter().copied());
        command
            .env("TERM", "xterm-256color")
            .arg("-L")
            .arg(&socket)
            .arg("-f")
            .arg(&config);
        command.args(["new-session", "-d", "-s", "e2e", "-x", "200", "-y", "50", "-c"]);
        command
            .arg(&sandbox.project)
            .arg("--")
            .arg(claude_bin())
            .args(["--model", MODEL])
            .args(args);
        let mut tmux = Tmux {
            socket,
            client: None,
            socket_path: None,
        };
        let started = output_within(command, Duration::from_secs(30));
        assert!(
            started.status.success(),
            "tmux new-session failed: {}",
            text(&started.stderr)
        );
        let facts = tmux.run(&["display-message", "-p", "-t", "e2e", "#{pane_pid} #{socket_path}"]);
        let facts = text(&facts.stdout);
        let (pid, socket_path) = facts.trim().split_once(' ').unwrap_or_default();
        tmux.client = pid.parse().ok();
        tmux.socket_path = Some(socket_path.to_owned()).filter(|path| !path.is_empty());
        tmux
    }

    /// Runs `tmux -L SOCKET ARGS`.
    pub fn run(&self, args: &[&str]) -> Output {
        let mut command = Command::new("tmux");
        command.arg("-L").arg(&self.socket).args(args);
        output_within(command, Duration::from_secs(30))
    }

    /// The visible screen, as plain text.
    pub fn screen(&self) -> String {
        text(&self.run(&["capture-pane", "-p", "-t", "e2e"]).stdout)
    }

    /// Types `line` literally (no Enter).
    pub fn type_text(&self, line: &str) {
        let typed = self.run(&["send-keys", "-t", "e2e", "-l", line]);
        assert!(typed.status.success(), "tmux send-keys failed: {}", text(&typed.stderr));
    }

    /// Presses Enter.
    pub fn press_enter(&self) {
        let pressed = self.run(&["send-keys", "-t", "e2e", "Enter"]);
        assert!(
            pressed.status.success(),
            "tmux send-keys Enter failed: {}",
            text(&pressed.stderr)
        );
    }

    /// Waits for the prompt, types `prompt` and sends it; panics with the screen on failure.
    pub fn submit(&self, prompt: &str, mock: &Mock) {
        let ready = poll(LIMIT, || self.screen().contains('❯').then_some(()));
        assert!(
            ready.is_some(),
            "the client never showed its prompt; screen:\n{}",
            self.screen()
        );
        self.type_text(prompt);
        let typed = poll(LIMIT, || {
            let screen = self.screen();
            let mut rows = screen.lines();
            rows.any(|row| row.contains('❯') && row.contains(prompt)).then_some(())
        });
        assert!(
            typed.is_some(),
            "the prompt never appeared in the input box; screen:\n{}",
            self.screen()
        );
        self.press_enter();
        let asked = poll(LIMIT, || (!mock.turns_of(prompt).is_empty()).then_some(()));
        assert!(
            asked.is_some(),
            "the client never sent the prompt to the mock; screen:\n{}",
            self.screen()
        );
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        // The client writes its files while it shuts down after the hangup.
        if let Some(pid) = self.client {
            let proc = format!("/proc/{pid}");
            poll(Duration::from_secs(15), || (!Path::new(&proc).exists()).then_some(()));
        }
        if let Some(path) = &self.socket_path {
            let _ = fs::remove_file(path);
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
