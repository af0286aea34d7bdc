//! The walk never reads outside the work tree, and `.gitignore` fails closed: a committed
//! link to a directory (`root -> /`) does not let `--files root/…` read through it, outside
//! git `--files linkdir` does not list the linked directory, and when git cannot say whether
//! an untracked file is ignored (it failed, or ran past its deadline) the file is not read.

use super::bridge_json;
use crate::common::{Sandbox, git, git_repo, os};

/// A directory outside the project with a migration and a dotenv file in it.
fn outside(sandbox: &Sandbox) -> std::path::PathBuf {
    let dir = sandbox.tmp.join("outside");
    std::fs::create_dir_all(dir.join("tmp")).unwrap();
    std::fs::write(dir.join("tmp/x.sql"), "CREATE TABLE stolen (secret text);").unwrap();
    std::fs::write(dir.join(".env"), "STOLEN_SECRET=1\n").unwrap();
    dir
}

fn table_names(handoff: &serde_json::Value) -> Vec<String> {
    let tables = handoff["structured"]["tables"].as_array().unwrap();
    tables.iter().map(|t| t["name"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn a_committed_link_to_a_directory_is_not_read_through() {
    let sandbox = Sandbox::new();
    let target = outside(&sandbox);
    git_repo(&sandbox.project, &[("db/001.sql", "CREATE TABLE kept (id int);")]);
    os::symlink(&target, sandbox.project.join("root"));
    git(&sandbox.project, &["add", "root"]);
    git(&sandbox.project, &["commit", "-q", "-m", "a link"]);
    for files in [
        &["root/tmp/x.sql"][..],
        &["root/tmp"],
        &["root"],
        &["."],
        &["db", "root/.env"],
    ] {
        let mut args = vec!["--files"];
        args.extend_from_slice(files);
        let handoff = bridge_json(&sandbox, &args);
        let shown = handoff.to_string();
        assert!(
            !shown.contains("stolen") && !shown.contains("STOLEN_SECRET"),
            "{files:?} read through the link: {shown}"
        );
        assert!(
            handoff["files"]["symlinks"].as_u64().unwrap() >= 1,
            "{files:?}: {}",
            handoff["files"]
        );
        if files.contains(&".") || files.contains(&"db") {
            assert_eq!(table_names(&handoff), ["kept"], "{files:?}");
        }
    }
}

#[test]
fn outside_git_a_linked_directory_is_not_listed() {
    let sandbox = Sandbox::new();
    let target = outside(&sandbox);
    sandbox.write("db/001.sql", "CREATE TABLE kept (id int);");
    os::symlink(&target, sandbox.project.join("linkdir"));
    let handoff = bridge_json(&sandbox, &["--files", "linkdir", "linkdir/tmp/x.sql", "db"]);
    let shown = handoff.to_string();
    assert!(!shown.contains("stolen"), "{shown}");
    assert_eq!(table_names(&handoff), ["kept"]);
    assert_eq!(handoff["files"]["symlinks"], 2, "{}", handoff["files"]);
}

/// A `git` that runs the real one except for `check-ignore`, which it makes `behaviour`
/// (`exec sleep 30`: slower than baton's deadline; `exit 128`: a failure).
#[cfg(unix)]
fn with_slow_git(sandbox: Sandbox, behaviour: &str) -> Sandbox {
    let real = std::env::var("PATH")
        .unwrap_or_default()
        .split(':')
        .map(|dir| std::path::Path::new(dir).join("git"))
        .find(|git| git.is_file())
        .expect("git on PATH");
    let bin = sandbox.tmp.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = format!(
        "#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = check-ignore ] && {behaviour}; done\nexec '{}' \"$@\"\n",
        real.display()
    );
    std::fs::write(bin.join("git"), script).unwrap();
    os::set_mode(&bin.join("git"), 0o755);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    sandbox.env("PATH", &path)
}

#[cfg(unix)]
#[test]
fn an_ignored_file_is_not_read_when_git_cannot_say_it_is_ignored() {
    for behaviour in ["exec sleep 30", "exit 128"] {
        let sandbox = Sandbox::new();
        git_repo(
            &sandbox.project,
            &[
                (".gitignore", ".env.local\n"),
                ("src/config.ts", "export const port = process.env.PORT;\n"),
            ],
        );
        sandbox.write(".env.local", "LOCAL_ONLY_SECRET=hunter2\n");
        sandbox.write(".env.example", "PUBLIC_SETTING=\n");
        let sandbox = with_slow_git(sandbox, behaviour);
        let handoff = bridge_json(&sandbox, &["--files", ".env.local", ".env.example", "src/config.ts"]);
        let shown = handoff.to_string();
        assert!(
            !shown.contains("LOCAL_ONLY_SECRET"),
            "{behaviour}: an ignored file was read: {shown}"
        );
        let env: Vec<&str> = handoff["structured"]["envVars"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap())
            .collect();
        assert_eq!(env, ["PORT"], "{behaviour}: the tracked file still counts");
        assert_eq!(handoff["files"]["unverified"], 2, "{behaviour}: {}", handoff["files"]);
        let summary = handoff["summary"].as_str().unwrap();
        assert!(
            summary.contains("2 not checked against .gitignore (git failed or timed out)"),
            "{summary}"
        );
    }
}

/// `--since`: the untracked files `git status` lists are read without asking `git
/// check-ignore` (it lists no ignored file), and an ignored one is not read.
#[test]
fn since_reads_the_untracked_files_git_lists_and_never_an_ignored_one() {
    let sandbox = Sandbox::new();
    git_repo(
        &sandbox.project,
        &[
            ("db/001.sql", "CREATE TABLE kept (id int);"),
            (".gitignore", "*.local.sql\n"),
        ],
    );
    std::fs::create_dir_all(sandbox.project.join("db/new")).unwrap();
    std::fs::write(sandbox.project.join("db/new/002.sql"), "CREATE TABLE added (id int);").unwrap();
    std::fs::write(
        sandbox.project.join("db/secret.local.sql"),
        "CREATE TABLE ignored_secret (id int);",
    )
    .unwrap();
    let handoff = bridge_json(&sandbox, &["--since", "HEAD"]);
    assert_eq!(table_names(&handoff), ["added"], "{}", handoff["files"]);
    assert!(!handoff.to_string().contains("ignored_secret"));
}
