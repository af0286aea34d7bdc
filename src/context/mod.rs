//! Context-window monitoring: the window math and where Claude Code compacts, the transcript
//! tail, the forecast, the bridge file, the monitor's debounce and warning, the compaction
//! count, the statusline, and temp-dir hygiene.

pub mod bridge;
pub mod compactions;
pub mod debounce;
pub mod forecast;
pub mod gsd_monitor;
pub mod monitor;
pub mod statusline;
pub mod sweep;
pub mod transcript;
pub mod window;
