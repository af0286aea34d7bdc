//! The report's other sections and how it finds the session: where it is written, a GSD
//! project's commits, plans, blockers and next steps, git-only projects, hook payloads,
//! session ids, errors, `--since`.

use std::path::Path;

use serde_json::{Value, json};

use super::*;

#[test]
fn reports_are_written_to_the_baton_reports_dir_and_never_overwritten() {
    let sandbox = Sandbox::new();
    sandbox.session_transcript(SESSION, &format!("{}\n", Reply::new(OPUS, 1).line()));
    let first = sandbox.run(&["report"], b"");
    assert_eq!(first.code, Some(0), "{first:?}");
    let reports = std::fs::canonicalize(&sandbox.project).unwrap().join(".baton/reports");
    assert_eq!(host_path(first.stdout.trim()), reports.join("SESSION_REPORT.md"));
    let second = sandbox.run(&["report"], b"");
    let name = host_path(second.stdout.trim())
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(
        name.len() == "YYYYMMDD-session-report.md".len() && name.ends_with("-session-report.md"),
        "{name}"
    );
    assert!(name[..8].bytes().all(|b| b.is_ascii_digit()), "{name}");
    let out = sandbox.project.join("custom.md");
    let third = sandbox.run(&["report", "--out", out.to_str().unwrap()], b"");
    assert_eq!(third.code, Some(0));
    assert!(std::fs::read_to_string(out).unwrap().starts_with("# Session Report"));
    // Each report has its context chart beside it, and nothing else is written there.
    let mut written: Vec<String> = std::fs::read_dir(&reports)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let dated = name.trim_end_matches(".md");
    assert_eq!(
        written,
        [
            format!("{dated}-context.svg"),
            name.clone(),
            "SESSION_REPORT-context.svg".to_owned(),
            "SESSION_REPORT.md".to_owned()
        ]
    );
    assert!(
        sandbox.project.join("custom-context.svg").is_file(),
        "--out's chart is beside it"
    );
}

