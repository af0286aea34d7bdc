//! The crate's one error type for commands people run; each variant knows its exit code
//! and says what to do. Hook commands never surface errors (see `cli::run_silently`).

use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// Wrong arguments: exit 2.
    Usage(String),
    /// A file could not be read or written: exit 1.
    Io {
        path: String,
        source: std::io::Error,
    },
}

impl Error {
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => 2,
            Self::Io { .. } => 1,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(message) => write!(
                f,
                "{message}\nRun `baton --help` to see the commands and their options."
            ),
            Self::Io { path, source } => write!(f, "{path}: {source}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<lexopt::Error> for Error {
    fn from(e: lexopt::Error) -> Self {
        Self::Usage(e.to_string())
    }
}
