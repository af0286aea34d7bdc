//! Files, where the systems differ: opening without following a link or blocking on a FIFO,
//! whether a file is this user's own with a single name, modes, positioned reads and writes,
//! the atomic swap of two names (Linux `renameat2(RENAME_EXCHANGE)`, macOS
//! `renameatx_np(RENAME_SWAP)`; Windows has none and callers rename instead), and giving a
//! written temp file its final name while readers have the old file open.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::path::Path;
use std::time::Duration;

use super::Family;

/// How long [`replace`] keeps trying while readers hold the old file (Windows): a reader
/// holds it for the moment of one read, so this is only reached when something else keeps
/// the file open (an editor, a virus scanner), and then the error says so.
const REPLACE_PATIENCE: Duration = Duration::from_secs(2);

/// The longest pause between two tries of [`replace`].
const REPLACE_MAX_PAUSE: Duration = Duration::from_millis(50);

#[cfg(unix)]
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
#[cfg(windows)]
use std::os::windows::fs::OpenOptionsExt;

/// Windows: open a reparse point (symlink, junction) itself instead of what it points to.
#[cfg(windows)]
const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;

/// Opens `path` for reading without blocking on a FIFO or a device (`O_NONBLOCK`; a Windows
/// path cannot name a pipe outside `\\.\pipe\`).
pub fn open_for_read(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    options.custom_flags(libc::O_NONBLOCK);
    options.open(path)
}

/// Opens the file at `path` itself, never what a link there points to: a symlink fails to
/// open on Unix (`O_NOFOLLOW`), and on Windows the link itself is opened, which
/// [`is_sole_own_file`] then refuses. `write` opens it for writing too, without creating it.
pub fn open_no_follow(path: &Path, write: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(write);
    no_follow(&mut options);
    options.open(path)
}

/// Whether [`open_no_follow`] failed because `path` is a symlink (Unix: `ELOOP` from
/// `O_NOFOLLOW`; Windows opens the link itself, so the caller sees it in the metadata).
pub fn is_link_refusal(error: &io::Error) -> bool {
    #[cfg(unix)]
    return error.raw_os_error() == Some(libc::ELOOP);
    #[cfg(windows)]
    {
        let _ = error;
        false
    }
}

/// Opens (creating it `0600` if missing) a lock file, never through a link: a link or a
/// directory planted at `path` is an error.
pub fn open_lock_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    no_follow(&mut options);
    #[cfg(unix)]
    options.mode(0o600);
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", path.display()),
        ));
    }
    Ok(file)
}

fn no_follow(options: &mut OpenOptions) {
    #[cfg(unix)]
    options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    #[cfg(windows)]
    options.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT);
}

/// Whether an open file is a regular file of this user with exactly one name: not a link
/// (or Windows reparse point), not another user's, and not a hard link whose other name a
/// write would reach.
pub fn is_sole_own_file(file: &File, meta: &Metadata) -> bool {
    meta.is_file() && is_owned_by_user(meta) && link_count(file, meta) == Some(1)
}

/// Whether the current user owns the file (Unix: the effective uid; Windows: the per-user
/// temp dir and profile are the user's, and every file there counts as theirs).
pub fn is_owned_by_user(meta: &Metadata) -> bool {
    #[cfg(unix)]
    return meta.uid() == euid();
    #[cfg(windows)]
    {
        let _ = meta;
        true
    }
}

/// Whether only the owner may read or write the file (Unix mode without group and other bits;
/// on Windows the profile's ACLs decide, and this is true).
pub fn is_private_mode(meta: &Metadata) -> bool {
    #[cfg(unix)]
    return meta.mode() & 0o077 == 0;
    #[cfg(windows)]
    {
        let _ = meta;
        true
    }
}

/// The permission bits to keep when a file is replaced (Unix mode; on Windows `0o444` for a
/// read-only file, else `0o644`).
pub fn mode(meta: &Metadata) -> u32 {
    #[cfg(unix)]
    return meta.mode() & 0o777;
    #[cfg(windows)]
    return if meta.permissions().readonly() { 0o444 } else { 0o644 };
}

/// Gives the temp file that will replace a file the old one's permission bits and, where the
/// process may, its owner and group (only root may give a file away; anyone may keep a group
/// they belong to). Windows: nothing to hand on (the folder's ACLs apply to the new file).
pub fn hand_on_owner_and_mode(temp: &File, old: &Metadata) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let now = temp.metadata()?;
        if (now.uid(), now.gid()) != (old.uid(), old.gid()) {
            let _ = std::os::unix::fs::fchown(temp, Some(old.uid()), Some(old.gid()))
                .or_else(|_| std::os::unix::fs::fchown(temp, None, Some(old.gid())));
        }
        temp.set_permissions(std::fs::Permissions::from_mode(old.mode() & 0o777))
    }
    #[cfg(windows)]
    {
        let _ = (temp, old);
        Ok(())
    }
}

