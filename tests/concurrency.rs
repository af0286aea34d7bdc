//! Parallel hooks: Claude Code runs the PostToolUse hooks of parallel tool calls at once.
//! 32 monitors started together on one session must lose no count.

use std::io::Write;
use std::process::Stdio;

use crate::common::*;

#[test]
fn thirty_two_monitors_at_once_lose_no_count() {
    let sandbox = Sandbox::new();
    let session = "parallel-session";
    sandbox.bridge(session, 30, 0);
    let payload = post_tool_use(&sandbox, session, None).to_string();

    // Start all 32, each blocked on stdin, then release them together.
    let outputs = sandbox.hooks_released_together(32, payload.as_bytes());

    let mut warnings = 0;
    for out in &outputs {
        assert_eq!(out.status.code(), Some(0));
        assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
        if String::from_utf8_lossy(&out.stdout).contains("CONTEXT WARNING") {
            warnings += 1;
        }
    }
    // 32 calls with a debounce of 5 fire at calls 1, 6, 11, 16, 21, 26, 31.
    assert_eq!(warnings, 7, "every call was counted exactly once");
    let state = sandbox.read_json(&sandbox.debounce_file(session));
    assert_eq!(state["callsSinceWarn"], 1);
}

#[test]
fn the_sweep_leaves_a_stale_lock_that_is_still_held() {
    let sandbox = Sandbox::new();
    let two_days_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 24 * 60 * 60);
    let stale = |name: &str| {
        let path = sandbox.tmp.join(name);
        let file = std::fs::File::create(&path).unwrap();
        file.set_modified(two_days_ago).unwrap();
        (path, file)
    };
    // A hook of a long session holds its debounce lock; a project lock is held too.
    let (held, held_file) = stale("claude-ctx-long-session-warned.lock");
    let (project, project_file) = stale("baton-project-0123456789abcdef-handoff.lock");
    held_file.lock().unwrap();
    project_file.lock().unwrap();
    let (free, _free_file) = stale("claude-ctx-old-session-warned.lock");

    // The statusline sweeps the temp dir (no sweep has run in this sandbox yet).
    sandbox
        .statusline(&fixture("statusline-after-reply.json"))
        .assert_one_line();
    assert!(!free.exists(), "the sweep ran and removed the free stale lock");
    assert!(held.exists(), "a held lock is never removed");
    assert!(project.exists(), "a held project lock is never removed");
    held_file.unlock().unwrap();
    project_file.unlock().unwrap();
}

#[test]
fn parallel_subagents_starting_together_are_all_recorded() {
    // An orchestrator launching a wave of agents: their SubagentStart hooks run at once, and
    // a hook waits only briefly for a lock, so no run may wait on another's.
    let sandbox = Sandbox::new();
    git_repo(&sandbox.project, &[("README.md", "# demo\n")]);
    let agents: Vec<String> = (0..12).map(|n| format!("a{n:016x}")).collect();
    let mut children: Vec<_> = agents
        .iter()
        .map(|agent| {
            let mut payload = fixture("subagentstart.json");
            payload["cwd"] = serde_json::json!(native(&sandbox.project));
            payload["agent_id"] = serde_json::json!(agent);
            let mut child = sandbox
                .command(&["hook"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(payload.to_string().as_bytes())
                .unwrap();
            child
        })
        .collect();
    for child in children.drain(..) {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert!(out.stderr.is_empty());
    }
    for agent in &agents {
        let path = sandbox.project.join(format!(".baton/agents/{agent}.json"));
        let run = sandbox.read_json(&path);
        assert_eq!(run["status"], "running", "{run}");
        assert!(run["head_at_start"].is_string(), "{run}");
    }
}

/// A sandbox whose `install --copy` goes to `<home>/.local/bin`.
fn prefixed_sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    let prefix = sandbox.home.join(".local").display().to_string();
    sandbox.env("BATON_PREFIX", &prefix)
}

/// Starts each command at once in `sandbox` and waits for all of them.
fn run_together(sandbox: &Sandbox, commands: &[&[&str]]) -> Vec<std::process::Output> {
    let children: Vec<_> = commands
        .iter()
        .map(|args| {
            sandbox
                .command(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children.into_iter().map(|c| c.wait_with_output().unwrap()).collect()
}

/// Every command of the settings that runs `copy`: its count, and whether the copy is there.
fn commands_running(settings: &std::path::Path, copy: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(settings).unwrap_or_default();
    let wired = serde_json::to_string(&wired(copy)).unwrap();
    text.matches(wired.trim_matches('"')).count()
}

#[test]
fn install_and_uninstall_at_once_never_leave_settings_running_a_missing_binary() {
    // Two terminals, or a script and a user: the lock makes each one transaction, in some
    // order, never interleaved.
    for round in 0..8 {
        let sandbox = prefixed_sandbox();
        let copy = sandbox.home.join(".local/bin").join(binary::file_name());
        let settings = sandbox.home.join(".claude/settings.json");
        assert_eq!(sandbox.run(&["install", "--copy", "--yes"], b"").code, Some(0));
        let outs = run_together(&sandbox, &[&["install", "--copy", "--yes"], &["uninstall"]]);
        for out in &outs {
            assert_eq!(out.status.code(), Some(0), "round {round}: {out:?}");
        }
        let running = commands_running(&settings, &copy);
        assert!(
            running == 0 || copy.is_file(),
            "round {round}: settings run {} {running} times but it is gone",
            copy.display()
        );
        let manifest = sandbox.home.join(".claude/baton-install.json");
        assert_eq!(
            running > 0,
            manifest.exists(),
            "round {round}: the manifest follows the settings"
        );
        // Whatever the order, a last uninstall takes everything out.
        let _ = sandbox.run(&["uninstall"], b"");
        assert!(!copy.exists() && !settings.exists(), "round {round}");
        assert!(!sandbox.home.join(".claude/commands").exists(), "round {round}");
    }
}

#[test]
fn two_installs_at_once_are_taken_out_whole_by_one_uninstall() {
    for round in 0..8 {
        let sandbox = prefixed_sandbox();
        let outs = run_together(
            &sandbox,
            &[&["install", "--copy", "--yes"], &["install", "--copy", "--yes"]],
        );
        for out in &outs {
            assert_eq!(out.status.code(), Some(0), "round {round}: {out:?}");
        }
        assert_eq!(sandbox.run(&["uninstall"], b"").code, Some(0), "round {round}");
        let claude = sandbox.home.join(".claude");
        let left: Vec<_> = std::fs::read_dir(&claude)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert!(left.is_empty(), "round {round}: left in ~/.claude: {left:?}");
        assert!(!sandbox.home.join(".local/bin").join(binary::file_name()).exists());
    }
}
