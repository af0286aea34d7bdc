//! The interactive client under tmux: after a reply reporting 150k of 200k tokens, the
//! statusline Claude Code renders through `baton statusline` shows the model and the same
//! context figure as Claude Code's own footer.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::json;

use super::client::{MODEL, baton_command, claude_bin, client_env, on_path, output_within};
use super::mock::{Mock, Reply};
use super::poll;
use super::sandbox::Sandbox;

const PROMPT: &str = "say hi";
/// Generous: the client starts in ~2 s idle, much slower on a loaded 2-core machine.
const LIMIT: Duration = Duration::from_secs(90);

/// A private tmux server (its own socket) holding one session; killed on drop.
struct Tmux {
    socket: String,
    /// The pane's process (the client), waited for on drop so the sandbox can be removed.
    client: Option<u32>,
    /// The server's socket file, which tmux leaves behind; removed on drop.
    socket_path: Option<String>,
}

impl Tmux {
    /// Starts `claude --model MODEL` in a detached 200x50 session, with the client's environment.
    fn start(sandbox: &Sandbox, mock: &Mock) -> Tmux {
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
            .args(["--model", MODEL]);
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
    fn run(&self, args: &[&str]) -> Output {
        let mut command = Command::new("tmux");
        command.arg("-L").arg(&self.socket).args(args);
        output_within(command, Duration::from_secs(30))
    }

    /// The visible screen, as plain text.
    fn screen(&self) -> String {
        text(&self.run(&["capture-pane", "-p", "-t", "e2e"]).stdout)
    }

    /// Types `line` literally (no Enter).
    fn type_text(&self, line: &str) {
        let typed = self.run(&["send-keys", "-t", "e2e", "-l", line]);
        assert!(typed.status.success(), "tmux send-keys failed: {}", text(&typed.stderr));
    }

    fn press_enter(&self) {
        let pressed = self.run(&["send-keys", "-t", "e2e", "Enter"]);
        assert!(
            pressed.status.success(),
            "tmux send-keys Enter failed: {}",
            text(&pressed.stderr)
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

/// baton's row: it starts with the model name (the welcome box shows it too, inside `│`).
/// Claude Code may print its own "NN% context used" at the right of the same row; that part
/// is cut off so only baton's figure is left.
fn baton_row(screen: &str) -> Option<String> {
    let row = screen
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("Sonnet 4.5"))?;
    let own = match row.find("% context used") {
        Some(end) => row[..end].trim_end_matches(|c: char| c.is_ascii_digit()).trim_end(),
        None => row,
    };
    Some(own.to_owned())
}

#[test]
fn statusline_shows_model_and_context_like_claude_code() {
    let sandbox = Sandbox::new("statusline");
    sandbox.skip_first_run_dialogs(super::client::API_KEY);
    let statusline = json!({"type": "command", "command": baton_command("statusline"), "padding": 0});
    sandbox.project_settings(&json!({"statusLine": statusline}));
    let mock = Mock::start(|_| Reply::text(150_000, "hello from the mock"));
    let tmux = Tmux::start(&sandbox, &mock);

    let ready = poll(LIMIT, || tmux.screen().contains('❯').then_some(()));
    assert!(
        ready.is_some(),
        "the client never showed its prompt; screen:\n{}",
        tmux.screen()
    );
    tmux.type_text(PROMPT);
    // The input row reads "❯\u{a0}say hi".
    let typed = poll(LIMIT, || {
        let screen = tmux.screen();
        let mut rows = screen.lines();
        rows.any(|row| row.contains('❯') && row.contains(PROMPT)).then_some(())
    });
    assert!(
        typed.is_some(),
        "the prompt never appeared in the input box; screen:\n{}",
        tmux.screen()
    );
    tmux.press_enter();
    let asked = poll(LIMIT, || (!mock.turns_of(PROMPT).is_empty()).then_some(()));
    assert!(
        asked.is_some(),
        "the client never sent the prompt to the mock; screen:\n{}",
        tmux.screen()
    );

    // 150k used of a 200k window minus Claude Code's 20k reserve: round(100 × 150 / 180) = 83.
    let row = poll(LIMIT, || baton_row(&tmux.screen()).filter(|row| row.contains("83%")));
    let screen = tmux.screen();
    let row = row.unwrap_or_else(|| {
        panic!(
            "no baton statusline with Sonnet 4.5 and 83% (row: {:?}); screen:\n{screen}",
            baton_row(&screen)
        )
    });
    assert!(
        row.contains('│'),
        "no segments in the statusline row {row:?}; screen:\n{screen}"
    );
    // Claude Code's own footer, when it has room to show one, must agree.
    if let Some(footer) = claude_code_footer(&screen) {
        assert_eq!(footer, "83% context used", "Claude Code's footer; screen:\n{screen}");
    }
}

/// Claude Code's own "NN% context used" indicator, if on screen.
fn claude_code_footer(screen: &str) -> Option<String> {
    let end = screen.find("% context used")?;
    let digits = screen[..end].chars().rev().take_while(char::is_ascii_digit).count();
    Some(screen[end - digits..end + "% context used".len()].to_owned())
}