/// Issue 9 item 17: a report in a repository without `.planning/` goes to `.baton/reports/`
/// and does not turn the repository into a GSD project; in a GSD project it goes to
/// `.planning/reports/`.
#[test]
fn a_report_outside_a_gsd_project_creates_no_planning_dir() {
    let sandbox = Sandbox::new();
    git_repo(&sandbox.project, &[("src/main.rs", "fn main() {}\n")]);
    sandbox.session_transcript(SESSION, &format!("{}\n", Reply::new(OPUS, 1).line()));
    let progress_before = sandbox.run(&["progress"], b"");
    assert_ne!(progress_before.code, Some(0), "not a GSD project: {progress_before:?}");

    let out = sandbox.run(&["report"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        host_path(out.stdout.trim()).ends_with(".baton/reports/SESSION_REPORT.md"),
        "{out:?}"
    );
    assert!(!sandbox.project.join(".planning").exists(), "no .planning/ may appear");
    let progress_after = sandbox.run(&["progress"], b"");
    assert_eq!(
        (progress_after.code, &progress_after.stderr),
        (progress_before.code, &progress_before.stderr),
        "progress must see the same repository as before the report"
    );
    let second = sandbox.run(&["report", "--json"], b"");
    let report: Value = serde_json::from_str(&second.stdout).unwrap();
    let work = &report["work"];
    assert!(
        work["position"].is_null() && work["progress_percent"].is_null(),
        "{work}"
    );

    sandbox.with_planning_state();
    let gsd = sandbox.run(&["report"], b"");
    assert!(
        host_path(gsd.stdout.trim()).ends_with(".planning/reports/SESSION_REPORT.md"),
        "{gsd:?}"
    );
}

#[test]
fn a_gsd_project_report_lists_commits_plans_blockers_decisions_and_next_steps() {
    let sandbox = Sandbox::new();
    let dir = &sandbox.project;
    // A commit two hours ago, before the session started (an hour ago): not listed.
    git(dir, &["init", "-q"]);
    sandbox.write("README.md", "old\n");
    git(dir, &["add", "-A"]);
    commit_at(dir, "Before the session", now() - 7200);
    let started = chrono_like_iso(now() - 3600);
    let mut reply = Reply::new(OPUS, 1);
    reply.timestamp = started;
    reply.input = 1000;
    sandbox.session_transcript(SESSION, &format!("{}\n", reply.line()));
    sandbox.write(
        ".planning/STATE.md",
        "---\nmilestone: v1.2\nmilestone_name: Auth\nstatus: executing\ncurrent_phase: 3\n---\n\n\
         ## Current Position\nPhase: 3 of 8 (API endpoints)\nPlan: 2 of 2\n\n## Accumulated Context\n\n\
         ### Decisions\n- Use JWT for sessions\n\n### Blockers/Concerns\n- Staging database is down\n",
    );
    sandbox.write(
        ".planning/ROADMAP.md",
        "- [x] **Phase 1: Setup**\n- [x] **Phase 2: Models**\n- [ ] **Phase 3: API endpoints**\n",
    );
    sandbox.write(".planning/phases/03-api-endpoints/03-01-PLAN.md", "plan\n");
    sandbox.write(".planning/phases/03-api-endpoints/03-02-PLAN.md", "plan\n");
    sandbox.write(".planning/phases/03-api-endpoints/03-01-SUMMARY.md", "done\n");
    sandbox.write("src/login.rs", "fn login() {}\n");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "Add login endpoint"]);
    sandbox.write(
        ".planning/HANDOFF.json",
        r#"{"version":"1.0","status":"paused","phase":"3","blockers":[{"description":"API key missing","type":"human_action","workaround":""}],
            "human_actions_pending":[{"action":"Create the Stripe key","context":"billing","blocking":true}],
            "decisions":[{"decision":"Rate-limit logins","rationale":"abuse","phase":"3"}],"next_action":"Write 03-02"}"#,
    );
    let out = sandbox.run(&["report"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let text = std::fs::read_to_string(host_path(out.stdout.trim())).unwrap();
    for expected in [
        "- **Milestone:** v1.2 Auth",
        "- **Phase:** 3 of 3 (API endpoints), 1 of 2 plans done",
        "### Commits (1)",
        "Add login endpoint",
        "03-01 (phase 3): `.planning/phases/03-api-endpoints/03-01-SUMMARY.md`",
        "- Phase 3 API endpoints: 1 of 2 plans done",
        "1 commit changing 6 files",
        "- Staging database is down",
        "- API key missing (human_action)",
        "- Create the Stripe key (blocking)",
        "- Use JWT for sessions",
        "- Rate-limit logins: abuse",
        "- Write 03-02",
        "`/gsd-execute-phase 3`",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(
        !text.contains("Before the session"),
        "the commit before the session is not listed:\n{text}"
    );
}

#[test]
fn without_planning_files_the_report_has_git_and_transcript_only() {
    let sandbox = Sandbox::new();
    let dir = &sandbox.project;
    git_repo(dir, &[("a.txt", "1\n")]);
    let mut reply = Reply::new(HAIKU, 1);
    reply.timestamp = chrono_like_iso(now() - 600);
    sandbox.session_transcript(SESSION, &format!("{}\n", reply.line()));
    sandbox.write("a.txt", "2\n");
    git(dir, &["commit", "-qam", "Second change"]);
    let report = report_json(&sandbox, &[]);
    assert_eq!(report["work"]["commits"][0]["subject"], "Second change");
    assert!(report["work"]["position"].is_null());
    let out = sandbox.run(&["report"], b"");
    let text = std::fs::read_to_string(host_path(out.stdout.trim())).unwrap();
    assert!(text.contains("no `.planning/`"), "{text}");
    assert!(
        text.contains("`Second change`") || text.contains("Second change"),
        "{text}"
    );
}

#[test]
fn the_session_is_found_from_a_hook_payload_an_id_or_the_newest_transcript() {
    let sandbox = Sandbox::new();
    let mut old = Reply::new(OPUS, 1);
    old.input = 111;
    let mut new = Reply::new(OPUS, 2);
    new.input = 222;
    let old_path = sandbox.session_transcript("older-session", &format!("{}\n", old.line()));
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&old_path)
        .unwrap()
        .set_modified(past)
        .unwrap();
    sandbox.session_transcript(SESSION, &format!("{}\n", new.line()));
    let input = |r: &Value| r["resources"]["total"]["tokens"]["input"].as_u64();
    assert_eq!(input(&report_json(&sandbox, &[])), Some(222), "newest");
    assert_eq!(
        input(&report_json(&sandbox, &["--session", "older-session"])),
        Some(111)
    );

    let payload = json!({"session_id": "older-session", "transcript_path": old_path, "cwd": native(&sandbox.project),
                         "hook_event_name": "Stop"});
    let out = sandbox.run_with(&["report", "--hook"], payload.to_string().as_bytes(), false);
    out.assert_hook_contract();
    assert!(out.stdout.is_empty(), "{out:?}");
    let text = std::fs::read_to_string(sandbox.project.join(".baton/reports/SESSION_REPORT.md")).unwrap();
    assert!(text.contains("`older-session`") && text.contains("| 111 |"), "{text}");

    // A hook with garbage never fails visibly.
    sandbox.run(&["report", "--hook"], b"garbage").assert_hook_contract();
}

#[test]
fn without_a_transcript_the_work_is_still_reported() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".planning/STATE.md",
        "---\nstatus: executing\n---\n\n## Accumulated Context\n\n### Blockers/Concerns\n- Staging database is down\n",
    );
    sandbox.write(
        ".planning/HANDOFF.json",
        r#"{"version":"1.0","status":"paused","blockers":[{"description":"Staging database is down","type":"technical"}]}"#,
    );
    let out = sandbox.run(&["report"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let text = std::fs::read_to_string(host_path(out.stdout.trim())).unwrap();
    assert!(text.contains("## Blockers"), "{text}");
    assert!(
        text.contains("Resource use is unavailable: no transcript found") && text.contains("--session ID"),
        "{text}"
    );
    assert_eq!(
        text.matches("Staging database is down").count(),
        1,
        "one blocker, listed once:\n{text}"
    );
    let out = sandbox.run(&["report", "--transcript", "/nonexistent.jsonl"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    let out = sandbox.run(&["report", "--session", "../etc"], b"");
    assert_eq!(out.code, Some(2), "{out:?}");
    let out = sandbox.run(&["report", "--since", "last tuesday"], b"");
    assert_eq!(out.code, Some(2), "{out:?}");
}

#[test]
fn from_a_subdirectory_the_projects_transcript_is_found() {
    let sandbox = Sandbox::new();
    sandbox.write(".planning/STATE.md", "---\nstatus: executing\n---\n");
    sandbox.session_transcript(SESSION, &format!("{}\n", Reply::new(OPUS, 1).line()));
    let sub = sandbox.project.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let out = sandbox
        .command(&["report", "--json"])
        .current_dir(&sub)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["session_id"], SESSION);
    assert_eq!(report["resources_unavailable"], Value::Null);
}

#[test]
fn since_counts_only_later_replies() {
    let sandbox = Sandbox::new();
    let mut early = Reply::new(OPUS, 1);
    early.input = 1;
    early.timestamp = "2026-01-01T00:00:00.000Z".into();
    let mut late = Reply::new(OPUS, 2);
    late.input = 2;
    late.timestamp = "2026-06-01T00:00:00.000Z".into();
    sandbox.session_transcript(SESSION, &format!("{}\n{}\n", early.line(), late.line()));
    let report = report_json(&sandbox, &["--since", "2026-03-01T00:00:00Z"]);
    assert_eq!(report["resources"]["total"]["tokens"]["input"], 2);
    assert_eq!(report["started_at"], "2026-06-01T00:00:00Z");
}

/// Local times (`--since` without a zone, the report's times) are in the zone the system
/// says, daylight saving included: here `TZ` as POSIX spells New York's rule.
#[test]
fn local_times_follow_the_systems_zone() {
    let new_york = "EST5EDT,M3.2.0,M11.1.0";
    let mut early = Reply::new(OPUS, 1);
    early.input = 1;
    early.timestamp = "2026-07-01T12:00:00.000Z".into();
    let mut late = Reply::new(OPUS, 2);
    late.input = 2;
    late.timestamp = "2026-07-01T14:00:00.000Z".into();
    let transcript = format!("{}\n{}\n", early.line(), late.line());
    for (zone, input) in [(new_york, 2), ("UTC0", 3)] {
        let sandbox = Sandbox::new().env("TZ", zone);
        sandbox.session_transcript(SESSION, &transcript);
        // 09:30 in July is 13:30 UTC in New York (EDT), 09:30 UTC in UTC.
        let report = report_json(&sandbox, &["--since", "2026-07-01 09:30"]);
        assert_eq!(report["resources"]["total"]["tokens"]["input"], input, "{zone}");
    }
    let sandbox = Sandbox::new().env("TZ", new_york);
    sandbox.session_transcript(SESSION, &transcript);
    let path = sandbox.project.join("report.md");
    let out = sandbox.run(&["report", "--out", path.to_str().unwrap()], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let markdown = std::fs::read_to_string(&path).unwrap();
    assert!(
        markdown.contains("2026-07-01 08:00"),
        "12:00 UTC is 08:00 EDT:\n{markdown}"
    );
    // The clock jumped from 02:00 to 03:00 that night: 02:30 never happened there.
    let out = sandbox.run(&["report", "--since", "2026-03-08 02:30"], b"");
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("--since \"2026-03-08 02:30\""), "{}", out.stderr);
}

/// Commits what is staged with author and committer dates set to `secs`.
fn commit_at(dir: &Path, message: &str, secs: u64) {
    let date = format!("@{secs} +0000");
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=Baton Test",
            "-c",
            "user.email=test@baton.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(["commit", "-q", "-m", message])
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Unix seconds as the client's timestamp format (`2026-11-30T00:10:41.000Z`).
fn chrono_like_iso(secs: u64) -> String {
    let days = secs / 86_400;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.000Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
