//! git for the tests: a fixed identity, no user or system config.

use std::path::Path;
use std::process::{Command, Stdio};

/// Runs git in `dir` with a fixed identity (no user config needed); panics on failure and
/// returns stdout, trimmed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    git_with(dir, args, &[])
}

/// [`git`] with `env` set too (`GIT_COMMITTER_DATE`, for a commit id that never changes).
pub fn git_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let output = Command::new("git")
        .args(["-c", "user.name=Baton Test", "-c", "user.email=test@baton.invalid"])
        .args(["-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("git {args:?}: {e}"));
    assert!(
        output.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// Makes `dir` a git repository with one commit holding `files` (path, contents);
/// returns the commit id.
pub fn git_repo(dir: &Path, files: &[(&str, &str)]) -> String {
    git(dir, &["init", "-q"]);
    for (path, contents) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "start"]);
    git(dir, &["rev-parse", "HEAD"])
}
