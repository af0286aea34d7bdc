//! `baton install --copy`: baton's own copy at the per-user place (`~/.local/bin/baton`,
//! `%LOCALAPPDATA%\baton\baton.exe`), which the settings then run. What `npx baton-cc install`
//! and `./install.sh` do, so the statusline and hooks run the native binary at a path that
//! stays put (never the npm package's Node launcher, never a versioned cache). An upgrade
//! replaces it while sessions run it (`fsx::replace_program`); `uninstall` removes it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::{Error, Result};
use crate::fsx;
use crate::platform::Family;

/// What placing the copy did (or, in a dry run, would do).
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// Where the copy is.
    pub path: PathBuf,
    /// The copy there was replaced (or put there for the first time).
    pub changed: bool,
    /// `baton --version` of the copy that was there before, when one was and it answered.
    pub previous: Option<String>,
    /// The old copy, renamed aside because it was running (Windows).
    pub aside: Option<PathBuf>,
}

/// The per-user place for baton's copy (`platform::binary::user_binary_path`).
pub fn destination() -> Result<PathBuf> {
    crate::platform::binary::user_binary_path().ok_or_else(|| {
        Error::Failed("cannot find the home directory for baton's copy; set HOME (or BATON_PREFIX)".into())
    })
}

/// Copies the binary at `source` to `dest`, unless the same bytes are there already (or
/// `source` is `dest`). `dry_run` only says whether it would.
pub fn place(source: &Path, dest: &Path, dry_run: bool) -> Result<Placed> {
    let mut placed = Placed {
        path: dest.to_path_buf(),
        changed: false,
        previous: None,
        aside: None,
    };
    let same_file = match (source.canonicalize(), dest.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same_file {
        return Ok(placed);
    }
    let bytes = std::fs::read(source).map_err(|e| Error::io(source, e))?;
    let existing = std::fs::read(dest).ok();
    if existing.as_deref() == Some(&bytes[..]) {
        return Ok(placed);
    }
    placed.changed = true;
    if existing.is_some() {
        placed.previous = version_of(dest);
    }
    if dry_run {
        return Ok(placed);
    }
    let dir = dest.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    placed.aside = fsx::replace_program(dest, &bytes).map_err(|e| Error::io(dest, e))?;
    Ok(placed)
}

/// What `path --version` says (`baton 0.1.0`), if it runs and answers.
fn version_of(path: &Path) -> Option<String> {
    let out = Command::new(path)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let line = text.lines().next()?.trim();
    (out.status.success() && line.starts_with("baton ")).then(|| line.to_owned())
}

/// What to tell the user when `bin_dir` is not on `PATH` (slash commands and settings use the
/// absolute path; a terminal needs the directory on `PATH` to type `baton`): the line that puts
/// it there for their shell. `None` when it is on `PATH`.
pub fn path_hint(
    bin_dir: &Path,
    path_var: Option<&std::ffi::OsStr>,
    shell: Option<&str>,
    family: Family,
) -> Option<String> {
    if path_var.is_some_and(|p| std::env::split_paths(p).any(|d| d == bin_dir)) {
        return None;
    }
    let line = crate::platform::binary::path_line(bin_dir, shell, family, dirs::home_dir().as_deref());
    let run = if family == Family::Windows {
        "In PowerShell, run"
    } else {
        "Run"
    };
    Some(format!(
        "Note: {} is not on your PATH; Claude Code runs baton by its full path, but to type `baton` in a \
         terminal it must be. {run}:\n  {line}\nthen open a new terminal.",
        bin_dir.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_hint_names_the_users_shell_and_is_silent_when_on_path() {
        let dir = Path::new("/opt/tools/bin");
        let on_path = std::ffi::OsString::from("/usr/bin:/opt/tools/bin");
        assert_eq!(path_hint(dir, Some(&on_path), Some("/bin/zsh"), Family::Unix), None);
        let off = std::ffi::OsString::from("/usr/bin");
        let hint = |shell| path_hint(dir, Some(&off), shell, Family::Unix).unwrap();
        assert!(hint(Some("/usr/bin/fish")).contains("\n  fish_add_path /opt/tools/bin\n"));
        assert!(hint(Some("/bin/zsh")).contains("\n  echo 'export PATH=\"/opt/tools/bin:$PATH\"' >> ~/.zshrc\n"));
        assert!(hint(None).contains(">> ~/.profile\n"));
        let windows = path_hint(
            Path::new(r"C:\Users\Jo\AppData\Local\baton"),
            None,
            None,
            Family::Windows,
        )
        .unwrap();
        assert!(windows.contains("In PowerShell, run:"), "{windows}");
    }

    #[test]
    fn the_same_bytes_are_not_copied_again() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("source");
        std::fs::write(&source, b"binary").unwrap();
        let dest = dir.path().join("bin/baton");
        let first = place(&source, &dest, false).unwrap();
        assert!(first.changed && first.previous.is_none());
        assert_eq!(std::fs::read(&dest).unwrap(), b"binary");
        assert!(!place(&source, &dest, false).unwrap().changed);
        assert!(!place(&dest, &dest, false).unwrap().changed, "a copy of itself");
        std::fs::write(&source, b"newer").unwrap();
        assert!(place(&source, &dest, true).unwrap().changed);
        assert_eq!(std::fs::read(&dest).unwrap(), b"binary", "a dry run changes nothing");
    }
}
