//! baton keeps Claude Code agents from losing the thread: a statusline and a context
//! monitor hook, with the library every later command shares.

pub mod agents;
pub mod bridge;
pub mod claude_home;
pub mod cli;
pub mod clock;
pub mod config;
pub mod context;
pub mod error;
pub mod fsx;
pub mod git;
pub mod hook;
pub mod install;
pub mod log;
pub mod planning;
pub mod session;
