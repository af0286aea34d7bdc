//! `baton install --copy`: baton's own copy at the per-user place (`~/.local/bin/baton`,
//! `%LOCALAPPDATA%\baton\baton.exe`), which the settings then run. What `npx baton-cc install`
//! and `./install.sh` do, so the statusline and hooks run the native binary at a path that
//! stays put (never the npm package's Node launcher, never a versioned cache). An upgrade
//! replaces it while sessions run it (`fsx::replace_program`); `uninstall` removes it.

use std::path::{Path, PathBuf};

use super::identity;
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
    /// The version line of the baton build that was there before (`baton 0.1.0`), read from
    /// its bytes, when it carries one.
    pub previous: Option<String>,
    /// The old copy, renamed aside because it was running (Windows).
    pub aside: Option<PathBuf>,
    /// `--force`: where the file of the user's that was at `path` now is.
    pub kept_as: Option<PathBuf>,
    /// Dry run only: why a real run would stop (a file of the user's is at `path`).
    pub refused: Option<String>,
}

/// baton's copy, ready to be put in place: decided before anything is written, so that the
/// install's manifest can record it first.
pub struct Placement {
    bytes: Vec<u8>,
    /// A file of the user's is at the place and `--force` says to keep it aside.
    set_aside: bool,
    pub placed: Placed,
}

/// The per-user place for baton's copy (`platform::binary::user_binary_path`).
pub fn destination() -> Result<PathBuf> {
    crate::platform::binary::user_binary_path().ok_or_else(|| {
        Error::Failed("cannot find the home directory for baton's copy; set HOME (or BATON_PREFIX)".into())
    })
}

/// Decides how the binary at `source` goes to `dest`: not at all when the same bytes are
/// there (or `source` is `dest`), over a baton build, and over anything else only with
/// `force` (which keeps it aside). What is at `dest` is read, never run. Without `force`, a
/// file of the user's there is an error, or in a `dry_run` the reason in `placed.refused`.
pub fn prepare(source: &Path, dest: &Path, force: bool, dry_run: bool) -> Result<Placement> {
    let mut placement = Placement {
        bytes: Vec::new(),
        set_aside: false,
        placed: Placed {
            path: dest.to_path_buf(),
            changed: false,
            previous: None,
            aside: None,
            kept_as: None,
            refused: None,
        },
    };
    let same_file = match (source.canonicalize(), dest.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same_file && !std::fs::symlink_metadata(dest).is_ok_and(|m| m.file_type().is_symlink()) {
        return Ok(placement);
    }
    placement.bytes = std::fs::read(source).map_err(|e| Error::io(source, e))?;
    match identity::examine(dest).map_err(|e| Error::io(dest, e))? {
        identity::Found::Nothing => {}
        identity::Found::Baton(version) => {
            if std::fs::read(dest).ok().as_deref() == Some(&placement.bytes[..]) {
                return Ok(placement);
            }
            placement.placed.previous = version;
        }
        identity::Found::Other(_) if force => {
            placement.set_aside = true;
            placement.placed.kept_as = Some(backup_name(dest));
        }
        identity::Found::Other(what) => {
            let why = format!(
                "{} is {what}, not baton's, so baton left it as it is. Move it aside if you do not need it \
                 there, or run the install again with --force to keep it as {}.baton-backup-<time> and put \
                 baton in its place (--force also replaces another tool's statusLine; add --no-statusline \
                 to keep that). Nothing was changed.",
                dest.display(),
                dest.file_name().map_or_else(|| "baton".into(), |n| n.to_string_lossy())
            );
            if !dry_run {
                return Err(Error::Failed(why));
            }
            placement.placed.refused = Some(why);
            return Ok(placement);
        }
    }
    placement.placed.changed = true;
    Ok(placement)
}

impl Placement {
    /// Puts the copy in place (a file of the user's first renamed aside, with `--force`).
    pub fn apply(mut self) -> Result<Placed> {
        if !self.placed.changed {
            return Ok(self.placed);
        }
        let dest = self.placed.path.clone();
        let dir = dest.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        if self.set_aside
            && let Some(kept) = &self.placed.kept_as
        {
            std::fs::rename(&dest, kept).map_err(|e| Error::io(&dest, e))?;
        }
        self.placed.aside = fsx::replace_program(&dest, &self.bytes).map_err(|e| Error::io(&dest, e))?;
        Ok(self.placed)
    }
}

/// `<name>.baton-backup-<time>` beside `path`, as settings backups are named.
fn backup_name(path: &Path) -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
    let name = path.file_name().map_or_else(|| "baton".into(), |n| n.to_string_lossy());
    path.with_file_name(format!("{name}.baton-backup-{stamp}"))
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
        "in PowerShell run"
    } else {
        "run"
    };
    Some(format!(
        "Note: {} is not on your PATH, so a terminal does not find `baton` (Claude Code runs it by its full \
         path); to add it, {run}: {line}   (then open a new terminal)",
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
        assert!(hint(Some("/usr/bin/fish")).contains(", run: fish_add_path /opt/tools/bin   (then"));
        assert!(hint(Some("/bin/zsh")).contains(": echo 'export PATH=\"/opt/tools/bin:$PATH\"' >> ~/.zshrc   "));
        assert!(hint(None).contains(">> ~/.profile   ("));
        assert_eq!(hint(None).lines().count(), 1, "one line");
        let windows = path_hint(
            Path::new(r"C:\Users\Jo\AppData\Local\baton"),
            None,
            None,
            Family::Windows,
        )
        .unwrap();
        assert!(windows.contains("in PowerShell run: "), "{windows}");
    }

    #[test]
    fn the_same_bytes_are_not_copied_again() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("source");
        let build = |extra: &str| format!("{}{extra}", "baton install: wire baton into Claude Code\n");
        std::fs::write(&source, build("one")).unwrap();
        let dest = dir.path().join("bin/baton");
        let place = |dry_run| prepare(&source, &dest, false, dry_run).unwrap().apply().unwrap();
        let first = place(false);
        assert!(first.changed && first.previous.is_none());
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), build("one"));
        assert!(!place(false).changed);
        assert!(
            !prepare(&dest, &dest, false, false).unwrap().apply().unwrap().changed,
            "a copy of itself"
        );
        std::fs::write(&source, build("newer")).unwrap();
        assert!(prepare(&source, &dest, false, true).unwrap().placed.changed);
        assert_eq!(
            std::fs::read_to_string(&dest).unwrap(),
            build("one"),
            "a dry run changes nothing"
        );
    }
}
