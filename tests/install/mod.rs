//! `baton install`, `uninstall`, `doctor`, help and completions through the built binary,
//! on settings files like the ones users really have.

mod commands;
mod copy;
mod doctor;
mod help;
mod owned;
mod plugin;
mod settings;
mod upgrade;

use serde_json::Value;

use crate::common::*;

fn settings_path(sandbox: &Sandbox) -> std::path::PathBuf {
    sandbox.home.join(".claude/settings.json")
}

fn write_settings(sandbox: &Sandbox, text: &str) {
    let path = settings_path(sandbox);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn settings(sandbox: &Sandbox) -> Value {
    sandbox.read_json(&settings_path(sandbox))
}

fn ok(out: Outcome) -> Outcome {
    assert_eq!(out.code, Some(0), "{out:?}");
    out
}

/// Runs `binary` (a copy of baton elsewhere) with the sandbox's environment.
fn run_binary(sandbox: &Sandbox, binary: &std::path::Path, args: &[&str], path: Option<&str>) -> Outcome {
    let started = std::time::Instant::now();
    let out = crate::common::binary::command(binary)
        .args(args)
        .env_clear()
        .env(
            "PATH",
            path.map_or_else(|| std::env::var("PATH").unwrap_or_default(), str::to_owned),
        )
        .env("HOME", &sandbox.home)
        .env("TMPDIR", &sandbox.tmp)
        .env("XDG_CONFIG_HOME", sandbox.home.join(".config"))
        .current_dir(&sandbox.project)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    Outcome {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

/// A copy of the binary under test at `<sandbox home>/<dir>/baton`, as if installed there.
fn baton_copy(sandbox: &Sandbox, dir: &str) -> std::path::PathBuf {
    let path = sandbox.home.join(dir).join(binary::file_name());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    if std::fs::hard_link(baton_bin(), &path).is_err() {
        std::fs::copy(baton_bin(), &path).unwrap();
    }
    std::fs::canonicalize(path).unwrap()
}
