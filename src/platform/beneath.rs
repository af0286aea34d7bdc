//! Opening a file by its path below a directory without following a link anywhere on the
//! way: a committed `root -> /` symlink must not let `root/etc/passwd` be read. `O_NOFOLLOW`
//! guards only the last part of a path, so each system does it its own way: Linux with one
//! `openat2` (`RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`), macOS with `O_NOFOLLOW_ANY`, other
//! Unix systems (and those where the call is refused) one `openat` per part of the path,
//! Windows by refusing a path any part of which is a link or junction. Every open is for
//! reading, never blocks on a FIFO, and refuses `..` and absolute parts.

use std::fs::File;
use std::io;
use std::path::Path;
#[cfg(windows)]
use std::path::PathBuf;

#[cfg(unix)]
use std::os::fd::{AsRawFd, OwnedFd};

/// A directory files are opened below.
#[derive(Debug)]
pub struct Root {
    #[cfg(unix)]
    fd: OwnedFd,
    #[cfg(windows)]
    path: PathBuf,
}

/// Whether an error of [`Root::open_file`] says a link was met (and not followed).
pub fn is_link_met(error: &io::Error) -> bool {
    #[cfg(unix)]
    return matches!(error.raw_os_error(), Some(libc::ELOOP | libc::EXDEV));
    #[cfg(windows)]
    return error.get_ref().is_some_and(|inner| inner.to_string() == LINK_MET);
}

#[cfg(windows)]
const LINK_MET: &str = "a link on the way, not followed";

impl Root {
    /// Opens the directory at `path` (a link in `path` itself is followed: it is the top).
    pub fn open(path: &Path) -> io::Result<Root> {
        #[cfg(unix)]
        {
            let dir = std::fs::File::open(path)?;
            if !dir.metadata()?.is_dir() {
                return Err(io::Error::new(io::ErrorKind::NotADirectory, "not a directory"));
            }
            Ok(Root { fd: dir.into() })
        }
        #[cfg(windows)]
        {
            if !std::fs::metadata(path)?.is_dir() {
                return Err(io::Error::new(io::ErrorKind::NotADirectory, "not a directory"));
            }
            Ok(Root {
                path: path.to_path_buf(),
            })
        }
    }

    /// Opens `relative` (parts separated by `/`) below the root for reading, following no
    /// link in any part; a link met is an error [`is_link_met`] recognises.
    pub fn open_file(&self, relative: &str) -> io::Result<File> {
        let parts: Vec<&str> = relative.split('/').collect();
        if parts.iter().any(|p| p.is_empty() || *p == "." || *p == "..") {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a plain relative path"));
        }
        #[cfg(unix)]
        return unix::open(self.fd.as_raw_fd(), relative, &parts);
        #[cfg(windows)]
        {
            let mut path = self.path.clone();
            for part in &parts[..parts.len() - 1] {
                path.push(part);
                if std::fs::symlink_metadata(&path)?.file_type().is_symlink() {
                    return Err(io::Error::other(LINK_MET));
                }
            }
            path.push(parts[parts.len() - 1]);
            super::fs::open_no_follow(&path, false)
        }
    }
}

#[cfg(unix)]
mod unix {
    use std::ffi::CString;
    use std::fs::File;
    use std::io;
    use std::os::fd::{FromRawFd, OwnedFd, RawFd};

    const FLAGS: libc::c_int = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOFOLLOW;

    fn c_path(text: &str) -> io::Result<CString> {
        CString::new(text).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path holding a NUL byte"))
    }

    fn owned(fd: libc::c_int) -> io::Result<OwnedFd> {
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a descriptor the kernel just returned is ours to own.
        Ok(unsafe { OwnedFd::from_raw_fd(fd) })
    }

