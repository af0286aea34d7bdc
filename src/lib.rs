//! baton keeps Claude Code agents from losing the thread: a statusline and a context
//! monitor hook, with the library every later command shares.
//!
//! The modules form layers, each using only those below it (ARCHITECTURE.md, Layout): the
//! foundations (`error`, `log`, `clock`, `words`, `fsx`, `git`, `claude_home`, `json`);
//! what Claude Code and the user hand baton (`api_usage`, `hook`, `config`); the domain
//! (`planning`, `continuity`, `accounting`, `agents`, `context`); what combines them
//! (`report`, `install`, `dispatch`, `client_mod`); and `cli` on top.

pub mod accounting;
pub mod agents;
pub mod api_usage;
pub mod bridge;
pub mod claude_home;
pub mod cli;
pub mod client_mod;
pub mod clock;
pub mod config;
pub mod context;
pub mod continuity;
pub mod dispatch;
pub mod error;
pub mod fsx;
pub mod git;
pub mod hook;
pub mod install;
pub mod json;
pub mod log;
pub mod planning;
pub mod platform;
pub mod report;
pub mod store;
pub mod words;