/// Opens `path` for appending (created `0644` when missing), never through a link.
pub fn open_append_no_follow(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    no_follow(&mut options);
    #[cfg(unix)]
    options.mode(0o644);
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", path.display()),
        ));
    }
    Ok(file)
}

/// Sets the mode a temp file is created with (Unix); Windows files have no mode.
pub fn set_create_mode(builder: &mut tempfile::Builder, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    #[cfg(windows)]
    let _ = (builder, mode);
}

/// How many names the file has.
fn link_count(file: &File, meta: &Metadata) -> Option<u64> {
    #[cfg(unix)]
    {
        let _ = file;
        Some(meta.nlink())
    }
    #[cfg(windows)]
    {
        let _ = meta;
        file_information(file).map(|info| u64::from(info.nNumberOfLinks))
    }
}

/// Whether an open file has exactly one name: a hard link's other name would see every write.
pub fn has_one_name(file: &File, meta: &Metadata) -> bool {
    link_count(file, meta) == Some(1)
}

/// Whether `path` still names the open `file` (same device and inode; on Windows, same volume
/// and file index). A lock taken on a file that another process unlinked or replaced after
/// this one opened it guards nothing: whoever opens the path now gets another file.
pub fn names_file(path: &Path, file: &File) -> bool {
    #[cfg(unix)]
    {
        let (Ok(open), Ok(named)) = (file.metadata(), std::fs::symlink_metadata(path)) else {
            return false;
        };
        open.dev() == named.dev() && open.ino() == named.ino()
    }
    #[cfg(windows)]
    {
        let mut options = OpenOptions::new();
        options.access_mode(0);
        no_follow(&mut options);
        let Ok(named) = options.open(path) else {
            return false;
        };
        matches!((file_id(file), file_id(&named)), (Some(a), Some(b)) if a == b)
    }
}

/// The volume serial number and file index of an open file.
#[cfg(windows)]
fn file_id(file: &File) -> Option<(u32, u32, u32)> {
    file_information(file).map(|info| (info.dwVolumeSerialNumber, info.nFileIndexHigh, info.nFileIndexLow))
}

/// What `GetFileInformationByHandle` says of an open file (its link count, volume, index).
#[cfg(windows)]
fn file_information(file: &File) -> Option<windows_sys::Win32::Storage::FileSystem::BY_HANDLE_FILE_INFORMATION> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::{BY_HANDLE_FILE_INFORMATION, GetFileInformationByHandle};
    // SAFETY: an all-zero BY_HANDLE_FILE_INFORMATION is a valid value to be overwritten.
    let mut info: BY_HANDLE_FILE_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: the handle is open for the life of `file`; `info` is writable.
    let ok = unsafe { GetFileInformationByHandle(file.as_raw_handle(), &mut info) };
    (ok != 0).then_some(info)
}

/// The effective user id.
#[cfg(unix)]
pub fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Swaps the names `new` and `path` in one step, so `path` holds the new file and `new` the
/// old one. `false` when the system or file system cannot (then the caller renames).
pub fn exchange(new: &Path, path: &Path) -> bool {
    #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
    {
        use std::os::unix::ffi::OsStrExt;
        let (Ok(from), Ok(to)) = (
            std::ffi::CString::new(new.as_os_str().as_bytes()),
            std::ffi::CString::new(path.as_os_str().as_bytes()),
        ) else {
            return false;
        };
        // The system call itself: musl's libc (the static build) has no renameat2 wrapper.
        // SAFETY: both are valid NUL-terminated paths; the call only reads them.
        #[cfg(any(target_os = "linux", target_os = "android"))]
        let swapped = unsafe {
            libc::syscall(
                libc::SYS_renameat2,
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        // SAFETY: as above.
        #[cfg(target_vendor = "apple")]
        let swapped = unsafe {
            libc::renameatx_np(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::RENAME_SWAP,
            )
        };
        swapped == 0
    }
    #[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
    {
        let _ = (new, path);
        false
    }
}

/// Gives the written temp file the name `path`, replacing the file there atomically: a reader
/// sees the old file or the new one. Unix: one `rename`. Windows: std's rename, which on
/// Windows 10 and later (NTFS) replaces a file that readers have open as Unix does, since
/// baton and Node open files sharing their deletion; where the system cannot (older Windows,
/// FAT and network drives, Wine), the replace fails with "access denied" or a sharing
/// violation while a reader has the old file open, and is tried again after a pause that
/// doubles, for up to [`REPLACE_PATIENCE`].
pub fn replace(temp: tempfile::NamedTempFile, path: &Path) -> io::Result<()> {
    // Kept, the temp file loses the "temporary" attribute Windows gives it and is no longer
    // removed when dropped: from here on it is removed below if it cannot take the name.
    let (file, temp) = temp.keep().map_err(|e| e.error)?;
    drop(file);
    let renamed = retry_while_shared(
        || std::fs::rename(&temp, path),
        // Only a file can be held open by a reader: a directory at the name is refused at once.
        |e| is_sharing_conflict(Family::CURRENT, e) && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()),
        std::thread::sleep,
    );
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    renamed.map_err(|e| match is_sharing_conflict(Family::CURRENT, &e) {
        true => io::Error::new(
            e.kind(),
            HeldOpen {
                error: e,
                path: path.display().to_string(),
            },
        ),
        false => e,
    })
}

/// A replace refused while another program kept the file open: says so and what to do, and
/// keeps the system's error code for [`os_code`].
#[derive(Debug)]
struct HeldOpen {
    error: io::Error,
    path: String,
}

impl std::fmt::Display for HeldOpen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: another program keeps {} open; close it and try again",
            self.error, self.path
        )
    }
}

