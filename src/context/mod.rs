//! Context-window monitoring: the window math, the transcript tail, the bridge file,
//! the monitor's debounce and warning, the statusline, and temp-dir hygiene.

pub mod bridge;
pub mod debounce;
pub mod monitor;
pub mod statusline;
pub mod sweep;
pub mod transcript;
pub mod window;
