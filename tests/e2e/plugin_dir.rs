//! The repository's plugin folder (`plugin/`) as Claude Code loads it (`--plugin-dir`): copied
//! into the sandbox, with the `bin/baton` shim finding the binary under test through
//! `BATON_PREFIX`, and headless runs of the client with it loaded.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use super::client::{MODEL, claude_command, output_within};
use super::mock::Mock;
use super::sandbox::Sandbox;

/// Copies the plugin into `<sandbox>/plugin` and puts the binary under test where the shim
/// looks (`$BATON_PREFIX/bin/baton`, the prefix being `<sandbox>/prefix`); returns the folder.
pub fn stage(sandbox: &Sandbox) -> PathBuf {
    let plugin = sandbox.root.join("plugin");
    copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin"), &plugin);
    let bin = sandbox.root.join("prefix/bin");
    fs::create_dir_all(&bin).unwrap();
    crate::common::os::symlink(crate::common::baton_bin(), bin.join("baton"));
    plugin
}

/// `claude` for `sandbox` and `mock` with the staged plugin loaded.
pub fn claude_with_plugin(sandbox: &Sandbox, mock: &Mock, plugin: &Path) -> Command {
    let mut command = claude_command(sandbox, mock);
    command
        .env("BATON_PREFIX", sandbox.root.join("prefix"))
        .arg("--plugin-dir")
        .arg(plugin);
    command
}

/// Runs `claude -p PROMPT` with the plugin loaded and `tools` allowed; panics unless it succeeds.
pub fn run_headless(sandbox: &Sandbox, mock: &Mock, prompt: &str, tools: &str) -> Output {
    let plugin = stage(sandbox);
    let mut command = claude_with_plugin(sandbox, mock, &plugin);
    command.args(["-p", prompt, "--allowedTools", tools, "--model", MODEL]);
    let output = output_within(command, Duration::from_secs(180));
    if !output.status.success() {
        panic!(
            "claude -p with the plugin exited with {}\nstdout: {}\nstderr: {}\nrequests: {:#?}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
            mock.describe(),
        );
    }
    output
}

fn copy_tree(from: &Path, to: &Path) {
    let meta = fs::symlink_metadata(from).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    if meta.is_dir() {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap().flatten() {
            let name = entry.file_name();
            // What the client writes beside a mod it loaded from the checkout is not the plugin's.
            if (name == "types" && from.ends_with(".claude-plugin")) || name == "tsconfig.json" {
                continue;
            }
            copy_tree(&entry.path(), &to.join(name));
        }
    } else {
        fs::copy(from, to).unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
    }
}
