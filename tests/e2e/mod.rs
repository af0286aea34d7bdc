//! End-to-end tests: the real Claude Code client against a Messages API mock on loopback.

mod background;
mod baton_mod;
mod baton_mod_ui;
mod bridge;
pub(crate) mod client;
mod continuity;
mod ctx;
mod doctor;
mod forecast;
mod gsd;
mod gsd_core;
mod install;
pub(crate) mod mock;
mod monitor;
mod npm;
mod picture;
mod plugin;
mod plugin_dir;
pub(crate) mod request;
pub(crate) mod sandbox;
mod segments;
mod slash_commands;
mod statusline;
mod subagent;
mod subagent_monitor;
mod tmux;
mod window;

use std::thread;
use std::time::{Duration, Instant};

/// Polls `check` every 100 ms until it returns `Some`, or gives up after `limit`.
fn poll<T>(limit: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(found) = check() {
            return Some(found);
        }
        if Instant::now() >= deadline {
            return None;
        }
        thread::sleep(Duration::from_millis(100));
    }
}
