//! npm packages the end-to-end tests run (the Claude Code client, GSD's hooks), installed
//! once under the target directory and shared by every test and cargo process.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::client::{on_path, output_within};

/// `<CARGO_TARGET_DIR or <repo>/target>/<name>`.
pub fn install_dir(name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join(name)
}

/// Installs `package` (`name@version`) into `install_dir(name)` unless `ready` says it is
/// there; panics (never skips) when npm is missing or fails. A file lock keeps parallel test
/// processes from installing over each other.
pub fn install(name: &str, package: &str, ready: impl Fn(&Path) -> bool) -> PathBuf {
    let dir = install_dir(name);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    let lock_path = dir.join(".install.lock");
    let lock = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path);
    let lock = lock.unwrap_or_else(|e| panic!("open {}: {e}", lock_path.display()));
    lock.lock()
        .unwrap_or_else(|e| panic!("lock {}: {e}", lock_path.display()));
    if !ready(&dir) {
        assert!(
            on_path("npm"),
            "npm is not on PATH: the e2e tests install {package} with it"
        );
        let mut npm = Command::new("npm");
        npm.args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&dir)
            .arg(package);
        let output = output_within(npm, Duration::from_secs(600));
        assert!(
            output.status.success(),
            "npm install {package} failed ({}); the e2e tests need Node.js/npm and the registry once\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr),
        );
    }
    dir
}
