//! What the last run in a project wanted is compiled ahead of the next run, while git lists
//! its files: the next run says how many of its rules were ready and finds exactly what a run
//! without the cache finds, whatever the cache holds (another project's rules, garbage, a
//! planted link).

use serde_json::Value;

use super::copy_project;
use super::runs::{run_record, start, stop};
use crate::common::{Sandbox, git, git_repo, os};

/// `baton bridge --files . --json --timings` in the sandbox's project: the handoff (without
/// its time of writing) and the figures of the timings' compile line (rules wanted, of those
/// compiled ahead).
fn run(sandbox: &Sandbox) -> (Value, (usize, usize)) {
    let out = sandbox.run(&["bridge", "--files", ".", "--json", "--timings"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let line = out
        .stderr
        .lines()
        .find(|line| line.contains("rules: compile"))
        .unwrap_or_else(|| panic!("no compile line in {}", out.stderr));
    let words: Vec<&str> = line.split_whitespace().collect();
    let figure = |after: &str| -> usize {
        let at = words.iter().position(|word| *word == after).expect(line);
        words[at - 1].parse().expect(line)
    };
    let wanted = figure("rules,");
    let ahead = figure("compiled");
    let mut handoff: Value = serde_json::from_str(&out.stdout).unwrap();
    handoff.as_object_mut().unwrap().remove("createdAt");
    (handoff, (wanted, ahead))
}

/// The handoff of the project's files in a sandbox of its own (no cache).
fn fresh(fixtures: &[&str]) -> Value {
    let sandbox = Sandbox::new();
    for fixture in fixtures {
        copy_project(&sandbox, fixture);
    }
    run(&sandbox).0
}

/// The cache file of the sandbox's runs of `kind` (`files`, `changes`).
fn cache_file(sandbox: &Sandbox, kind: &str) -> std::path::PathBuf {
    let private = std::fs::read_dir(&sandbox.tmp)
        .unwrap()
        .flatten()
        .find(|entry| entry.file_name().to_string_lossy().starts_with("baton"))
        .expect("baton's private directory")
        .path();
    std::fs::read_dir(&private)
        .unwrap()
        .flatten()
        .find(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .ends_with(&format!("-bridge-rules-{kind}"))
        })
        .unwrap_or_else(|| panic!("no cache in {}", private.display()))
        .path()
}

#[test]
fn the_next_run_compiles_ahead_what_the_last_wanted_and_finds_the_same() {
    let sandbox = Sandbox::new();
    copy_project(&sandbox, "backend-express");
    let (first, (wanted, ahead)) = run(&sandbox);
    assert!(
        wanted > 0 && ahead == 0,
        "a first run has nothing ahead: {wanted} {ahead}"
    );
    let (second, figures) = run(&sandbox);
    assert_eq!(figures, (wanted, wanted), "the second run has every rule ready");
    assert_eq!(first, second);
    // Files of other kinds join: the rules ready are the express ones, the rest compile now,
    // and what the run finds is what a run without the cache finds.
    copy_project(&sandbox, "frontend-react");
    copy_project(&sandbox, "backend-fastapi");
    let (mixed, (more, ready)) = run(&sandbox);
    assert!(more > wanted && ready <= wanted && ready > 0, "{more} {ready} {wanted}");
    assert_eq!(mixed, fresh(&["backend-express", "frontend-react", "backend-fastapi"]));
    // Back to the express files alone: the rules ready are a larger set; the run still finds
    // only what the express files hold.
    let sandbox = Sandbox::new();
    copy_project(&sandbox, "backend-express");
    copy_project(&sandbox, "frontend-react");
    copy_project(&sandbox, "backend-fastapi");
    run(&sandbox);
    std::fs::remove_dir_all(&sandbox.project).unwrap();
    copy_project(&sandbox, "backend-express");
    let (alone, (fewer, all_ready)) = run(&sandbox);
    assert_eq!((fewer, all_ready), (wanted, wanted));
    assert_eq!(alone, first);
}

#[test]
fn a_cache_of_garbage_or_of_another_version_is_not_trusted() {
    let sandbox = Sandbox::new();
    copy_project(&sandbox, "backend-express");
    let (first, (wanted, _)) = run(&sandbox);
    let cache = cache_file(&sandbox, "files");
    let kept = std::fs::read_to_string(&cache).unwrap();
    for planted in [
        "{\"version\":".to_owned(),
        "\u{0}\u{1}garbage".to_owned(),
        kept.replace(env!("CARGO_PKG_VERSION"), "0.0.0-other"),
        kept.replace(
            "\"rules\":[",
            "\"rules\":[[\"cobol\",\"no/such\"],[\"typescript\",\"../../etc\"],",
        ),
    ] {
        std::fs::write(&cache, &planted).unwrap();
        let (handoff, (again, ahead)) = run(&sandbox);
        assert_eq!(handoff, first, "{planted}");
        assert_eq!(again, wanted);
        // Unknown names are left out; the rules the cache names rightly are still ready.
        let expected = if planted.contains("no/such") { wanted } else { 0 };
        assert_eq!(ahead, expected, "{planted}");
    }
}

#[test]
fn a_link_planted_at_the_cache_is_not_read_or_written_through() {
    let sandbox = Sandbox::new();
    copy_project(&sandbox, "backend-express");
    let (first, (wanted, _)) = run(&sandbox);
    let cache = cache_file(&sandbox, "files");
    let target = sandbox.tmp.join("elsewhere.json");
    std::fs::rename(&cache, &target).unwrap();
    let before = std::fs::read(&target).unwrap();
    os::symlink(&target, &cache);
    let (handoff, figures) = run(&sandbox);
    assert_eq!(figures, (wanted, 0), "a linked cache is not read");
    assert_eq!(handoff, first);
    assert_eq!(std::fs::read(&target).unwrap(), before, "nor written through");
    assert!(!std::fs::symlink_metadata(&cache).unwrap().file_type().is_symlink());
}

/// The SubagentStop hook's runs remember their rules apart from runs on files given, and the
/// next run's handoff is the same whether they were compiled ahead or not.
#[test]
fn a_subagent_stops_runs_remember_what_they_wanted() {
    let sandbox = Sandbox::new();
    git_repo(&sandbox.project, &[("README.md", "# app\n")]);
    let route = "import express from 'express';\nconst router = express.Router();\n\
                 router.get('/users/:id', show);\nexport default router;\n";
    let mut handoffs = Vec::new();
    for (n, agent) in ["a000000000000001", "a000000000000002"].iter().enumerate() {
        start(&sandbox, agent, "backend-agent");
        sandbox.write("src/routes/users.ts", &format!("{route}// change {n}\n"));
        git(&sandbox.project, &["add", "src"]);
        git(&sandbox.project, &["commit", "-q", "-m", "users routes"]);
        stop(&sandbox, agent, "backend-agent", "Added the users routes.");
        let run = run_record(&sandbox, agent);
        handoffs.push(run["handoff"]["structured"]["endpoints"].clone());
        let cache = std::fs::read_to_string(cache_file(&sandbox, "changes")).unwrap();
        assert!(cache.contains("express/routes"), "{cache}");
    }
    assert_eq!(handoffs[0], handoffs[1], "the same route in both runs");
    assert_eq!(handoffs[0][0]["path"], "/users/:id", "{:#}", handoffs[0]);
}
