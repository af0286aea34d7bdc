//! Reading stdin (or another pipe or file) with a deadline, for hooks whose stdin Claude Code
//! may leave open. Unix: `poll(2)`, then `read(2)` straight into the caller's buffer. Windows,
//! which cannot wait on an anonymous pipe: a reader thread hands chunks over a bounded channel.

use std::fs::File;
use std::io::{self, PipeReader};
use std::time::Duration;

/// What one [`TimedReader::read_some`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Progress {
    /// This many bytes were appended.
    Read(usize),
    /// The other end is closed and everything was read.
    End,
    /// Nothing arrived in the time given.
    TimedOut,
}

/// A source of bytes that can be waited on with a deadline.
pub struct TimedReader {
    inner: imp::Inner,
}

impl TimedReader {
    /// The process's stdin.
    pub fn stdin() -> Self {
        Self {
            inner: imp::Inner::stdin(),
        }
    }

    /// A file (tests: a temp file holding a payload).
    pub fn from_file(file: File) -> Self {
        Self {
            inner: imp::Inner::file(file),
        }
    }

    /// The reading end of a pipe (tests: a writer that never closes).
    pub fn from_pipe(pipe: PipeReader) -> Self {
        #[cfg(unix)]
        let file = File::from(std::os::fd::OwnedFd::from(pipe));
        #[cfg(windows)]
        let file = File::from(std::os::windows::io::OwnedHandle::from(pipe));
        Self::from_file(file)
    }

    /// Waits at most `wait` for data and appends what is there to `buf`.
    pub fn read_some(&mut self, buf: &mut Vec<u8>, wait: Duration) -> io::Result<Progress> {
        self.inner.read_some(buf, wait)
    }
}

#[cfg(unix)]
mod imp {
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsRawFd, RawFd};
    use std::time::Duration;

    use super::Progress;

    /// A descriptor read with `poll` and a deadline.
    pub struct Inner {
        fd: RawFd,
        /// Keeps a file's descriptor open; `None` for stdin, which is never closed.
        _file: Option<File>,
    }

    impl Inner {
        /// The process's stdin.
        pub fn stdin() -> Self {
            Self {
                fd: libc::STDIN_FILENO,
                _file: None,
            }
        }

        /// An open file (or pipe), kept open while read.
        pub fn file(file: File) -> Self {
            Self {
                fd: file.as_raw_fd(),
                _file: Some(file),
            }
        }

        /// Appends what can be read within `wait` to `buf`.
        pub fn read_some(&mut self, buf: &mut Vec<u8>, wait: Duration) -> io::Result<Progress> {
            if !wait_readable(self.fd, wait)? {
                return Ok(Progress::TimedOut);
            }
            // Read straight into the buffer's spare room: no zeroed scratch buffer to copy from.
            buf.reserve(if buf.is_empty() {
                16 * 1024
            } else {
                buf.len().min(1024 * 1024)
            });
            let start = buf.len();
            let spare = buf.spare_capacity_mut();
            // SAFETY: `spare` is writable memory of `spare.len()` bytes owned by `buf`.
            let n = unsafe { libc::read(self.fd, spare.as_mut_ptr().cast(), spare.len()) };
            if n < 0 {
                let e = io::Error::last_os_error();
                return match e.kind() {
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock => Ok(Progress::Read(0)),
                    _ => Err(e),
                };
            }
            if n == 0 {
                return Ok(Progress::End);
            }
            // SAFETY: read() initialised the first `n` bytes of the spare room.
            unsafe { buf.set_len(start + n as usize) };
            Ok(Progress::Read(n as usize))
        }
    }

    /// Waits until `fd` has data or EOF (`true`), or `wait` elapses (`false`).
    fn wait_readable(fd: RawFd, wait: Duration) -> io::Result<bool> {
        let mut pollfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let millis = wait.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
        loop {
            // SAFETY: one valid pollfd.
            let r = unsafe { libc::poll(&mut pollfd, 1, millis) };
            if r >= 0 {
                return Ok(r > 0);
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}

#[cfg(windows)]
mod imp {
    use std::fs::File;
    use std::io::{self, Read};
    use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
    use std::time::Duration;

    use super::Progress;

    /// Chunks in flight at most: the reader stops reading ahead of a slow consumer.
    const QUEUED_CHUNKS: usize = 4;
    const CHUNK: usize = 64 * 1024;

    /// A source read by a thread of its own, its chunks taken with a deadline.
    pub struct Inner {
        chunks: Receiver<io::Result<Vec<u8>>>,
        ended: bool,
    }

    impl Inner {
        /// The process's stdin.
        pub fn stdin() -> Self {
            Self::spawn(std::io::stdin())
        }

        /// An open file (or pipe), kept open while read.
        pub fn file(file: File) -> Self {
            Self::spawn(file)
        }

        fn spawn(mut source: impl Read + Send + 'static) -> Self {
            let (send, chunks) = sync_channel(QUEUED_CHUNKS);
            std::thread::spawn(move || {
                loop {
                    let mut chunk = vec![0; CHUNK];
                    let sent = match source.read(&mut chunk) {
                        Ok(0) => send.send(Ok(Vec::new())).map(|()| false),
                        Ok(n) => {
                            chunk.truncate(n);
                            send.send(Ok(chunk)).map(|()| true)
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(true),
                        Err(e) => send.send(Err(e)).map(|()| false),
                    };
                    if !matches!(sent, Ok(true)) {
                        return;
                    }
                }
            });
            Self { chunks, ended: false }
        }

        /// Appends what can be read within `wait` to `buf`.
        pub fn read_some(&mut self, buf: &mut Vec<u8>, wait: Duration) -> io::Result<Progress> {
            if self.ended {
                return Ok(Progress::End);
            }
            match self.chunks.recv_timeout(wait) {
                Ok(Ok(chunk)) if chunk.is_empty() => {
                    self.ended = true;
                    Ok(Progress::End)
                }
                Ok(Ok(chunk)) => {
                    buf.extend_from_slice(&chunk);
                    Ok(Progress::Read(chunk.len()))
                }
                Ok(Err(e)) => Err(e),
                Err(RecvTimeoutError::Timeout) => Ok(Progress::TimedOut),
                Err(RecvTimeoutError::Disconnected) => Ok(Progress::End),
            }
        }
    }
}