impl std::error::Error for HeldOpen {}

/// The system's error code of `error`, also when [`replace`] has said who holds the file.
pub fn os_code(error: &io::Error) -> Option<i32> {
    error.raw_os_error().or_else(|| {
        error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<HeldOpen>())
            .and_then(|held| held.error.raw_os_error())
    })
}

/// Runs `attempt` until it succeeds, fails with an error `shared` does not take for a reader
/// in the way, or [`REPLACE_PATIENCE`] has gone by in pauses (1 ms, doubling, at most
/// [`REPLACE_MAX_PAUSE`]) given to `pause`.
fn retry_while_shared(
    mut attempt: impl FnMut() -> io::Result<()>,
    shared: impl Fn(&io::Error) -> bool,
    mut pause: impl FnMut(Duration),
) -> io::Result<()> {
    let (mut waited, mut next) = (Duration::ZERO, Duration::from_millis(1));
    loop {
        match attempt() {
            Err(e) if shared(&e) && waited < REPLACE_PATIENCE => {
                pause(next);
                waited += next;
                next = (next * 2).min(REPLACE_MAX_PAUSE);
            }
            done => return done,
        }
    }
}

/// Whether `error` is Windows refusing to replace a file that another process has open:
/// `ERROR_ACCESS_DENIED` (5), `ERROR_SHARING_VIOLATION` (32), `ERROR_LOCK_VIOLATION` (33).
/// Never on Unix, where a rename does not care who has the file open.
fn is_sharing_conflict(family: Family, error: &io::Error) -> bool {
    family == Family::Windows && matches!(error.raw_os_error(), Some(5 | 32 | 33))
}

/// Reads exactly `buf.len()` bytes at `offset`.
pub fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::FileExt::read_exact_at(file, buf, offset);
    #[cfg(windows)]
    {
        use std::os::windows::fs::FileExt;
        let (mut done, mut at) = (0, offset);
        while done < buf.len() {
            match file.seek_read(&mut buf[done..], at)? {
                0 => return Err(io::ErrorKind::UnexpectedEof.into()),
                n => (done, at) = (done + n, at + n as u64),
            }
        }
        Ok(())
    }
}

/// Writes all of `buf` at `offset`.
pub fn write_all_at(file: &File, buf: &[u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::FileExt::write_all_at(file, buf, offset);
    #[cfg(windows)]
    {
        use std::os::windows::fs::FileExt;
        let (mut done, mut at) = (0, offset);
        while done < buf.len() {
            match file.seek_write(&buf[done..], at)? {
                0 => return Err(io::ErrorKind::WriteZero.into()),
                n => (done, at) = (done + n, at + n as u64),
            }
        }
        Ok(())
    }
}

/// Creates a symlink to a file (tests plant them; Windows needs developer mode for it).
#[cfg(test)]
pub fn symlink_file(target: &Path, link: &Path) -> io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::symlink(target, link);
    #[cfg(windows)]
    return std::os::windows::fs::symlink_file(target, link);
}

