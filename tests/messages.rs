//! What baton says, through the built binary: counted nouns that agree with their numbers,
//! one verdict from the doctor, hints that come from the actual state, messages that say
//! what really happened, and the help showing what install really writes.

use crate::common::*;

#[test]
fn counted_nouns_agree_with_their_numbers() {
    let sandbox = Sandbox::new();
    sandbox.write(
        ".planning/STATE.md",
        "---\nstatus: executing\n---\n\nPhase: 1 of 1 (Start)\n",
    );
    sandbox.write(
        ".planning/ROADMAP.md",
        "# Roadmap\n\n- [ ] **Phase 1: Start** - the first\n",
    );
    sandbox.write(".planning/phases/01-start/01-01-PLAN.md", "---\nwave: 1\n---\n# Plan\n");
    let out = sandbox.run(&["progress"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("Overall: 0% (0 of 1 phase, 0 of 1 plan done)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("(0 of 1 plan of phase 1 done; 01-01 is next)"),
        "{}",
        out.stdout
    );
    let out = sandbox.run(&["agents", "waves"], b"");
    assert!(out.stdout.starts_with("Phase 1 (start): 1 plan in 1 wave\n"), "{out:?}");
}

#[test]
fn doctor_gives_its_verdict_once() {
    // Nothing wired (the statusLine and six hooks to fix); baton off PATH is only a note.
    let sandbox = Sandbox::new().env("PATH", "/usr/bin:/bin");
    let out = sandbox.run(&["doctor"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    let all = format!("{}{}", out.stdout, out.stderr);
    let verdicts = all
        .lines()
        .filter(|l| l.contains("to fix") || l.contains("problem"))
        .count();
    assert_eq!(verdicts, 1, "{all}");
    assert!(!all.contains("(s)"), "{all}");
    assert!(
        out.stderr.starts_with("baton doctor: 7 things to fix"),
        "{}",
        out.stderr
    );
}

#[test]
fn uninstall_takes_yes_as_install_does() {
    let sandbox = Sandbox::new();
    assert_eq!(sandbox.run(&["install", "--yes"], b"").code, Some(0));
    let out = sandbox.run(&["uninstall", "--yes"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!sandbox.home.join(".claude/settings.json").exists(), "{out:?}");
}

#[test]
fn help_shows_the_entries_install_writes() {
    let sandbox = Sandbox::new();
    let help = sandbox.run(&["--help"], b"").stdout;
    assert_eq!(sandbox.run(&["install"], b"").code, Some(0));
    let settings = sandbox.read_json(&sandbox.home.join(".claude/settings.json"));
    for (event, groups) in settings["hooks"].as_object().unwrap() {
        let mut group = groups[0].clone();
        group["hooks"][0]["command"] = "baton hook".into();
        let line = format!("\"{event}\": [{group}]");
        assert!(help.contains(&line), "{line} missing from the help:\n{help}");
    }
    assert!(!help.contains("\"matcher\":\"\""), "{help}");
    for command in ["agents", "report", "install"] {
        let text = sandbox.run(&[command, "--help"], b"").stdout;
        assert!(!text.contains("\"matcher\": \"\""), "{text}");
    }
}

#[test]
fn an_unknown_session_is_an_error_that_says_what_to_do() {
    let sandbox = Sandbox::new();
    sandbox.write(".planning/STATE.md", "---\nstatus: executing\n---\n");
    let out = sandbox.run(&["report", "--session", "nope"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(
        out.stderr
            .starts_with("baton report: no transcript found for session nope")
            && out.stderr.contains("check the id"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
    assert!(
        !sandbox.project.join(".planning/reports").exists(),
        "no report for a session that is not there"
    );
    let out = sandbox.run(&["report", "--json", "--session", "nope"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
}

#[test]
fn the_missing_transcript_hint_comes_from_where_the_report_runs() {
    let inside = Sandbox::new();
    inside.write(".planning/STATE.md", "---\nstatus: executing\n---\n");
    let report = inside.run(&["report", "--json"], b"");
    assert_eq!(report.code, Some(0), "{report:?}");
    let why: serde_json::Value = serde_json::from_str(&report.stdout).unwrap();
    let why = why["resources_unavailable"].as_str().unwrap().to_owned();
    assert!(
        why.contains("has not recorded a session started in") && !why.contains("inside the project"),
        "inside the project: {why}"
    );

    let outside = Sandbox::new();
    let report = outside.run(&["report", "--json", "--out", "/dev/null"], b"");
    let why: serde_json::Value = serde_json::from_str(&report.stdout).unwrap();
    assert!(
        why["resources_unavailable"]
            .as_str()
            .unwrap()
            .contains("inside the project's directory"),
        "{why}"
    );
}

#[test]
fn the_empty_ledger_hint_comes_from_the_wiring() {
    let sandbox = Sandbox::new();
    sandbox.write(".planning/STATE.md", "---\nstatus: executing\n---\n");
    let out = sandbox.run(&["agents", "verify", "last"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stderr.contains("not wired; run `baton install`"), "{}", out.stderr);

    assert_eq!(sandbox.run(&["install"], b"").code, Some(0));
    for args in [&["agents", "verify", "last"][..], &["agents", "list"]] {
        let out = sandbox.run(args, b"");
        let said = format!("{}{}", out.stdout, out.stderr);
        assert!(
            said.contains("hooks are wired")
                && said.contains(&native(sandbox.home.join(".claude/settings.json")))
                && !said.contains("baton install"),
            "{args:?} after install:\n{said}"
        );
    }
}

fn settings_path(sandbox: &Sandbox) -> std::path::PathBuf {
    sandbox.home.join(".claude/settings.json")
}

#[test]
fn uninstall_says_what_it_removed_and_what_it_left() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.home.join(".claude")).unwrap();
    std::fs::write(settings_path(&sandbox), "{\n  \"model\": \"opus\"\n}\n").unwrap();
    assert_eq!(sandbox.run(&["install"], b"").code, Some(0));
    let mut settings = sandbox.read_json(&settings_path(&sandbox));
    settings["hooks"]["SessionStart"][0]["hooks"][0]["timeout"] = 30.into();
    std::fs::write(settings_path(&sandbox), settings.to_string()).unwrap();
    let out = sandbox.run(&["uninstall"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let removed = out.stdout.lines().find(|l| l.starts_with("Removed from")).unwrap();
    assert!(
        removed.contains("statusLine") && removed.contains("hooks.PostToolUse") && !removed.contains("SessionStart"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("Left in") && out.stdout.contains("hooks.SessionStart (changed since install)"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("Kept hooks"), "{}", out.stdout);

    let fresh = Sandbox::new();
    assert_eq!(fresh.run(&["install"], b"").code, Some(0));
    let out = fresh.run(&["uninstall"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!settings_path(&fresh).exists());
    let first = out.stdout.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "Removed {}: install created it",
            native(settings_path(&fresh))
        )),
        "the file is gone, not edited:\n{}",
        out.stdout
    );
}

#[test]
fn a_settings_file_with_a_byte_order_mark_is_read_and_keeps_it() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.home.join(".claude")).unwrap();
    let original = "\u{feff}{\n  \"model\": \"opus\"\n}\n";
    std::fs::write(settings_path(&sandbox), original).unwrap();
    let out = sandbox.run(&["install"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let text = std::fs::read_to_string(settings_path(&sandbox)).unwrap();
    assert!(text.starts_with('\u{feff}'), "the mark stays");
    let value: serde_json::Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).unwrap();
    assert_eq!(value["model"], "opus");
    assert!(
        value["statusLine"]["command"]
            .as_str()
            .unwrap()
            .ends_with(&format!("{} statusline", crate::common::binary::file_name()))
    );
    let doctor = sandbox.run(&["doctor"], b"");
    assert!(
        doctor.stdout.contains("ok   statusLine runs baton"),
        "{}",
        doctor.stdout
    );
    assert_eq!(sandbox.run(&["uninstall"], b"").code, Some(0));
    assert_eq!(
        std::fs::read_to_string(settings_path(&sandbox)).unwrap(),
        original,
        "byte for byte"
    );
}

#[test]
fn the_documentation_cites_only_what_is_in_the_repository() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let tracked = [
        "src",
        "tests",
        "bench",
        "scripts",
        "probe",
        "plugin",
        ".claude-plugin",
        ".ci",
    ];
    let mut cited = 0;
    let mut missing = Vec::new();
    for file in crate::doc_links::documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file.strip_prefix(root).unwrap().display().to_string();
        for word in text.split(|c: char| c.is_whitespace() || "`()[],;\"'".contains(c)) {
            // A link's `#anchor` is the link test's (doc_links.rs) to check.
            let word = word.trim_end_matches(['.', ':']).split('#').next().unwrap_or_default();
            let in_repo = tracked.iter().any(|dir| word.starts_with(&format!("{dir}/")));
            let a_doc = word.ends_with(".md") && word.chars().next().is_some_and(|c| c.is_ascii_uppercase());
            if in_repo {
                if !root.join(word).exists() {
                    missing.push(format!("{shown} cites {word}, which is not in the repository"));
                }
                cited += 1;
            }
            if a_doc
                && text.contains(&format!("{word} §"))
                && !root.join(word).exists()
                && !root.join("docs").join(word).exists()
            {
                missing.push(format!(
                    "{shown} cites a section of {word}, which is not in the repository"
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    assert!(cited >= 50, "{cited}");
}
