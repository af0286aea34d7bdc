//! The plugin from the repository's own marketplace (`.claude-plugin/marketplace.json`, naming
//! the folder `plugin/`), installed as a user installs it from a clone (`claude plugin
//! marketplace add`, then `claude plugin install baton@baton --scope user`) into a temp HOME:
//! `claude plugin validate` passes with no warning on `plugin/` and on the marketplace, the
//! install copies only `plugin/`, its `/baton:pause-work` takes an argument with an apostrophe,
//! `baton install --copy` then wires only the statusLine (the plugin gives the hooks), and in a
//! headless session the plugin's PostToolUse hook runs baton through its `bin/baton` shim, so
//! baton's warning reaches the model.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use super::client::{claude_command, output_within, run_headless, succeeded};
use super::mock::{Mock, Reply};
use super::sandbox::Sandbox;

const PROMPT: &str = "check the build";
const LIMIT: Duration = Duration::from_secs(120);

/// The repository's files as a clone has them (tracked, and new files not ignored; no
/// `target/`, which a directory marketplace would copy along), in `<sandbox>/market`.
fn market(sandbox: &Sandbox) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("git")
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .current_dir(repo)
        .output()
        .expect("git lists the repository's files");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dest = sandbox.root.join("market");
    for rel in out.stdout.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let rel = Path::new(std::str::from_utf8(rel).unwrap());
        let from = repo.join(rel);
        if from.is_file() {
            let to = dest.join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(&from, &to).unwrap();
        }
    }
    dest
}

/// `claude ARGS` in the sandbox; panics with what it said unless it succeeds.
fn claude(sandbox: &Sandbox, mock: &Mock, args: &[&str]) -> String {
    let mut command = claude_command(sandbox, mock);
    command.args(args);
    succeeded(output_within(command, LIMIT), &format!("claude {}", args.join(" ")))
}

/// `claude plugin validate`'s verdict is a pass, and nothing in what it printed is a warning.
fn assert_passed_with_no_warning(validated: &str) {
    assert!(validated.trim_end().ends_with("✔ Validation passed"), "{validated}");
    assert!(
        !validated.contains('⚠') && !validated.to_lowercase().contains("warning"),
        "{validated}"
    );
}

#[test]
fn the_plugin_from_the_repositorys_marketplace_validates_installs_and_its_hook_warns_the_model() {
    let sandbox = Sandbox::new("plugin");
    sandbox.skip_first_run_dialogs(super::client::API_KEY);
    // One Bash call at 140k of 200k tokens (30% remaining), then a final answer.
    let mock = Mock::start(|request| match request.assistant_turns() {
        0 => Reply::bash(140_000, "echo built"),
        _ => Reply::text(140_000, "The build is fine."),
    });
    let market = market(&sandbox);
    let market_arg = market.to_str().unwrap();

    // The plugin's own folder, and the marketplace at the clone's root that names it.
    let plugin_dir = market.join("plugin");
    let validated = claude(&sandbox, &mock, &["plugin", "validate", plugin_dir.to_str().unwrap()]);
    assert_passed_with_no_warning(&validated);
    // 2.1.332 also lists what the plugin provides (2.1.197 gives only the verdict).
    if validated.contains("Provides:") {
        assert!(
            validated.contains("commands: baton:setup") && validated.contains("bin: baton"),
            "{validated}"
        );
    }
    assert_passed_with_no_warning(&claude(&sandbox, &mock, &["plugin", "validate", market_arg]));
    claude(&sandbox, &mock, &["plugin", "marketplace", "add", market_arg]);
    claude(
        &sandbox,
        &mock,
        &["plugin", "install", "baton@baton", "--scope", "user"],
    );
    // What the install copied is the plugin's folder, not the repository.
    let installed: Value =
        serde_json::from_slice(&std::fs::read(sandbox.home.join(".claude/plugins/installed_plugins.json")).unwrap())
            .unwrap();
    let copy = Path::new(installed["plugins"]["baton@baton"][0]["installPath"].as_str().unwrap());
    let mut copied: Vec<String> = std::fs::read_dir(copy)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    copied.sort();
    assert_eq!(
        copied,
        [".claude-plugin", "bin", "commands", "hooks", "mod"],
        "{}",
        copy.display()
    );

    // The binary, as `npx baton-cc install` puts it: with the plugin enabled, only the
    // statusLine is wired into settings.json.
    let installed = sandbox.install_baton_copy();
    assert!(
        installed.contains("The baton plugin (baton@baton) gives the hooks and slash commands"),
        "{installed}"
    );
    let settings: Value =
        serde_json::from_slice(&std::fs::read(sandbox.home.join(".claude/settings.json")).unwrap()).unwrap();
    let copy = sandbox.home.join(".local/bin/baton");
    assert_eq!(
        settings["statusLine"]["command"],
        format!("{} statusline", copy.display())
    );
    assert!(settings.get("hooks").is_none(), "{settings:#}");
    assert_eq!(settings["enabledPlugins"]["baton@baton"], true, "{settings:#}");
    assert!(
        !sandbox.home.join(".claude/commands/baton").exists(),
        "the plugin gives the slash commands"
    );

    run_headless(&sandbox, &mock, PROMPT);
    let turns = mock.turns_of(PROMPT);
    let after_call = turns.iter().find(|t| t.assistant_turns() == 1);
    let warned = after_call.is_some_and(|turn| {
        turn.last_user_texts()
            .iter()
            .any(|t| t.contains("CONTEXT WARNING: Usage at 70%. Remaining: 30%."))
    });
    assert!(
        warned,
        "the plugin's PostToolUse hook did not warn the model; turns: {:#?}",
        turns.iter().map(|t| t.last_user_texts()).collect::<Vec<_>>()
    );
    // The plugin's slash command (`baton` on the Bash tool's PATH, its `allowed-tools` alone
    // allowing it) takes an argument with an apostrophe as data.
    let paused = claude(
        &sandbox,
        &mock,
        &[
            "-p",
            "/baton:pause-work don't forget the tests",
            "--model",
            super::client::MODEL,
        ],
    );
    assert!(!paused.contains("Shell command"), "{paused}");
    let handoff: Value =
        serde_json::from_slice(&std::fs::read(sandbox.project.join(".planning/HANDOFF.json")).unwrap()).unwrap();
    assert_eq!(handoff["context_notes"], "don't forget the tests");
}
