//! The process's start when `main` is baton's own (`no_main`, see `main.rs`): what std's
//! start-up would have done that baton needs (SIGPIPE ignored, the standard descriptors
//! open), and the arguments, taken from what the C runtime hands `main` (musl keeps them
//! nowhere else) or, on Windows, from the UTF-16 command line; a thread's CPU time; and the
//! parent process and whether a process runs (the mod's marker names the client's process).

use std::ffi::{OsString, c_char, c_int};

/// Prepares the process: on Unix, SIGPIPE is ignored (a closed pipe becomes an error to
/// handle, not a kill) and a closed stdin, stdout or stderr is reopened on `/dev/null`, so
/// that no file baton opens later takes its number and receives output meant for it.
pub fn start() {
    #[cfg(unix)]
    {
        // SAFETY: changing a signal's disposition has no preconditions.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
        reopen_closed_standard_fds();
    }
}

/// Opens `/dev/null` on any of descriptors 0–2 that is closed (one `fcntl` each).
#[cfg(unix)]
fn reopen_closed_standard_fds() {
    for fd in 0..=2 {
        // SAFETY: F_GETFD only queries the descriptor.
        let closed = unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
        if closed {
            // open() takes the lowest free number: this one. If it fails there is nothing
            // better to do than go on.
            // SAFETY: the path is a valid NUL-terminated string.
            unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
        }
    }
}

/// The arguments after the program name.
///
/// # Safety
/// `argc` and `argv` must be what the C runtime passed to `main`: `argv` points to `argc`
/// valid NUL-terminated strings.
pub unsafe fn args(argc: c_int, argv: *const *const c_char) -> Vec<OsString> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        let count = usize::try_from(argc).unwrap_or(0);
        if argv.is_null() || count == 0 {
            return Vec::new();
        }
        // SAFETY: the caller guarantees `argc` readable pointers at `argv`.
        let pointers = unsafe { std::slice::from_raw_parts(argv, count) };
        pointers
            .iter()
            .skip(1)
            .filter(|p| !p.is_null())
            // SAFETY: each pointer is a NUL-terminated string (the caller's guarantee).
            .map(|&p| OsString::from_vec(unsafe { std::ffi::CStr::from_ptr(p) }.to_bytes().to_vec()))
            .collect()
    }
    #[cfg(windows)]
    {
        // The C runtime's argv is in the ANSI code page; the UTF-16 command line is exact.
        let _ = (argc, argv);
        std::env::args_os().skip(1).collect()
    }
}

/// CPU time the calling thread has used so far, where the system tells it (Linux and macOS:
/// `CLOCK_THREAD_CPUTIME_ID`); `None` elsewhere. For timings that must not count the time a
/// busy machine kept the thread waiting.
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    #[cfg(unix)]
    {
        let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `now` is a valid timespec for the call to write.
        let failed = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } != 0;
        let secs = u64::try_from(now.tv_sec).ok()?;
        let nanos = u32::try_from(now.tv_nsec).ok()?;
        (!failed).then(|| std::time::Duration::new(secs, nanos))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The id of the process that started this one (for `baton mod`: the Claude Code client,
/// which runs it with no shell between); `None` where the system does not say.
pub fn parent_pid() -> Option<u32> {
    #[cfg(unix)]
    {
        // SAFETY: getppid has no preconditions and cannot fail.
        let pid = unsafe { libc::getppid() };
        u32::try_from(pid).ok().filter(|pid| *pid > 1)
    }
    #[cfg(windows)]
    {
        windows::parent_pid(std::process::id())
    }
}

/// Whether process `pid` is running now. Ids 0 and 1 are never a client's: false.
pub fn is_running(pid: u32) -> bool {
    if pid <= 1 {
        return false;
    }
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only checks that the process exists and may be signalled.
        let sent = unsafe { libc::kill(pid, 0) } == 0;
        // EPERM: it exists, owned by someone else.
        sent || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(windows)]
    {
        windows::is_running(pid)
    }
}

#[cfg(windows)]
mod windows {
    use windows_sys::Win32::Foundation::{CloseHandle, INVALID_HANDLE_VALUE, STILL_ACTIVE};
    use windows_sys::Win32::System::Diagnostics::ToolHelp::{
        CreateToolhelp32Snapshot, PROCESSENTRY32W, Process32FirstW, Process32NextW, TH32CS_SNAPPROCESS,
    };
    use windows_sys::Win32::System::Threading::{GetExitCodeProcess, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION};

    /// The parent of process `pid`, from a snapshot of the process table.
    pub fn parent_pid(pid: u32) -> Option<u32> {
        // SAFETY: a snapshot of all processes; the handle is checked and closed below.
        let snapshot = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0) };
        if snapshot == INVALID_HANDLE_VALUE {
            return None;
        }
        let mut entry = PROCESSENTRY32W {
            dwSize: std::mem::size_of::<PROCESSENTRY32W>() as u32,
            ..Default::default()
        };
        let mut parent = None;
        // SAFETY: `entry` is a PROCESSENTRY32W with its size set, as both calls require.
        let mut more = unsafe { Process32FirstW(snapshot, &mut entry) } != 0;
        while more {
            if entry.th32ProcessID == pid {
                parent = Some(entry.th32ParentProcessID).filter(|p| *p > 1);
                break;
            }
            // SAFETY: as above.
            more = unsafe { Process32NextW(snapshot, &mut entry) } != 0;
        }
        // SAFETY: the snapshot handle is valid and closed once.
        unsafe { CloseHandle(snapshot) };
        parent
    }

    /// Whether `pid` runs: it opens and has not exited.
    pub fn is_running(pid: u32) -> bool {
        // SAFETY: the handle is checked and closed below.
        let process = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
        if process.is_null() {
            return false;
        }
        let mut code = 0u32;
        // SAFETY: a valid process handle and a place for its exit code.
        let asked = unsafe { GetExitCodeProcess(process, &mut code) } != 0;
        // SAFETY: the handle is valid and closed once.
        unsafe { CloseHandle(process) };
        asked && code == STILL_ACTIVE as u32
    }
}
