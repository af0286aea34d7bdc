//! The temp dir, chosen the way Node's `os.tmpdir()` chooses it (GSD's hooks are Node
//! scripts: baton and GSD must find each other's bridge files), and baton's private
//! directory in it, which only the user can write, for lock files.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::Family;

/// How many names [`private_dir`] tries before it gives up (`baton-<uid>`, `baton-<uid>-1`, …).
const PRIVATE_DIR_CANDIDATES: usize = 8;

/// The temp dir for per-session files, as Node's `os.tmpdir()` picks it for this system.
pub fn temp_dir() -> PathBuf {
    temp_dir_for(Family::CURRENT, |name| std::env::var_os(name))
}

/// The temp dir on `family` given its environment. Unix: `TMPDIR`, `TMP`, `TEMP`, else `/tmp`
/// (macOS sets a per-user `TMPDIR` under `/var/folders/`). Windows: `TEMP`, `TMP`,
/// `%SystemRoot%\temp`, `%windir%\temp`, else the profile's `AppData\Local\Temp`. Empty and
/// relative values are skipped (Node would use a relative one against each process's own
/// working directory, where no two hooks would meet).
pub fn temp_dir_for(family: Family, env: impl Fn(&str) -> Option<OsString>) -> PathBuf {
    let absolute = |value: OsString| is_absolute(family, &value).then(|| PathBuf::from(value));
    let var = |name: &&str| env(name).and_then(absolute);
    let named = temp_dir_vars(family).iter().find_map(var);
    match family {
        Family::Unix => named.unwrap_or_else(|| PathBuf::from("/tmp")),
        Family::Windows => {
            let under = |name: &str, rest: &str| {
                let mut dir = env(name)?;
                dir.push(rest);
                absolute(dir)
            };
            named
                .or_else(|| under("SystemRoot", "\\temp"))
                .or_else(|| under("windir", "\\temp"))
                .or_else(|| under("USERPROFILE", "\\AppData\\Local\\Temp"))
                .unwrap_or_else(|| PathBuf::from("C:\\Windows\\Temp"))
        }
    }
}

/// The variables that name the temp dir on `family`, first the one read first: what a child
/// process is given to write its temp files elsewhere (`baton doctor`'s probes).
pub fn temp_dir_vars(family: Family) -> &'static [&'static str] {
    match family {
        Family::Unix => &["TMPDIR", "TMP", "TEMP"],
        Family::Windows => &["TEMP", "TMP"],
    }
}

/// Whether `value` is an absolute path on `family` (tested on the text, so that both rules
/// run anywhere): `/…` on Unix; `C:\…`, `C:/…` or `\\server\…` on Windows.
pub(super) fn is_absolute(family: Family, value: &std::ffi::OsStr) -> bool {
    let bytes = value.as_encoded_bytes();
    match family {
        Family::Unix => bytes.first() == Some(&b'/'),
        Family::Windows => match bytes {
            [drive, b':', b'\\' | b'/', ..] => drive.is_ascii_alphabetic(),
            [b'\\', b'\\', ..] => true,
            _ => false,
        },
    }
}

/// baton's own directory in the temp dir, which only the current user can write: lock files
/// live there, so no other user can plant a file, link or directory at a lock's name.
/// `baton-<uid>` on Unix (created `0700`; an existing one must be this user's directory, and
/// is made `0700` again), `baton` on Windows (the temp dir is per user). When the name is
/// taken by something else (another user's directory, a file, a link), the next of a few
/// fixed names is used, so every baton process of this user still meets in the same place.
pub fn private_dir() -> io::Result<PathBuf> {
    private_dir_in(&temp_dir())
}

/// [`private_dir`] when it has its first name (`baton-<uid>` on Unix, `baton` on Windows, in
/// the temp dir) and that is already a directory of this user's: one `lstat`, nothing created
/// or changed, for a quick look that a file of baton's is absent. `None` otherwise (not made
/// yet, or the name taken by another user, a file or a link): ask [`private_dir`].
pub fn usual_private_dir() -> Option<PathBuf> {
    let dir = temp_dir().join(private_dir_stem());
    let meta = fs::symlink_metadata(&dir).ok()?;
    if meta.file_type().is_symlink() || !meta.is_dir() {
        return None;
    }
    #[cfg(unix)]
    if std::os::unix::fs::MetadataExt::uid(&meta) != super::fs::euid() {
        return None;
    }
    Some(dir)
}

/// [`private_dir`] below `base`.
pub fn private_dir_in(base: &Path) -> io::Result<PathBuf> {
    let stem = private_dir_stem();
    let mut taken = Vec::new();
    for n in 0..PRIVATE_DIR_CANDIDATES {
        let dir = match n {
            0 => base.join(&stem),
            n => base.join(format!("{stem}-{n}")),
        };
        match create_private_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("cannot create {}: {e}", dir.display()),
                ));
            }
        }
        let meta = fs::symlink_metadata(&dir)?;
        match why_not_private(&dir, &meta) {
            None => return Ok(dir),
            Some(why) => taken.push(why),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "no private directory for baton's lock files in {}: {}. Remove them, or set TMPDIR to a \
             directory of your own",
            base.display(),
            taken.join("; ")
        ),
    ))
}

/// `baton-<uid>` (Unix) or `baton` (Windows).
fn private_dir_stem() -> String {
    #[cfg(unix)]
    return format!("baton-{}", super::fs::euid());
    #[cfg(windows)]
    return "baton".to_owned();
}

