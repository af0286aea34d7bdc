//! Hostile input for the hook-facing commands (`hook`, `statusline`, `mod`): whatever arrives on stdin, baton exits 0,
//! says nothing on stderr, prints nothing or valid output, in bounded time, and never
//! writes outside the temp dir or through a planted symlink.

use std::time::Duration;

use serde_json::json;

use crate::common::*;

/// Generous: a hang check, not a benchmark (the benchmarks live in bench/).
const BOUND: Duration = Duration::from_secs(5);

#[track_caller]
fn check(out: &Outcome, command: &str) {
    match command {
        "hook" | "mod" => {
            out.assert_hook_contract();
        }
        _ => {
            out.assert_one_line();
        }
    }
    assert!(out.elapsed < BOUND, "{command} took {:?}", out.elapsed);
}

#[test]
fn garbage_empty_arrays_and_odd_bytes() {
    let sandbox = Sandbox::new();
    let inputs: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"   \n\t".to_vec(),
        b"garbage".to_vec(),
        b"[1,2,3]".to_vec(),
        b"[{\"session_id\":\"x\"}]".to_vec(),
        b"null".to_vec(),
        b"42".to_vec(),
        b"\"string\"".to_vec(),
        b"{\"session_id\":".to_vec(),
        b"{\"hook_event_name\":\"PostToolUse\",\"session_id\":\"a\0b\"}".to_vec(),
        b"\0\0\0\xff\xfe{".to_vec(),
        b"{\"hook_event_name\": 5, \"session_id\": [], \"cwd\": {}}".to_vec(),
        "{\"hook_event_name\":\"PostToolUse\",\"session_id\":\"\u{1F600}\"}"
            .as_bytes()
            .to_vec(),
        b"{}{}{}".to_vec(),
        [
            b"{\"a\":".as_slice(),
            &b"[".repeat(100_000),
            &b"]".repeat(100_000),
            b"}",
        ]
        .concat(),
    ];
    for input in &inputs {
        for command in ["hook", "statusline", "mod"] {
            let out = sandbox.run(&[command], input);
            check(&out, command);
            if command == "mod" {
                assert!(
                    ["", "{}"].contains(&out.stdout.trim()),
                    "input {:?}: {out:?}",
                    String::from_utf8_lossy(&input[..input.len().min(40)])
                );
            }
            if command == "hook" {
                assert_eq!(
                    out.stdout,
                    "",
                    "input {:?}",
                    String::from_utf8_lossy(&input[..input.len().min(40)])
                );
            }
        }
    }
}

#[test]
fn fifty_megabytes_of_stdin() {
    let sandbox = Sandbox::new();
    let mut payload = post_tool_use(&sandbox, "big", None);
    payload["tool_response"]["stdout"] = json!("x".repeat(50 * 1024 * 1024));
    let bytes = payload.to_string().into_bytes();
    for command in ["hook", "statusline", "mod"] {
        check(&sandbox.run(&[command], &bytes), command);
    }
    // 50 MB of non-JSON too.
    let junk = vec![b'{'; 50 * 1024 * 1024];
    for command in ["hook", "statusline", "mod"] {
        check(&sandbox.run(&[command], &junk), command);
    }
}

#[test]
fn stdin_that_is_never_closed() {
    let sandbox = Sandbox::new();
    sandbox.bridge("open-stdin", 30, 0);
    // A complete object: baton answers without waiting for EOF.
    let payload = post_tool_use(&sandbox, "open-stdin", None).to_string();
    let out = sandbox.run_with(&["hook"], payload.as_bytes(), false);
    check(&out, "hook");
    assert!(out.context_text().starts_with("CONTEXT WARNING"), "{out:?}");
    let mut status = fixture("statusline-after-reply.json");
    status["cwd"] = json!(native(&sandbox.project));
    let out = sandbox.run_with(&["statusline"], status.to_string().as_bytes(), false);
    check(&out, "statusline");
    assert!(plain(&out.stdout).contains("83%"));
    // Nothing, or half an object: baton gives up at its deadline and exits 0.
    for partial in [&b""[..], b"{\"session_id\":\"open-stdin\""] {
        for command in ["hook", "statusline", "mod"] {
            check(&sandbox.run_with(&[command], partial, false), command);
        }
    }
}

