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
    let sandbox = Sandbox::new();
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
