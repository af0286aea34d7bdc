//! The few things the tests do that differ between systems (the suite runs on Linux, and
//! compiles for macOS and Windows too): links, modes, FIFOs, executable scripts.

use std::path::Path;

/// Plants a symlink at `link` (to a file or a directory).
pub fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) {
    let (target, link) = (target.as_ref(), link.as_ref());
    #[cfg(unix)]
    let made = std::os::unix::fs::symlink(target, link);
    #[cfg(windows)]
    let made = if target.is_dir() {
        std::os::windows::fs::symlink_dir(target, link)
    } else {
        std::os::windows::fs::symlink_file(target, link)
    };
    made.unwrap_or_else(|e| panic!("symlink {} -> {}: {e}", link.display(), target.display()));
}

/// The permission bits of `path` (Windows: `0o444` read-only, else `0o644`).
pub fn mode(path: &Path) -> u32 {
    let meta = std::fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    #[cfg(unix)]
    return std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o777;
    #[cfg(windows)]
    return if meta.permissions().readonly() { 0o444 } else { 0o644 };
}

/// Sets the permission bits of `path` (Windows: only whether it is read-only).
pub fn set_mode(path: &Path, mode: u32) {
    #[cfg(unix)]
    let permissions = std::os::unix::fs::PermissionsExt::from_mode(mode);
    #[cfg(windows)]
    let permissions = {
        let mut p = std::fs::metadata(path).unwrap().permissions();
        p.set_readonly(mode & 0o222 == 0);
        p
    };
    std::fs::set_permissions(path, permissions).unwrap_or_else(|e| panic!("chmod {}: {e}", path.display()));
}

/// Makes a script executable.
pub fn make_executable(path: &Path) {
    set_mode(path, 0o755);
}

/// Creates a FIFO at `path` (Unix only: Windows has none in the file system).
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o600) },
        0,
        "mkfifo {}",
        path.display()
    );
}

/// The names baton tries, in order, for its private lock directory in the temp dir
/// (`baton-<uid>`; `baton` for a Windows build, whose temp dir is the user's own).
pub fn private_dir_names() -> Vec<String> {
    #[cfg(unix)]
    // SAFETY: geteuid has no preconditions.
    let unix_stem = format!("baton-{}", unsafe { libc::geteuid() });
    #[cfg(windows)]
    let unix_stem = String::new();
    let stem = if super::binary::is_windows() {
        "baton".to_owned()
    } else {
        unix_stem
    };
    (0..8)
        .map(|n| if n == 0 { stem.clone() } else { format!("{stem}-{n}") })
        .collect()
}

/// Plants a file at every name of [`private_dir_names`] in `tmp`: baton has nowhere to keep
/// its locks.
pub fn take_every_private_dir_name(tmp: &Path) {
    for name in private_dir_names() {
        std::fs::write(tmp.join(name), "planted").unwrap();
    }
}

/// Asserts that only its owner may read the file the binary wrote at `path` (mode `0600`). A
/// Windows build has no modes (its temp files are private through the per-user temp dir's
/// ACL, which Wine does not model): there is nothing to check.
#[track_caller]
pub fn assert_private(path: &Path) {
    if !super::binary::is_windows() {
        assert_eq!(mode(path), 0o600, "{} is private", path.display());
    }
}

/// Runs `command` with `stdin` to its end, which must succeed; returns its stdout and its peak
/// resident memory in KiB, sampled from `/proc/<pid>/status` (VmHWM) while it runs. Not
/// `wait4`: a child started with vfork inherits this test process's high-water mark until it
/// execs, which would hide its own.
#[cfg(target_os = "linux")]
pub fn run_measuring_memory(mut command: std::process::Command, stdin: &[u8]) -> (String, u64) {
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = std::io::Write::write_all(&mut pipe, &input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    let mut peak_kib = 0;
    let status = loop {
        let hwm = std::fs::read_to_string(&status_file).ok().and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_owned();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
        peak_kib = peak_kib.max(hwm.unwrap_or(0));
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    writer.join().unwrap();
    assert!(status.success(), "{command:?} failed");
    assert!(peak_kib > 0, "no memory sample of {command:?}");
    (reader.join().unwrap(), peak_kib)
}