#[test]
fn hostile_session_ids_write_nothing_anywhere() {
    let long = "a".repeat(10_000);
    let ids = [
        "../x",
        "../../etc/x",
        "/etc/passwd",
        "a\\b",
        "a/b",
        "..",
        ".",
        "",
        "a\0b",
        "x\ny",
        long.as_str(),
    ];
    for id in ids {
        let sandbox = Sandbox::new();
        let transcript = sandbox.transcript("t", "claude-sonnet-4-5", 140_000);
        let mut hook = post_tool_use(&sandbox, "x", Some(&transcript));
        hook["session_id"] = json!(id);
        let out = sandbox.hook(&hook);
        check(&out, "hook");
        assert_eq!(out.stdout, "", "no state can be kept for {id:?}, so no warning");
        for (event, source) in [("PostCompact", None), ("SessionStart", Some("compact"))] {
            let mut compacted = hook.clone();
            compacted["hook_event_name"] = json!(event);
            compacted["source"] = json!(source);
            let out = sandbox.hook(&compacted);
            check(&out, "hook");
            assert_eq!(out.stdout, "", "{event} for {id:?}");
        }

        for event in ["start", "tool", "end"] {
            let question = json!({"event": event, "session_id": id, "cwd": sandbox.project,
                                  "requests": [140_000], "window": 200_000});
            let out = sandbox.run(&["mod"], question.to_string().as_bytes());
            check(&out, "mod");
            assert!(!out.stdout.contains("CONTEXT"), "{event} for {id:?}: {out:?}");
        }
        let private: Vec<_> = std::fs::read_dir(&sandbox.tmp)
            .unwrap()
            .flatten()
            .filter(|e| e.path().is_dir())
            .flat_map(|dir| std::fs::read_dir(dir.path()).unwrap().flatten())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("session-"))
            .collect();
        assert!(private.is_empty(), "{id:?} wrote {private:?}");

        let mut status = fixture("statusline-after-reply.json");
        status["session_id"] = json!(id);
        status["cwd"] = json!(native(&sandbox.project));
        status["workspace"]["current_dir"] = json!(native(&sandbox.project));
        let out = sandbox.statusline(&status);
        check(&out, "statusline");
        assert!(
            plain(&out.stdout).trim_end().ends_with("83%"),
            "the line still renders for {id:?}"
        );

        let written: Vec<_> = std::fs::read_dir(&sandbox.tmp)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("claude-ctx"))
            .collect();
        assert!(written.is_empty(), "{id:?} wrote {written:?}");
        let parent = sandbox.tmp.parent().unwrap();
        for entry in std::fs::read_dir(parent).unwrap().flatten() {
            assert!(
                !entry.file_name().to_string_lossy().starts_with("claude-ctx"),
                "{id:?} escaped the temp dir"
            );
        }
    }
}

#[test]
fn a_symlink_planted_at_the_bridge_path_is_not_followed() {
    let sandbox = Sandbox::new();
    let session = "4106d464-75bb-44ee-b810-e0e678a180ac";
    let victim = sandbox.home.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let bridge = sandbox.temp_file(session, ".json");
    os::symlink(&victim, &bridge);
    let mut status = fixture("statusline-after-reply.json");
    status["cwd"] = json!(native(&sandbox.project));
    check(&sandbox.statusline(&status), "statusline");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let meta = std::fs::symlink_metadata(&bridge).unwrap();
    assert!(meta.is_file(), "the link was replaced by baton's own file");

    // Symlinks at the monitor's state path and at the old lock path: baton neither follows
    // nor fails loudly.
    let warned = sandbox.temp_file(session, "-warned.json");
    let lock = sandbox.temp_file(session, "-warned.lock");
    os::symlink(&victim, &warned);
    check(&sandbox.hook(&post_tool_use(&sandbox, session, None)), "hook");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    std::fs::remove_file(&lock).ok();
    os::symlink(&victim, &lock);
    check(&sandbox.hook(&post_tool_use(&sandbox, session, None)), "hook");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");

    // A link at the mod's marker (in the private directory) is replaced, never written through.
    let private = std::fs::read_dir(&sandbox.tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .unwrap();
    let marker = private.join(format!("session-{session}-mod.json"));
    os::symlink(&victim, &marker);
    let start = json!({"event": "start", "session_id": session, "cwd": sandbox.project});
    check(&sandbox.run(&["mod"], start.to_string().as_bytes()), "mod");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::symlink_metadata(&marker).unwrap().is_file());
}

