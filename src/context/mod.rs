//! Context-window monitoring: the window math and where Claude Code compacts, the transcript
//! tail, what fills the context, the forecast, the bridge file, the monitor's debounce and
//! warning, the compaction count, the statusline, temp-dir hygiene, and the marker that says
//! baton's mod speaks for a session.

pub mod bridge;
pub mod compactions;
pub mod debounce;
pub mod fills;
pub mod forecast;
pub mod gsd_monitor;
pub mod mod_marker;
pub mod monitor;
pub mod statusline;
pub mod sweep;
pub mod transcript;
pub mod window;
