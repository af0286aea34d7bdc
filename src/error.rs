//! The crate's one error type for commands people run; each variant knows its exit code
//! and its message says what to do. Hook commands never surface errors (`cli::run_silently`).

use std::fmt;
use std::path::Path;

#[derive(Debug)]
pub enum Error {
    /// Wrong arguments (exit 2). The message names the problem; `cli` adds which command's
    /// help to read.
    Usage(String),
    /// A file could not be read or written (exit 1).
    Io { path: String, source: std::io::Error },
    /// A file exists but its contents are wrong (exit 1): which file, what is wrong, what to do.
    Invalid { path: String, message: String },
    /// Something the command needs is missing or the request cannot be done (exit 1);
    /// the message says what to do instead.
    Failed(String),
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => 2,
            Self::Io { .. } | Self::Invalid { .. } | Self::Failed(_) => 1,
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.display().to_string(),
            source,
        }
    }

    /// Invalid contents in `path`.
    pub fn invalid(path: &Path, message: impl Into<String>) -> Self {
        Self::Invalid {
            path: path.display().to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(message) => f.write_str(message),
            Self::Io { path, source } => write!(f, "{path}: {source}"),
            Self::Invalid { path, message } => write!(f, "{path}: {message}"),
            Self::Failed(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

/// The result type of commands.
pub type Result<T, E = Error> = std::result::Result<T, E>;