#[test]
fn compaction_hooks_without_a_private_directory_stay_silent() {
    // The compaction count lives in baton's private directory; with every name it could take
    // planted by someone else, PostCompact and SessionStart `compact` still exit 0 silently,
    // and the statusline with the compactions segment still renders.
    let sandbox = Sandbox::new();
    os::take_every_private_dir_name(&sandbox.tmp);
    let session = "4106d464-75bb-44ee-b810-e0e678a180ac";
    for (event, source) in [("PostCompact", None), ("SessionStart", Some("compact"))] {
        let mut compacted = post_tool_use(&sandbox, session, None);
        compacted["hook_event_name"] = json!(event);
        compacted["source"] = json!(source);
        let out = sandbox.hook(&compacted);
        check(&out, "hook");
        assert_eq!(out.stdout, "", "{event}");
    }
    sandbox.write(
        ".baton/config.json",
        r#"{"statusline":{"segments":["context","compactions"]}}"#,
    );
    let mut status = fixture("statusline-after-reply.json");
    status["cwd"] = json!(native(&sandbox.project));
    status["workspace"]["current_dir"] = json!(native(&sandbox.project));
    let out = sandbox.statusline(&status);
    check(&out, "statusline");
    assert_eq!(plain(&out.stdout).trim_end(), "████████░░ 83%");
}

#[test]
fn without_a_private_directory_the_monitor_warns_at_every_call() {
    // The debounce lives in baton's private directory; with every name it could take planted,
    // a count cannot be kept, so no warning is held back.
    let sandbox = Sandbox::new();
    os::take_every_private_dir_name(&sandbox.tmp);
    let session = "no-private-dir";
    sandbox.bridge(session, 30, 0);
    for call in 1..=3 {
        let out = sandbox.hook(&post_tool_use(&sandbox, session, None));
        check(&out, "hook");
        assert!(
            out.context().is_some_and(|t| t.starts_with("CONTEXT WARNING")),
            "call {call}: {out:?}"
        );
    }
}

#[test]
fn a_hard_link_planted_at_the_debounce_path_is_not_written_through() {
    // Another name for a file of the user's (0600, small: everything the in-place rewrite
    // accepts) planted where the monitor keeps its debounce state, for the main agent and
    // for a subagent.
    let sandbox = Sandbox::new();
    let session = "hard-link-session";
    let agent = "a9f371828cb2429bb";
    let original = r#"{"callsSinceWarn":0,"lastLevel":"warning","secret":"keep me"}"#;
    let victim = sandbox.home.join("victim.json");
    std::fs::write(&victim, original).unwrap();
    os::set_mode(&victim, 0o600);
    let main = sandbox.planted_debounce_file(session);
    let sub = sandbox.planted_debounce_file(&format!("{session}-agent-{agent}"));
    // And where GSD's own monitor keeps its record, which baton sets quiet.
    let gsds = sandbox.temp_file(session, "-warned.json");
    for planted in [&main, &sub, &gsds] {
        std::fs::hard_link(&victim, planted).unwrap();
    }

    sandbox.bridge(session, 30, 0);
    check(&sandbox.hook(&post_tool_use(&sandbox, session, None)), "hook");
    let parent = sandbox.session_transcript(session, &transcript_lines("claude-sonnet-4-5", 20_000));
    sandbox.subagent_transcript(session, agent, &transcript_lines("claude-sonnet-4-5", 140_000));
    let mut in_subagent = post_tool_use(&sandbox, session, Some(&parent));
    in_subagent["agent_id"] = json!(agent);
    in_subagent["agent_type"] = json!("general-purpose");
    check(&sandbox.hook(&in_subagent), "hook");

    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        original,
        "written through a hard link"
    );
    for state in [&main, &sub, &gsds] {
        let now: serde_json::Value = serde_json::from_slice(&std::fs::read(state).unwrap()).unwrap();
        assert_eq!(now["generator"], "baton", "baton's own state replaced the link");
    }
}

#[test]
fn a_planted_bridge_file_that_is_a_symlink_is_not_read() {
    // An attacker's link pointing at a file with alarming figures: the monitor ignores it.
    let sandbox = Sandbox::new();
    let fake = sandbox.home.join("fake.json");
    std::fs::write(
        &fake,
        json!({"session_id":"s1","remaining_percentage":1,"used_pct":99,"timestamp":now()}).to_string(),
    )
    .unwrap();
    os::symlink(&fake, sandbox.temp_file("s1", ".json"));
    assert_eq!(sandbox.hook(&post_tool_use(&sandbox, "s1", None)).context(), None);
}

