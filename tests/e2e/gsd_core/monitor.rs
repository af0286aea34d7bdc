//! gsd-core's context monitor wired beside baton's, as gsd-core's installer wires it
//! (PostToolUse, Stop, SubagentStop, PreCompact), through the real client: the model hears
//! one monitor, baton's, at baton's cadence (calls 1 and 6), never a second warning at the
//! same call or in between, also when baton's hook runs after gsd-core's. The same session
//! with gsd-core's monitor alone shows that its hook runs and would have warned.

use serde_json::{Value, json};

use super::super::client::{baton_command, run_headless};
use super::super::mock::Mock;
use super::super::request::Request;
use super::super::sandbox::Sandbox;
use super::package;

const PROMPT: &str = "run the steps";
const STEPS: [&str; 7] = ["echo 1", "echo 2", "echo 3", "echo 4", "echo 5", "echo 6", "echo 7"];
/// 140k of a 200k window: 30% remaining, a WARNING for both monitors.
const INPUT_TOKENS: u64 = 140_000;

/// gsd-core's monitor as its installer puts it in settings.json.
fn gsd_cores_hooks() -> Value {
    let node = super::super::npm::node24();
    let script = package().join("hooks/gsd-context-monitor.js");
    let command = format!("'{}' '{}'", node.display(), script.display());
    let entry = |matcher: Option<&str>| {
        let mut entry = json!({"hooks": [{"type": "command", "command": command, "timeout": 10}]});
        if let Some(matcher) = matcher {
            entry["matcher"] = json!(matcher);
        }
        json!([entry])
    };
    json!({
        "PostToolUse": entry(Some("Bash|Edit|Write|MultiEdit|Agent|Task")),
        "SubagentStop": entry(None),
        "Stop": entry(None),
        "PreCompact": entry(None),
    })
}

/// The session's warnings after each tool call: the CONTEXT texts in the request after it.
fn run(with_baton: bool) -> Vec<Vec<String>> {
    let sandbox = Sandbox::new(if with_baton {
        "both-monitors"
    } else {
        "gsd-core-monitor"
    });
    let mut hooks = gsd_cores_hooks();
    if with_baton {
        // baton's PostToolUse half a second behind gsd-core's, as on a loaded machine: gsd-core's
        // reads its record first at every call, the first included, so the record must be
        // there before the session's first call (baton's SessionStart, wired as install does).
        let late = format!("'{}' hook", slow_baton(&sandbox).display());
        let batons = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": late, "timeout": 10}]});
        hooks["PostToolUse"].as_array_mut().unwrap().insert(0, batons);
        hooks["SessionStart"] = json!([{"hooks": [{"type": "command", "command": baton_command("hook")}]}]);
    }
    sandbox.project_settings(&json!({ "hooks": hooks }));
    // What a statusline render at this figure leaves (headless runs render none): the bridge
    // file gsd-core's monitor reads, fresh for the whole run.
    seed_bridge_at_session_start(&sandbox);
    let mock = Mock::bash_calls(INPUT_TOKENS, &STEPS);
    run_headless(&sandbox, &mock, PROMPT);
    let turns = mock.turns_of(PROMPT);
    assert_eq!(turns.len(), STEPS.len() + 1, "one turn per call and the last");
    turns.iter().skip(1).map(warnings).collect()
}

/// A `baton` that starts half a second late: a script by that name that sleeps, then runs the
/// binary under test with its arguments and stdin.
fn slow_baton(sandbox: &Sandbox) -> std::path::PathBuf {
    let dir = sandbox.root.join("slow");
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("baton");
    let binary = crate::common::baton_bin().replace('\'', r"'\''");
    std::fs::write(&script, format!("#!/bin/sh\nsleep 0.5\nexec '{binary}' \"$@\"\n")).unwrap();
    crate::common::os::make_executable(&script);
    script
}

/// Writes a bridge file at 30% remaining, as a statusline render would, for the session the
/// client starts (it picks the id itself, so a SessionStart hook of the test writes it).
fn seed_bridge_at_session_start(sandbox: &Sandbox) {
    let script = sandbox.root.join("seed-bridge");
    let body = format!(
        "#!/bin/sh\nid=$(sed -n 's/.*\"session_id\" *: *\"\\([A-Za-z0-9-]*\\)\".*/\\1/p')\nnow=$(date +%s)\n\
         printf '{{\"session_id\":\"%s\",\"remaining_percentage\":30,\"used_pct\":70,\"timestamp\":%s}}' \"$id\" \"$now\" > '{}'/claude-ctx-$id.json\n",
        sandbox.tmp.display()
    );
    std::fs::write(&script, body).unwrap();
    crate::common::os::make_executable(&script);
    let path = sandbox.project.join(".claude/settings.json");
    let mut settings: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let seed = json!({"hooks": [{"type": "command", "command": format!("'{}'", script.display())}]});
    match settings["hooks"]["SessionStart"].as_array_mut() {
        Some(groups) => groups.push(seed),
        None => settings["hooks"]["SessionStart"] = json!([seed]),
    }
    sandbox.project_settings(&settings);
}

