//! What Claude Code's hooks and statusline exchange with baton, as the lower layer every
//! handler uses: the payload types, the bounded stdin reader, the output envelope, the fit of
//! a text into Claude Code's cap, the directory a payload is about (with its project and
//! configs, looked up once) and the event every handler is given. The dispatch of events to
//! handlers is `crate::dispatch`.

pub mod envelope;
pub mod event;
pub mod fit;
pub mod payload;
pub mod place;
pub mod stdin;

use std::path::{Path, PathBuf};

/// The directory a payload is about: its `cwd` (an absolute path: `/…`, or `C:\…` on
/// Windows), else `$CLAUDE_PROJECT_DIR`, else ours.
pub fn working_dir(cwd: Option<&str>) -> PathBuf {
    cwd.filter(|c| Path::new(c).is_absolute())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("CLAUDE_PROJECT_DIR").map(PathBuf::from))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"))
}
