//! Interop with GSD's own Node hooks (npm `get-shit-done-cc`): GSD's context monitor reads
//! the bridge file baton's statusline writes, and baton's monitor reads the one GSD's
//! statusline writes, so either can run beside the other.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::client::on_path;
use super::sandbox::Sandbox;

const GSD: &str = "get-shit-done-cc@1.42.3";
pub(super) const SESSION: &str = "4106d464-75bb-44ee-b810-e0e678a180ac";

/// GSD's hooks directory, installed once.
fn gsd_hooks() -> PathBuf {
    let dir = super::npm::install("gsd", GSD, |dir| {
        dir.join("node_modules/get-shit-done-cc/hooks/gsd-context-monitor.js")
            .is_file()
    });
    dir.join("node_modules/get-shit-done-cc/hooks")
}

/// Runs `program args` with `stdin`, the sandbox's TMPDIR and HOME; returns stdout.
fn run(sandbox: &Sandbox, program: &str, args: &[&str], stdin: &Value) -> String {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(&sandbox.project)
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn fixture(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/claude-code-2.1.197")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A statusline payload at 75% and a PostToolUse payload of the same session, in the sandbox.
pub(super) fn payloads(sandbox: &Sandbox) -> (Value, Value) {
    let mut status = fixture("statusline-after-reply.json");
    status["cwd"] = json!(sandbox.project);
    status["workspace"]["current_dir"] = json!(sandbox.project);
    let mut post = fixture("posttooluse-bash.json");
    post["session_id"] = json!(SESSION);
    post["cwd"] = json!(sandbox.project);
    post["transcript_path"] = json!(sandbox.project.join("none.jsonl"));
    (status, post)
}

/// The additionalContext of one hook output.
pub(super) fn context(output: &str) -> String {
    let v: Value =
        serde_json::from_str(output.trim()).unwrap_or_else(|e| panic!("not one JSON object ({e}): {output:?}"));
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn gsds_monitor_reads_the_bridge_file_batons_statusline_writes() {
    assert!(
        on_path("node"),
        "node is not on PATH: the GSD interop test runs GSD's hooks with it"
    );
    let hooks = gsd_hooks();
    let sandbox = Sandbox::new("gsd-reads-baton");
    let (status, post) = payloads(&sandbox);
    run(&sandbox, crate::common::baton_bin(), &["statusline"], &status);
    let monitor = hooks.join("gsd-context-monitor.js");
    let said = context(&run(&sandbox, "node", &[monitor.to_str().unwrap()], &post));
    assert!(
        said.starts_with("CONTEXT CRITICAL: Usage at 75%. Remaining: 25%."),
        "GSD's monitor said: {said:?}"
    );
}

#[test]
fn batons_monitor_reads_the_bridge_file_gsds_statusline_writes() {
    assert!(
        on_path("node"),
        "node is not on PATH: the GSD interop test runs GSD's hooks with it"
    );
    let hooks = gsd_hooks();
    let sandbox = Sandbox::new("baton-reads-gsd");
    let (status, post) = payloads(&sandbox);
    let statusline = hooks.join("gsd-statusline.js");
    run(&sandbox, "node", &[statusline.to_str().unwrap()], &status);
    let bridge: Value =
        serde_json::from_str(&std::fs::read_to_string(sandbox.tmp.join(format!("claude-ctx-{SESSION}.json"))).unwrap())
            .unwrap();
    assert!(
        bridge.get("generator").is_none(),
        "this bridge file is GSD's own: {bridge}"
    );
    let said = context(&run(&sandbox, crate::common::baton_bin(), &["hook"], &post));
    assert!(
        said.starts_with("CONTEXT CRITICAL: Usage at 75%. Remaining: 25%."),
        "baton said: {said:?}"
    );
}