/// Creates a symlink to a directory (tests plant them).
#[cfg(test)]
pub fn symlink_dir(target: &Path, link: &Path) -> io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::symlink(target, link);
    #[cfg(windows)]
    return std::os::windows::fs::symlink_dir(target, link);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hard_link_or_a_symlink_is_not_a_sole_own_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let open = |p: &Path| {
            let f = open_no_follow(p, false).unwrap();
            let m = f.metadata().unwrap();
            is_sole_own_file(&f, &m)
        };
        assert!(open(&file));
        std::fs::hard_link(&file, dir.path().join("second-name")).unwrap();
        assert!(!open(&file), "two names");
        let link = dir.path().join("link");
        symlink_file(&dir.path().join("second-name"), &link).unwrap();
        if let Ok(f) = open_no_follow(&link, false) {
            let m = f.metadata().unwrap();
            assert!(!is_sole_own_file(&f, &m), "a link is never a sole own file");
        }
    }

    #[test]
    fn exchange_swaps_two_names_where_the_system_can() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::write(&a, "new").unwrap();
        std::fs::write(&b, "old").unwrap();
        if exchange(&a, &b) {
            assert_eq!(std::fs::read_to_string(&b).unwrap(), "new");
            assert_eq!(std::fs::read_to_string(&a).unwrap(), "old");
        }
        assert!(!exchange(&dir.path().join("missing"), &b));
    }

    #[test]
    fn a_held_file_s_error_says_who_holds_it_and_keeps_the_system_code() {
        let held = io::Error::new(
            io::ErrorKind::PermissionDenied,
            HeldOpen {
                error: io::Error::from_raw_os_error(5),
                path: "C:/Users/Jo/.local/bin/baton.exe".into(),
            },
        );
        assert!(
            held.to_string()
                .ends_with(": another program keeps C:/Users/Jo/.local/bin/baton.exe open; close it and try again")
        );
        assert_eq!(os_code(&held), Some(5));
        // So `install` still moves a running program aside when the replace gave up on it.
        assert!(crate::platform::binary::is_running_program_refusal_on(
            Family::Windows,
            &held
        ));
        assert_eq!(os_code(&io::Error::other("no code")), None);
    }

    #[test]
    fn a_replace_on_windows_waits_out_readers_and_gives_up_in_time() {
        let windows = |e: &io::Error| is_sharing_conflict(Family::Windows, e);
        let mut failures = 5;
        let mut paused = Vec::new();
        let done = retry_while_shared(
            || match failures {
                0 => Ok(()),
                _ => {
                    failures -= 1;
                    Err(io::Error::from_raw_os_error(32))
                }
            },
            windows,
            |d| paused.push(d.as_millis()),
        );
        assert!(done.is_ok());
        assert_eq!(paused, [1, 2, 4, 8, 16], "five pauses, each twice the last");

        let mut waited = Duration::ZERO;
        let held = retry_while_shared(|| Err(io::Error::from_raw_os_error(5)), windows, |d| waited += d);
        assert_eq!(held.unwrap_err().raw_os_error(), Some(5));
        assert!(
            waited >= REPLACE_PATIENCE && waited <= REPLACE_PATIENCE + REPLACE_MAX_PAUSE,
            "{waited:?}"
        );

        // Anything else is final at once: a missing file on Windows, and every error on Unix,
        // where a rename does not care who has the file open.
        let cases: [(fn() -> io::Error, Family); 2] = [
            (|| io::ErrorKind::NotFound.into(), Family::Windows),
            (|| io::Error::from_raw_os_error(32), Family::Unix),
        ];
        for (error, family) in cases {
            let mut tries = 0;
            let failed = retry_while_shared(
                || {
                    tries += 1;
                    Err(error())
                },
                |e| is_sharing_conflict(family, e),
                |_| {},
            );
            assert!(failed.is_err() && tries == 1, "{family:?}: {}", error());
        }
    }

    #[test]
    fn a_replace_lands_while_a_reader_has_the_old_file_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("context.json");
        std::fs::write(&path, "old").unwrap();
        // A reader of the old file, as another process is, done with it after a moment.
        let reader = File::open(&path).unwrap();
        let closing = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            drop(reader);
        });
        let mut temp = tempfile::NamedTempFile::new_in(dir.path()).unwrap();
        std::io::Write::write_all(&mut temp, b"new").unwrap();
        replace(temp, &path).unwrap();
        closing.join().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temp file left");

        // A directory at the name is no reader to wait for: refused at once.
        let taken = dir.path().join("taken");
        std::fs::create_dir(&taken).unwrap();
        std::fs::write(taken.join("inside"), "x").unwrap();
        let temp = tempfile::NamedTempFile::new_in(dir.path()).unwrap();
        let started = std::time::Instant::now();
        assert!(replace(temp, &taken).is_err());
        assert!(started.elapsed() < REPLACE_PATIENCE, "{:?}", started.elapsed());
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            2,
            "the temp file is removed"
        );
    }

    #[test]
    fn positioned_reads_and_writes() {
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, b"0123456789").unwrap();
        write_all_at(&file, b"ab", 3).unwrap();
        let mut buf = [0; 4];
        read_exact_at(&file, &mut buf, 2).unwrap();
        assert_eq!(&buf, b"2ab5");
        assert!(read_exact_at(&file, &mut buf, 8).is_err());
    }
}