fn warnings(turn: &Request) -> Vec<String> {
    turn.last_user_hook_context("PostToolUse:Bash")
        .into_iter()
        .flat_map(|text| text.lines().map(str::to_owned).collect::<Vec<_>>())
        .filter(|line| line.contains("CONTEXT WARNING") || line.contains("CONTEXT CRITICAL"))
        .collect()
}

#[test]
fn with_both_monitors_wired_the_model_hears_batons_once_per_due_call() {
    let alone = run(false);
    assert!(
        alone[0]
            .iter()
            .any(|w| w.contains("CONTEXT WARNING: Usage at 70%. Remaining: 30%.")),
        "gsd-core's monitor alone warns at the first call: {alone:#?}"
    );
    let both = run(true);
    let counts: Vec<usize> = both.iter().map(Vec::len).collect();
    assert_eq!(counts, [1, 0, 0, 0, 0, 1, 0], "warnings after each call: {both:#?}");
    for warning in both.iter().flatten() {
        assert!(
            warning.contains("tokens in use"),
            "only baton's warning, not gsd-core's: {warning}"
        );
    }
}

/// Runs gsd-core's monitor on `payload` in `sandbox` (its HOME and TMPDIR); its stdout.
fn gsd_cores_monitor(sandbox: &crate::common::Sandbox, payload: &Value) -> String {
    let script = package().join("hooks/gsd-context-monitor.js");
    let node = super::super::npm::node24();
    let env = [sandbox.home.as_path(), sandbox.tmp.as_path()];
    super::run_with(
        &sandbox.project,
        env,
        &node,
        &[script.to_str().unwrap()],
        payload.to_string().as_bytes(),
    )
}

#[test]
fn gsd_cores_stop_counts_and_precompact_reset_leave_batons_debounce_alone() {
    use crate::common::{post_tool_use, transcript_lines};
    let sandbox = crate::common::Sandbox::new();
    let session = "7c1e2d3f-0a4b-4c5d-8e9f-112233445566";
    let transcript = sandbox.session_transcript(session, &transcript_lines("claude-sonnet-4-5", 140_000));
    let call = post_tool_use(&sandbox, session, Some(&transcript));
    sandbox.bridge(session, 30, 0);
    let event = |name: &str| {
        let mut payload = call.clone();
        payload["hook_event_name"] = json!(name);
        payload
    };
    let baton_said = |payload: &Value| sandbox.hook(payload).context();
    assert!(baton_said(&call).is_some(), "the first warning");
    assert_eq!(gsd_cores_monitor(&sandbox, &call), "", "gsd-core's monitor keeps quiet");
    // Between tool calls gsd-core's monitor counts each Stop and SubagentStop, and at
    // PreCompact it deletes its record and the bridge file.
    for name in ["Stop", "SubagentStop", "Stop", "Stop", "SubagentStop", "PreCompact"] {
        assert_eq!(gsd_cores_monitor(&sandbox, &event(name)), "", "{name}");
        if name == "SubagentStop" {
            sandbox.hook(&event(name)).assert_hook_contract();
        }
    }
    assert!(
        !sandbox.temp_file(session, ".json").exists(),
        "gsd-core's PreCompact removed the bridge"
    );
    // baton's count went on from its first warning: calls 2 to 5 are quiet, the sixth warns.
    let fired: Vec<usize> = (2..=6).filter(|_| baton_said(&call).is_some()).collect();
    assert_eq!(fired, [6]);
}

#[test]
fn doctor_says_a_second_monitor_is_wired_after_gsd_cores_installer_and_what_to_do() {
    let sandbox = Sandbox::new("doctor-two-monitors");
    let baton = std::path::Path::new(crate::common::baton_bin());
    super::run_in(&sandbox, &sandbox.home, baton, &["install"], b"");
    let settings = super::install_for_claude(&sandbox);
    // gsd-core's installer kept baton's statusline and hooks.
    assert!(
        settings["statusLine"]["command"].as_str().unwrap().contains("baton"),
        "{settings:#}"
    );
    let post = settings["hooks"]["PostToolUse"].to_string();
    assert!(
        post.contains("baton") && post.contains("gsd-context-monitor.js"),
        "{post}"
    );

    let mut doctor = std::process::Command::new(baton);
    doctor
        .arg("doctor")
        .current_dir(&sandbox.project)
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp);
    let out = doctor.output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("a second context monitor is wired: GSD's gsd-context-monitor.js in")
            && said.contains("PostToolUse")
            && said.contains("PreCompact")
            && said.contains("remove the gsd-context-monitor.js entries"),
        "{said}"
    );
    assert_eq!(out.status.code(), Some(1), "{said}");
}
