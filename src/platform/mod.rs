//! Everything that differs between operating systems, one module per concern: opening,
//! checking and replacing files (`fs`), opening a path below a directory without following a
//! link on the way (`beneath`), baton's own installed copy (`binary`), looking up many
//! entries of one directory (`dir`), paths as other programs read them (`path`), the temp dir
//! and the user's private directory in it (`temp`), the process's start, arguments and stdin
//! (`process`), how a command line is written for the shell Claude Code runs it in (`shell`),
//! and the local time zone's offset from UTC (`zone`). No code outside this module names a
//! platform. Where the logic is shared, it takes a [`Family`] so that the other platform's
//! branch runs in the tests too.

pub mod beneath;
pub mod binary;
pub mod dir;
pub mod fs;
pub mod path;
pub mod process;
pub mod shell;
pub mod stdin;
pub mod temp;
pub mod zone;

/// The two kinds of system baton runs on, where a rule differs between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Linux (glibc or musl) and macOS.
    Unix,
    /// Windows (msvc).
    Windows,
}

impl Family {
    /// The system this binary was built for.
    pub const CURRENT: Family = if cfg!(windows) { Family::Windows } else { Family::Unix };
}
