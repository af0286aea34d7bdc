//! Many entries of one directory looked up cheaply: the directory is opened once and each
//! name is `stat`ed relative to it (Unix `openat`/`fstatat`: one path component resolved per
//! lookup, no path built), with only what says whether an entry changed. Windows has no
//! equivalent in std; there the plain path is used.

use std::io;
use std::path::Path;
#[cfg(windows)]
use std::path::PathBuf;

#[cfg(unix)]
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// An open directory whose entries can be looked up by name.
#[derive(Debug)]
pub struct Dir {
    #[cfg(unix)]
    fd: OwnedFd,
    #[cfg(windows)]
    path: PathBuf,
}

/// What tells whether a file or directory changed, without opening it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub is_dir: bool,
    pub size: u64,
    /// Last modification, nanoseconds since the Unix epoch.
    pub modified_ns: i64,
    /// A time no tool sets back: the last change of the entry or its metadata on Unix
    /// (`ctime`: a time restored with `touch -r` or `rsync -t` still moves it), the creation
    /// time on Windows. Nanoseconds since the Unix epoch.
    pub changed_ns: i64,
    /// The file's identity: its inode number on Unix (a file replaced by another under the
    /// same name has a new one); 0 on Windows.
    pub id: u64,
}

impl Stamp {
    /// The newer of the two times.
    pub fn newest_ns(&self) -> i64 {
        self.modified_ns.max(self.changed_ns)
    }
}

impl Dir {
    /// Opens the directory at `path` (a link to a directory is followed).
    pub fn open(path: &Path) -> io::Result<Self> {
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            with_c_name(path.as_os_str().as_bytes(), |name| open_at(libc::AT_FDCWD, name))
        }
        #[cfg(windows)]
        {
            if !std::fs::metadata(path)?.is_dir() {
                return Err(io::Error::new(io::ErrorKind::NotADirectory, "not a directory"));
            }
            Ok(Self {
                path: path.to_path_buf(),
            })
        }
    }

    /// Opens the directory `name` in this one (a link is followed).
    pub fn open_dir(&self, name: &str) -> io::Result<Self> {
        #[cfg(unix)]
        return with_c_name(name.as_bytes(), |c_name| open_at(self.fd.as_raw_fd(), c_name));
        #[cfg(windows)]
        return Self::open(&self.path.join(name));
    }

    /// The directory's own stamp.
    pub fn stamp(&self) -> io::Result<Stamp> {
        #[cfg(unix)]
        {
            // SAFETY: `stat` is plain data that fstat fills in; the descriptor is open.
            let mut st: libc::stat = unsafe { std::mem::zeroed() };
            if unsafe { libc::fstat(self.fd.as_raw_fd(), &mut st) } != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(from_stat(&st))
        }
        #[cfg(windows)]
        return std::fs::metadata(&self.path).map(|meta| from_metadata(&meta));
    }

    /// The stamp of the entry `name`; `follow` decides whether a link there is followed or
    /// described itself (then it is not a directory).
    pub fn stamp_of(&self, name: &str, follow: bool) -> io::Result<Stamp> {
        #[cfg(unix)]
        {
            let flags = if follow { 0 } else { libc::AT_SYMLINK_NOFOLLOW };
            with_c_name(name.as_bytes(), |c_name| {
                // SAFETY: as in `stamp`; `c_name` is NUL-terminated.
                let mut st: libc::stat = unsafe { std::mem::zeroed() };
                if unsafe { libc::fstatat(self.fd.as_raw_fd(), c_name.as_ptr(), &mut st, flags) } != 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(from_stat(&st))
            })
        }
        #[cfg(windows)]
        {
            let path = self.path.join(name);
            let meta = if follow {
                std::fs::metadata(path)
            } else {
                std::fs::symlink_metadata(path)
            }?;
            Ok(from_metadata(&meta))
        }
    }
}

/// Runs `f` on `bytes` NUL-terminated, from a stack buffer when they fit (no allocation per
/// lookup). A name holding a NUL names nothing.
#[cfg(unix)]
fn with_c_name<T>(bytes: &[u8], f: impl FnOnce(&std::ffi::CStr) -> io::Result<T>) -> io::Result<T> {
    const STACK: usize = 384;
    let invalid = || io::Error::new(io::ErrorKind::InvalidInput, "a name holding a NUL byte");
    if bytes.len() < STACK {
        let mut buf = [0u8; STACK];
        buf[..bytes.len()].copy_from_slice(bytes);
        let c_name = std::ffi::CStr::from_bytes_with_nul(&buf[..=bytes.len()]).map_err(|_| invalid())?;
        return f(c_name);
    }
    let owned = std::ffi::CString::new(bytes).map_err(|_| invalid())?;
    f(&owned)
}

