//! All integration tests in one binary, so linking stays fast. Every test runs the built
//! `baton` binary, the way Claude Code does.

mod agents;
mod common;
mod concurrency;
mod continuity;
mod crlf;
mod e2e;
mod entry;
mod hostile;
mod install;
mod latest_client;
mod leftovers;
mod locks;
mod monitor;
mod profiles;
mod report;
mod statusline;