    pub fn open(root: RawFd, relative: &str, parts: &[&str]) -> io::Result<File> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if let Some(opened) = linux::openat2(root, relative) {
            return opened;
        }
        #[cfg(target_os = "macos")]
        if let Some(opened) = macos::open_nofollow_any(root, relative) {
            return opened;
        }
        let _ = relative;
        part_by_part(root, parts)
    }

    /// Linux says "not a directory" for a link opened with `O_DIRECTORY | O_NOFOLLOW`: told
    /// apart from a plain file there, a link is reported as the loop error other systems give.
    fn link_as_loop(at: RawFd, name: &std::ffi::CStr, error: io::Error) -> io::Error {
        if error.raw_os_error() != Some(libc::ENOTDIR) {
            return error;
        }
        // SAFETY: `stat` is plain data fstatat fills in; `name` is NUL-terminated.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        let found = unsafe { libc::fstatat(at, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) } == 0;
        if found && (st.st_mode & libc::S_IFMT) == libc::S_IFLNK {
            io::Error::from_raw_os_error(libc::ELOOP)
        } else {
            error
        }
    }

    #[cfg(test)]
    pub fn part_by_part_for_tests(root: RawFd, parts: &[&str]) -> io::Result<File> {
        part_by_part(root, parts)
    }

    /// One `openat` per part: each directory opened without following a link, then the file.
    fn part_by_part(root: RawFd, parts: &[&str]) -> io::Result<File> {
        let mut current: Option<OwnedFd> = None;
        let (last, dirs) = parts
            .split_last()
            .ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
        for dir in dirs {
            let at = current.as_ref().map_or(root, std::os::fd::AsRawFd::as_raw_fd);
            let name = c_path(dir)?;
            // SAFETY: `name` is NUL-terminated and `at` an open descriptor.
            let fd = unsafe {
                libc::openat(
                    at,
                    name.as_ptr(),
                    libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                )
            };
            current = Some(owned(fd).map_err(|e| link_as_loop(at, &name, e))?);
        }
        let at = current.as_ref().map_or(root, std::os::fd::AsRawFd::as_raw_fd);
        let name = c_path(last)?;
        // SAFETY: as above.
        let fd = unsafe { libc::openat(at, name.as_ptr(), FLAGS) };
        Ok(File::from(owned(fd)?))
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    mod linux {
        use std::fs::File;
        use std::io;
        use std::os::fd::RawFd;
        use std::sync::atomic::{AtomicBool, Ordering};

        /// Set once the kernel (or a sandbox's filter) has refused `openat2`.
        static UNAVAILABLE: AtomicBool = AtomicBool::new(false);

        /// The file opened with `openat2`, or `None` when the call is not available here.
        pub fn openat2(root: RawFd, relative: &str) -> Option<io::Result<File>> {
            if UNAVAILABLE.load(Ordering::Relaxed) {
                return None;
            }
            let path = match super::c_path(relative) {
                Ok(path) => path,
                Err(e) => return Some(Err(e)),
            };
            // SAFETY: `open_how` is plain data; zeroed is its "no options" value.
            let mut how: libc::open_how = unsafe { std::mem::zeroed() };
            how.flags = super::FLAGS as u64;
            how.resolve = libc::RESOLVE_BENEATH | libc::RESOLVE_NO_SYMLINKS | libc::RESOLVE_NO_MAGICLINKS;
            // SAFETY: the arguments are the ones openat2(2) takes; `how` outlives the call.
            let fd = unsafe {
                libc::syscall(
                    libc::SYS_openat2,
                    root,
                    path.as_ptr(),
                    &how as *const libc::open_how,
                    std::mem::size_of::<libc::open_how>(),
                )
            };
            if fd < 0 {
                let error = io::Error::last_os_error();
                if matches!(error.raw_os_error(), Some(libc::ENOSYS | libc::EPERM)) {
                    UNAVAILABLE.store(true, Ordering::Relaxed);
                    return None;
                }
                return Some(Err(error));
            }
            Some(super::owned(fd as libc::c_int).map(File::from))
        }
    }

    #[cfg(target_os = "macos")]
    mod macos {
        use std::fs::File;
        use std::io;
        use std::os::fd::RawFd;

        /// The file opened with `O_NOFOLLOW_ANY` (macOS 11 and later), or `None` before it.
        pub fn open_nofollow_any(root: RawFd, relative: &str) -> Option<io::Result<File>> {
            let path = match super::c_path(relative) {
                Ok(path) => path,
                Err(e) => return Some(Err(e)),
            };
            // SAFETY: `path` is NUL-terminated and `root` an open descriptor.
            let fd = unsafe { libc::openat(root, path.as_ptr(), super::FLAGS | libc::O_NOFOLLOW_ANY) };
            if fd < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL) {
                return None;
            }
            Some(super::owned(fd).map(File::from))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_link_is_followed_on_the_way() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path().join("top");
        std::fs::create_dir_all(top.join("db/migrations")).unwrap();
        std::fs::write(top.join("db/migrations/001.sql"), "create table t (id int);").unwrap();
        std::fs::create_dir(tmp.path().join("outside")).unwrap();
        std::fs::write(tmp.path().join("outside/secret.sql"), "secret").unwrap();
        crate::platform::fs::symlink_dir(&tmp.path().join("outside"), &top.join("root")).unwrap();
        crate::platform::fs::symlink_file(&tmp.path().join("outside/secret.sql"), &top.join("db/link.sql")).unwrap();
        let root = Root::open(&top).unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut root.open_file("db/migrations/001.sql").unwrap(), &mut text).unwrap();
        assert_eq!(text, "create table t (id int);");
        for through_a_link in ["root/secret.sql", "db/link.sql"] {
            let error = root.open_file(through_a_link).unwrap_err();
            assert!(is_link_met(&error), "{through_a_link}: {error:?}");
        }
        for not_plain in [
            "../outside/secret.sql",
            "db//x",
            "./db/migrations/001.sql",
            "/etc/passwd",
        ] {
            assert!(root.open_file(not_plain).is_err(), "{not_plain}");
        }
        assert_eq!(
            root.open_file("db/missing.sql").unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_part_by_part_walk_refuses_links_too() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("real")).unwrap();
        std::fs::write(tmp.path().join("real/x.sql"), "x").unwrap();
        crate::platform::fs::symlink_dir(&tmp.path().join("real"), &tmp.path().join("link")).unwrap();
        let root = Root::open(tmp.path()).unwrap();
        assert!(unix::part_by_part_for_tests(root.fd.as_raw_fd(), &["real", "x.sql"]).is_ok());
        let error = unix::part_by_part_for_tests(root.fd.as_raw_fd(), &["link", "x.sql"]).unwrap_err();
        assert!(is_link_met(&error), "{error:?}");
    }
}