#[cfg(unix)]
fn open_at(dir: libc::c_int, name: &std::ffi::CStr) -> io::Result<Dir> {
    // Only looked up in, never read: O_PATH where there is one (no read permission needed).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
    // SAFETY: `name` is NUL-terminated; a descriptor returned is ours to own.
    let fd = unsafe { libc::openat(dir, name.as_ptr(), flags) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(Dir {
        fd: unsafe { OwnedFd::from_raw_fd(fd) },
    })
}

#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // the field types differ between systems
fn from_stat(st: &libc::stat) -> Stamp {
    let ns = |secs: i64, nanos: i64| secs.saturating_mul(1_000_000_000).saturating_add(nanos);
    Stamp {
        is_dir: st.st_mode as u32 & libc::S_IFMT as u32 == libc::S_IFDIR as u32,
        size: st.st_size as u64,
        modified_ns: ns(st.st_mtime as i64, st.st_mtime_nsec as i64),
        changed_ns: ns(st.st_ctime as i64, st.st_ctime_nsec as i64),
        id: st.st_ino as u64,
    }
}

#[cfg(windows)]
fn from_metadata(meta: &std::fs::Metadata) -> Stamp {
    let ns = |time: io::Result<std::time::SystemTime>| match time.map(|t| t.duration_since(std::time::UNIX_EPOCH)) {
        Ok(Ok(since)) => i64::try_from(since.as_nanos()).unwrap_or(i64::MAX),
        Ok(Err(before)) => -i64::try_from(before.duration().as_nanos()).unwrap_or(i64::MAX),
        Err(_) => 0,
    };
    Stamp {
        is_dir: meta.is_dir(),
        size: meta.len(),
        modified_ns: ns(meta.modified()),
        changed_ns: ns(meta.created()),
        id: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn entries_are_looked_up_in_the_open_directory() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir(tmp.path().join("sub")).unwrap();
        fs::write(tmp.path().join("sub/file"), "four").unwrap();
        let dir = Dir::open(tmp.path()).unwrap();
        let sub = dir.open_dir("sub").unwrap();
        assert!(sub.stamp().unwrap().is_dir);
        assert_eq!(sub.stamp().unwrap(), dir.stamp_of("sub", false).unwrap());
        let file = sub.stamp_of("file", false).unwrap();
        assert!(!file.is_dir);
        assert_eq!(file.size, 4);
        let written = fs::metadata(tmp.path().join("sub/file")).unwrap().modified().unwrap();
        let since = written.duration_since(std::time::UNIX_EPOCH).unwrap();
        assert_eq!(file.modified_ns, since.as_nanos() as i64);
        assert!(file.newest_ns() >= file.modified_ns);

        let missing = sub.stamp_of("missing", false).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert!(dir.open_dir("sub/file").is_err(), "a file is not a directory");
        assert!(sub.stamp_of("a\0b", false).is_err());

        // A link: described itself unless followed.
        crate::platform::fs::symlink_dir(&tmp.path().join("sub"), &tmp.path().join("link")).unwrap();
        assert!(!dir.stamp_of("link", false).unwrap().is_dir);
        assert!(dir.stamp_of("link", true).unwrap().is_dir);
        assert!(dir.open_dir("link").unwrap().stamp().unwrap().is_dir);

        // A new file under the same name is told apart even with the same size and time.
        fs::rename(tmp.path().join("sub/file"), tmp.path().join("old")).unwrap();
        fs::write(tmp.path().join("sub/file"), "FOUR").unwrap();
        fs::File::options()
            .write(true)
            .open(tmp.path().join("sub/file"))
            .unwrap()
            .set_modified(written)
            .unwrap();
        let replaced = sub.stamp_of("file", false).unwrap();
        assert_eq!((replaced.size, replaced.modified_ns), (file.size, file.modified_ns));
        assert_ne!(replaced, file);
    }
}
