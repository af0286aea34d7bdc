//! Files written on Windows end their lines with CRLF: GSD's planning files, transcripts and
//! payloads read the same as with LF.

use serde_json::{Value, json};

use crate::common::gsd;
use crate::common::*;

/// Rewrites every file below `dir` with CRLF line ends.
fn to_crlf(dir: &std::path::Path) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            to_crlf(&path);
        } else {
            let text = std::fs::read_to_string(&path).unwrap();
            std::fs::write(&path, text.replace("\r\n", "\n").replace('\n', "\r\n")).unwrap();
        }
    }
}

/// `baton progress --json` of a sandbox, its project path written as `<project>`.
fn progress(sandbox: &Sandbox) -> Value {
    let out = sandbox.run(&["progress", "--json"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    // As the JSON spells it (a Windows path's backslashes are escaped).
    let project = json!(native(&sandbox.project)).to_string();
    let text = out.stdout.replace(&project[1..project.len() - 1], "<project>");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn crlf_planning_files_give_the_same_progress_and_statusline() {
    let lf = Sandbox::new().env("NO_COLOR", "1");
    gsd::write_project(&lf);
    let crlf = Sandbox::new().env("NO_COLOR", "1");
    gsd::write_project(&crlf);
    to_crlf(&crlf.project.join(".planning"));

    assert_eq!(progress(&crlf), progress(&lf));
    let line = |sandbox: &Sandbox| {
        let mut status = fixture("statusline-after-reply.json");
        status["cwd"] = json!(native(&sandbox.project));
        status["workspace"]["current_dir"] = json!(native(&sandbox.project));
        sandbox.statusline(&status).assert_one_line()
    };
    assert_eq!(line(&crlf), line(&lf));
    assert!(line(&crlf).contains("v1.1 Checkout"), "{}", line(&crlf));
}

#[test]
fn crlf_transcripts_and_payloads_read_the_same() {
    let sandbox = Sandbox::new();
    let path = sandbox.project.join("crlf.jsonl");
    std::fs::write(
        &path,
        transcript_lines("claude-sonnet-4-5", 140_000).replace('\n', "\r\n"),
    )
    .unwrap();
    let payload = post_tool_use(&sandbox, "crlf-session", Some(&path));
    let pretty_crlf = serde_json::to_string_pretty(&payload).unwrap().replace('\n', "\r\n");
    let out = sandbox.run(&["hook"], pretty_crlf.as_bytes());
    assert!(out.context_text().contains("Remaining: 30%."), "{out:?}");
}
