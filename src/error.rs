//! The crate's one error type for commands people run; each variant knows its exit code
//! and its message says what to do. Hook commands never surface errors (`cli::run_silently`).
//!
//! A variant built from another error keeps it as its `source()`. Its message still reads as
//! one line with the cause's words in it (what users and the tests see); `--verbose` adds the
//! chain of causes below it ([`Error::chain`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Any error kept as the cause of another.
pub type Cause = Box<dyn std::error::Error + Send + Sync + 'static>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Wrong arguments (exit 2). The message names the problem; `cli` adds which command's
    /// help to read.
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written (exit 1).
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// A file exists but its contents are wrong (exit 1): which file, what is wrong, what to do;
    /// the parser's error, when one said so, as its source.
    #[error("{}: {message}", path.display())]
    Invalid {
        path: PathBuf,
        message: String,
        source: Option<Cause>,
    },
    /// A file whose contents are wrong (exit 1), the typed problem as its source.
    #[error("{}: {source}", path.display())]
    Contents { path: PathBuf, source: Cause },
    /// A planning file past one of baton's bounds (exit 1): which file, which bound, what to do.
    #[error(
        "{}: {bound}, so baton does not read it. GSD keeps its planning files short and flat: trim or fix this one.",
        path.display()
    )]
    PastABound {
        path: PathBuf,
        /// Which bound (a `planning::Bound`).
        #[source]
        bound: Cause,
    },
    /// Something the command needs is missing or the request cannot be done (exit 1);
    /// the message says what to do instead. No other error caused it.
    #[error("{0}")]
    Failed(String),
    /// `what` could not be done because of `source` (exit 1): "cannot read stdin: …".
    #[error("{what}: {source}")]
    Because { what: String, source: Cause },
    /// The lock on `what` (at `path`) was not had within `wait` (exit 1): held by another baton
    /// process all that time, or something else stands at its name.
    #[error("cannot lock {what} ({}): {}", path.display(), lock_advice(source, *wait))]
    Lock {
        what: String,
        path: PathBuf,
        wait: Duration,
        source: std::io::Error,
    },
    /// A path into the context store that leads nowhere, or a reference there that does not
    /// resolve (exit 1).
    /// (The store's `RefError`, turned into this by its `From`.)
    #[error(transparent)]
    Reference(Cause),
    /// Another error of baton's, followed by what to do about it where it happened (`advice`
    /// carries its own leading separator).
    #[error("{source}{advice}")]
    Advised { source: Box<Error>, advice: String },
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => 2,
            Self::Advised { source, .. } => source.exit_code(),
            Self::Io { .. }
            | Self::Invalid { .. }
            | Self::Contents { .. }
            | Self::PastABound { .. }
            | Self::Failed(_)
            | Self::Because { .. }
            | Self::Lock { .. }
            | Self::Reference(_) => 1,
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.to_owned(),
            source,
        }
    }

    /// Invalid contents in `path`.
    pub fn invalid(path: &Path, message: impl Into<String>) -> Self {
        Self::Invalid {
            path: path.to_owned(),
            message: message.into(),
            source: None,
        }
    }

    /// This error (an [`Error::Invalid`]) with the error that found the contents wrong as its
    /// source; any other error is returned as it is.
    pub fn caused_by(self, cause: impl Into<Cause>) -> Self {
        match self {
            Self::Invalid { path, message, .. } => Self::Invalid {
                path,
                message,
                source: Some(cause.into()),
            },
            other => other,
        }
    }

    /// The contents of `path` are wrong: `problem` says how.
    pub fn contents(path: &Path, problem: impl Into<Cause>) -> Self {
        Self::Contents {
            path: path.to_owned(),
            source: problem.into(),
        }
    }

    /// `what` could not be done because of `source`.
    pub fn because(what: impl Into<String>, source: impl Into<Cause>) -> Self {
        Self::Because {
            what: what.into(),
            source: source.into(),
        }
    }

    /// This error followed by `advice` (which starts with its own separator).
    pub fn advised(self, advice: impl Into<String>) -> Self {
        Self::Advised {
            source: Box::new(self),
            advice: advice.into(),
        }
    }

    /// The errors that caused this one, nearest first.
    pub fn chain(&self) -> impl Iterator<Item = &(dyn std::error::Error + 'static)> {
        std::iter::successors(std::error::Error::source(self), |e| e.source())
    }
}

/// Why a lock was not had, and what to do.
fn lock_advice(source: &std::io::Error, wait: Duration) -> String {
    if source.kind() == std::io::ErrorKind::TimedOut {
        format!(
            "another baton process has held it for {:.1}s; try again when it is done",
            wait.as_secs_f64()
        )
    } else {
        format!("{source}; remove what is at that name if nothing of yours should be there")
    }
}

/// `.context(what)` on a result: its error becomes the cause of [`Error::Because`].
pub trait Context<T> {
    fn context(self, what: impl Into<String>) -> Result<T>;
}

impl<T, E: Into<Cause>> Context<T> for std::result::Result<T, E> {
    fn context(self, what: impl Into<String>) -> Result<T> {
        self.map_err(|e| Error::because(what, e))
    }
}

/// The current directory, which every command that looks for a project starts from.
pub fn current_dir() -> Result<PathBuf> {
    std::env::current_dir().context("cannot read the current directory")
}

/// The result type of commands.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn a_cause_is_kept_and_its_words_stay_in_the_message() {
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied");
        let e = Err::<(), _>(io).context("cannot read stdin").unwrap_err();
        assert_eq!(e.to_string(), "cannot read stdin: denied");
        assert_eq!(e.source().map(ToString::to_string).as_deref(), Some("denied"));
        assert_eq!(e.exit_code(), 1);
    }

    #[test]
    fn the_chain_goes_down_every_cause() {
        let io = std::io::Error::other("disk gone");
        let e = Error::io(Path::new("/x/STATE.md"), io).advised("\n(run it again)");
        let chain: Vec<String> = e.chain().map(ToString::to_string).collect();
        assert_eq!(chain, ["/x/STATE.md: disk gone", "disk gone"]);
        assert_eq!(e.to_string(), "/x/STATE.md: disk gone\n(run it again)");
    }

    #[test]
    fn invalid_contents_keep_the_parsers_error() {
        let parsed = serde_json::from_str::<serde_json::Value>("{").unwrap_err();
        let e = Error::invalid(Path::new("/x/c.json"), format!("not JSON ({parsed})")).caused_by(parsed);
        assert!(
            e.to_string().starts_with("/x/c.json: not JSON (EOF while parsing"),
            "{e}"
        );
        assert!(
            e.source()
                .is_some_and(|c| c.to_string().starts_with("EOF while parsing"))
        );
    }

    #[test]
    fn advice_keeps_the_exit_code_of_what_it_advises_on() {
        assert_eq!(Error::Usage("bad".into()).advised("; see --help").exit_code(), 2);
    }

    #[test]
    fn a_lock_says_whether_it_waited_or_what_is_in_the_way() {
        let lock = |kind| Error::Lock {
            what: "the context store".into(),
            path: PathBuf::from("/p/.baton/lock"),
            wait: Duration::from_millis(1500),
            source: std::io::Error::new(kind, "in the way"),
        };
        assert!(
            lock(std::io::ErrorKind::TimedOut)
                .to_string()
                .ends_with("(/p/.baton/lock): another baton process has held it for 1.5s; try again when it is done")
        );
        assert!(
            lock(std::io::ErrorKind::IsADirectory)
                .to_string()
                .contains("in the way; remove what is at that name")
        );
    }
}