fn create_private_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::DirBuilderExt::mode(&mut fs::DirBuilder::new(), 0o700).create(dir);
    #[cfg(windows)]
    return fs::create_dir(dir);
}

/// Why an existing `dir` cannot be baton's private directory; `None` when it can (a group-
/// or world-accessible directory of the user's own is made private first).
fn why_not_private(dir: &Path, meta: &fs::Metadata) -> Option<String> {
    let shown = dir.display();
    if meta.file_type().is_symlink() {
        return Some(format!("{shown} is a link"));
    }
    if !meta.is_dir() {
        return Some(format!("{shown} is a file, not a directory"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        if meta.uid() != super::fs::euid() {
            return Some(format!("{shown} belongs to another user (uid {})", meta.uid()));
        }
        if meta.mode() & 0o077 != 0 && fs::set_permissions(dir, fs::Permissions::from_mode(0o700)).is_err() {
            return Some(format!("{shown} is open to other users and cannot be made private"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let pairs: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |name| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn unix_temp_dir_follows_node() {
        let dir = |pairs: &[(&str, &str)]| temp_dir_for(Family::Unix, env(pairs));
        let macos = "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/";
        assert_eq!(dir(&[("TMPDIR", macos), ("TMP", "/b")]), PathBuf::from(macos));
        assert_eq!(dir(&[("TMPDIR", ""), ("TMP", "/b")]), PathBuf::from("/b"));
        assert_eq!(dir(&[("TEMP", "/c")]), PathBuf::from("/c"));
        assert_eq!(dir(&[("TMPDIR", "relative"), ("TEMP", "/c")]), PathBuf::from("/c"));
        assert_eq!(dir(&[]), PathBuf::from("/tmp"));
    }

    #[test]
    fn windows_temp_dir_follows_node() {
        let dir = |pairs: &[(&str, &str)]| temp_dir_for(Family::Windows, env(pairs));
        let user_temp = r"C:\Users\Jane Doe\AppData\Local\Temp";
        assert_eq!(dir(&[("TEMP", user_temp), ("TMP", r"D:\t")]), PathBuf::from(user_temp));
        assert_eq!(dir(&[("TMP", "D:/t")]), PathBuf::from("D:/t"));
        assert_eq!(
            dir(&[("TEMP", "t"), ("SystemRoot", r"C:\Windows")]),
            PathBuf::from(r"C:\Windows\temp")
        );
        assert_eq!(dir(&[("windir", r"C:\WINDOWS")]), PathBuf::from(r"C:\WINDOWS\temp"));
        assert_eq!(
            dir(&[("USERPROFILE", r"C:\Users\jo")]),
            PathBuf::from(r"C:\Users\jo\AppData\Local\Temp")
        );
        assert_eq!(
            dir(&[("TEMP", r"\\server\share\tmp")]),
            PathBuf::from(r"\\server\share\tmp")
        );
        // A Unix path is not absolute on Windows, nor a drive path on Unix.
        assert_eq!(dir(&[("TEMP", "/tmp")]), PathBuf::from(r"C:\Windows\Temp"));
        assert_eq!(
            temp_dir_for(Family::Unix, env(&[("TMPDIR", r"C:\t")])),
            PathBuf::from("/tmp")
        );
    }

    #[test]
    fn each_temp_dir_variable_given_to_a_child_is_one_it_reads() {
        for family in [Family::Unix, Family::Windows] {
            let dir = match family {
                Family::Unix => "/scratch/tmp",
                Family::Windows => r"C:\scratch\tmp",
            };
            for var in temp_dir_vars(family) {
                let only = |name: &str| (name == *var).then(|| OsString::from(dir));
                assert_eq!(temp_dir_for(family, only), PathBuf::from(dir), "{family:?} {var}");
            }
        }
        assert_eq!(
            temp_dir_vars(Family::Windows),
            ["TEMP", "TMP"],
            "TMPDIR means nothing on Windows"
        );
    }

    #[test]
    fn the_private_dir_is_created_once_and_reused() {
        let base = tempfile::tempdir().unwrap();
        let first = private_dir_in(base.path()).unwrap();
        assert_eq!(private_dir_in(base.path()).unwrap(), first);
        assert!(first.is_dir());
    }

    #[test]
    fn a_file_or_link_at_the_private_dir_name_is_skipped_for_the_next_name() {
        let base = tempfile::tempdir().unwrap();
        let stem = private_dir_stem();
        fs::write(base.path().join(&stem), "planted").unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(elsewhere.path(), base.path().join(format!("{stem}-1"))).unwrap();
        let dir = private_dir_in(base.path()).unwrap();
        assert!(dir.is_dir() && !dir.is_symlink());
        assert!(
            dir.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("{stem}-"))
        );
        assert_eq!(
            fs::read_dir(elsewhere.path()).unwrap().count(),
            0,
            "nothing made through the link"
        );
        for n in 0..PRIVATE_DIR_CANDIDATES {
            let name = if n == 0 { stem.clone() } else { format!("{stem}-{n}") };
            let path = base.path().join(name);
            if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
                fs::remove_dir(&path).unwrap();
            }
            if fs::symlink_metadata(&path).is_err() {
                fs::write(&path, "planted").unwrap();
            }
        }
        let err = private_dir_in(base.path()).unwrap_err().to_string();
        assert!(
            err.contains("is a file, not a directory") && err.contains("TMPDIR"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_open_private_dir_of_the_user_is_made_private_again() {
        use std::os::unix::fs::PermissionsExt;
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join(private_dir_stem());
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(private_dir_in(base.path()).unwrap(), dir);
        assert_eq!(fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
    }
}
