//! `baton install --copy`: baton's own copy at the per-user place, replaced by a newer binary
//! while a copy of the old one runs (renamed over on Unix; on Windows the running one is moved
//! aside first), and removed by `uninstall`. `BATON_PREFIX` keeps each test's copy in its own
//! sandbox (on Windows the default, `%LOCALAPPDATA%`, is shared by every test).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use super::ok;
use crate::common::*;

/// A sandbox whose `install --copy` goes to `<home>/.local/bin`.
fn sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    let prefix = sandbox.home.join(".local").display().to_string();
    sandbox.env("BATON_PREFIX", &prefix)
}

/// Runs `binary ARGS` (another copy of baton) as [`spawn`] starts it, stdin closed.
fn run_binary(sandbox: &Sandbox, binary: &Path, args: &[&str]) -> Outcome {
    let started = std::time::Instant::now();
    let mut child = spawn(sandbox, binary, args);
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    Outcome {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

/// Where `install --copy` said it put the copy ("Installed baton X to PATH").
fn installed_path(stdout: &str) -> PathBuf {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Installed baton "))
        .unwrap_or_else(|| panic!("no Installed line:\n{stdout}"));
    let (_, path) = line.split_once(" to ").or_else(|| line.split_once(" at ")).unwrap();
    host_path(path.split(" (replacing").next().unwrap())
}

/// `binary ARGS` with the sandbox's environment and stdin piped (left open until written).
fn spawn(sandbox: &Sandbox, binary: &Path, args: &[&str]) -> std::process::Child {
    binary::command(binary)
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp)
        .env("XDG_CONFIG_HOME", sandbox.home.join(".config"))
        .env("BATON_PREFIX", sandbox.home.join(".local"))
        .current_dir(&sandbox.project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn install_copy_replaces_a_running_copy_and_uninstall_removes_it() {
    let sandbox = sandbox();
    let out = ok(sandbox.run(&["install", "--copy", "--yes"], b""));
    let copy = installed_path(&out.stdout);
    assert!(copy.starts_with(&sandbox.home), "{}", copy.display());
    let original = std::fs::read(baton_bin()).unwrap();
    assert_eq!(std::fs::read(&copy).unwrap(), original);
    let settings = sandbox.read_json(&sandbox.home.join(".claude/settings.json"));
    let statusline = settings["statusLine"]["command"].as_str().unwrap();
    assert!(
        statusline.replace('\\', "/").contains(&wired(&copy)),
        "the settings run the copy: {statusline}"
    );
    let again = ok(sandbox.run(&["install", "--copy", "--yes"], b""));
    assert!(again.stdout.contains(" is already installed at "), "{}", again.stdout);

    // A newer binary (here: the same program with bytes appended) installed while the copy
    // runs a `ctx set` that waits on stdin.
    ok(run_binary(&sandbox, &copy, &["ctx", "init"]));
    let mut running = spawn(&sandbox, &copy, &["ctx", "set", "upgrade", "--stdin"]);
    let newer = sandbox.home.join("newer").join(copy.file_name().unwrap());
    std::fs::create_dir_all(newer.parent().unwrap()).unwrap();
    let mut bytes = original.clone();
    bytes.extend_from_slice(b"\0a newer build");
    std::fs::write(&newer, &bytes).unwrap();
    os::make_executable(&newer);
    let upgraded = ok(run_binary(&sandbox, &newer, &["install", "--copy", "--yes"]));
    assert_eq!(installed_path(&upgraded.stdout), copy);
    assert_eq!(std::fs::read(&copy).unwrap(), bytes, "the copy is the newer binary");
    running.stdin.take().unwrap().write_all(b"\"survived\"").unwrap();
    let done = running.wait_with_output().unwrap();
    assert!(
        done.status.success(),
        "the running copy finished: {}",
        String::from_utf8_lossy(&done.stderr)
    );
    let value = ok(run_binary(&sandbox, &copy, &["ctx", "get", "upgrade"]));
    assert_eq!(value.stdout.trim(), "\"survived\"");

    let removed = ok(sandbox.run(&["uninstall"], b""));
    assert!(
        removed.stdout.contains(&format!("Removed {}", native(&copy))),
        "{}",
        removed.stdout
    );
    assert!(!copy.exists());
    assert!(!sandbox.home.join(".claude/settings.json").exists());
}

#[test]
fn install_copy_dry_run_copies_nothing() {
    let sandbox = sandbox();
    let out = ok(sandbox.run(&["install", "--copy", "--dry-run"], b""));
    let copy = out
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("Would install baton {} to ", env!("CARGO_PKG_VERSION"))))
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(!copy.exists());
    assert!(!sandbox.home.join(".claude/settings.json").exists());
}