#[test]
fn multi_gigabyte_transcripts_are_read_from_the_tail() {
    let sandbox = Sandbox::new();
    let path = sandbox.project.join("huge.jsonl");
    let file = std::fs::File::create(&path).unwrap();
    // A sparse 4 GB file of older history, then real lines at the end.
    file.set_len(4 * 1024 * 1024 * 1024).unwrap();
    drop(file);
    let mut tail = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    use std::io::Write;
    write!(tail, "\n{}", transcript_lines("claude-sonnet-4-5", 140_000)).unwrap();
    drop(tail);

    let out = sandbox.hook(&post_tool_use(&sandbox, "huge", Some(&path)));
    check(&out, "hook");
    assert!(out.context_text().contains("Remaining: 30%."));

    let mut status = fixture("statusline-session-start.json");
    status["session_id"] = json!("huge");
    status["cwd"] = json!(native(&sandbox.project));
    status["transcript_path"] = json!(native(&path));
    let out = sandbox.statusline(&status);
    check(&out, "statusline");
    assert!(
        plain(&out.stdout).trim_end().ends_with("78%"),
        "140k of 180k usable: {}",
        out.stdout
    );
}

#[cfg(unix)]
#[test]
fn transcripts_that_are_not_files() {
    let sandbox = Sandbox::new();
    let fifo = sandbox.project.join("fifo.jsonl");
    os::mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap().to_owned();
    for path in [
        fifo.as_str(),
        "/dev/zero",
        "/dev/null",
        "/proc/self/mem",
        "/",
        "relative/path.jsonl",
        "/nonexistent/x.jsonl",
    ] {
        let mut hook = post_tool_use(&sandbox, "odd", None);
        hook["transcript_path"] = json!(native(path));
        check(&sandbox.hook(&hook), "hook");
        let mut status = fixture("statusline-session-start.json");
        status["transcript_path"] = json!(native(path));
        check(&sandbox.statusline(&status), "statusline");
    }
    // FIFOs where baton reads its own files: STATE.md, config, git HEAD.
    for relative in [
        ".planning/STATE.md",
        ".planning/config.json",
        ".planning/active-workstream",
        ".baton/config.json",
        ".git/HEAD",
    ] {
        let path = sandbox.project.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        os::mkfifo(&path);
    }
    sandbox.bridge("odd", 30, 0);
    check(&sandbox.hook(&post_tool_use(&sandbox, "odd", None)), "hook");
    let mut status = fixture("statusline-after-reply.json");
    status["cwd"] = json!(native(&sandbox.project));
    status["workspace"]["current_dir"] = json!(native(&sandbox.project));
    check(&sandbox.statusline(&status), "statusline");
}

#[cfg(unix)]
#[test]
fn task_directories_full_of_odd_entries_cost_a_bounded_time() {
    let sandbox = Sandbox::new().env("NO_COLOR", "1");
    let mut status = fixture("statusline-after-reply.json");
    let session = status["session_id"].as_str().unwrap().to_owned();
    status["cwd"] = json!(native(&sandbox.project));
    status["workspace"]["current_dir"] = json!(native(&sandbox.project));
    let dir = sandbox.home.join(".claude/tasks").join(&session);
    std::fs::create_dir_all(&dir).unwrap();
    for n in 10..3000 {
        let task = json!({"id": n.to_string(), "subject": "Done", "activeForm": "Done", "status": "completed"});
        std::fs::write(dir.join(format!("{n}.json")), task.to_string()).unwrap();
    }
    os::mkfifo(&dir.join("1.json"));
    std::fs::write(dir.join("2.json"), "[".repeat(2 * 1024 * 1024)).unwrap();
    os::symlink("/dev/zero", dir.join("3.json"));
    std::fs::create_dir(dir.join("4.json")).unwrap();
    let out = sandbox.statusline(&status);
    check(&out, "statusline");
    assert_eq!(out.stdout.trim(), "Sonnet 4.5 │ proj │ ████████░░ 83%");

    // A session id that escapes the tasks directory reads nothing.
    status["session_id"] = json!("../../..");
    check(&sandbox.statusline(&status), "statusline");
}
