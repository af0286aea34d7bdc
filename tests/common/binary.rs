//! The binary under test and how it is run: `$BATON_TEST_BIN` when set (CI runs the suite
//! once more against the static musl build, and once against the Windows build under Wine),
//! else the one cargo built for this test run. A Windows build on a Unix host runs through
//! `tests/windows/run.sh`, which hands it the sandbox in the form Windows reads.

use std::path::Path;
use std::process::Command;

/// The path of the binary under test.
pub fn baton_bin() -> &'static str {
    static BIN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BIN.get_or_init(|| match std::env::var("BATON_TEST_BIN") {
        Ok(path) if !path.is_empty() => path,
        _ => env!("CARGO_BIN_EXE_baton").to_owned(),
    })
}

/// Whether the binary under test is a Windows build (a PE file: it starts with `MZ`).
pub fn is_windows() -> bool {
    static WINDOWS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WINDOWS.get_or_init(|| is_windows_binary(Path::new(baton_bin())))
}

/// Whether the binary under test runs under Wine (a Windows build on a Unix host).
pub fn under_wine() -> bool {
    is_windows() && cfg!(unix)
}

fn is_windows_binary(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && &magic == b"MZ"
}

/// A command that runs `binary` (the binary under test, or a copy of it), through Wine when
/// it is a Windows build on a Unix host.
pub fn command(binary: impl AsRef<Path>) -> Command {
    let binary = binary.as_ref();
    if cfg!(unix) && is_windows_binary(binary) {
        let mut cmd = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/windows/run.sh"));
        cmd.arg(binary);
        cmd
    } else {
        Command::new(binary)
    }
}

/// The file name the binary has when installed: `baton.exe` for a Windows build.
pub fn file_name() -> &'static str {
    if is_windows() { "baton.exe" } else { "baton" }
}

/// `path` as the binary under test spells it, in a payload or in what it prints: unchanged
/// for a Unix build; under Wine the Windows path Wine maps it to (`/tmp/x` is `Z:\tmp\x`).
pub fn native(path: impl AsRef<Path>) -> String {
    let shown = path.as_ref().to_string_lossy().into_owned();
    if under_wine() && shown.starts_with('/') {
        format!("Z:{}", shown.replace('/', "\\"))
    } else {
        shown
    }
}

/// The path the binary under test printed, as this test process opens it: unchanged for a
/// Unix build; under Wine a `Z:\…` path is the Unix path it stands for.
pub fn host_path(printed: &str) -> std::path::PathBuf {
    match printed.strip_prefix("Z:") {
        Some(rest) if under_wine() => rest.replace('\\', "/").into(),
        _ => printed.into(),
    }
}

/// The program word `baton install` writes into settings.json and the slash commands for the
/// binary at `path`: its path as the binary spells it, with `/` for a Windows build (Git Bash
/// reads `\` as an escape). Sandbox paths need no quoting.
pub fn wired(path: impl AsRef<Path>) -> String {
    let shown = native(path);
    if is_windows() { shown.replace('\\', "/") } else { shown }
}
