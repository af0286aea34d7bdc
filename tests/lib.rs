//! All integration tests in one binary, so linking stays fast. Every test runs the built
//! `baton` binary, the way Claude Code does.

mod agents;
mod arguments;
mod bench_checks;
mod bridge;
mod client_mod;
mod common;
mod concurrency;
mod context;
mod continuity;
mod crlf;
mod ctx;
mod doc_links;
mod e2e;
mod entry;
mod error_chain;
mod examples;
mod hostile;
mod install;
#[cfg(target_os = "linux")]
mod kill;
mod latest_client;
mod layering;
mod leftovers;
mod links;
mod locks;
mod lookups;
mod man_page;
mod messages;
mod monitor;
mod npm;
mod picture;
mod planning;
mod profiles;
mod report;
mod statusline;
#[cfg(target_os = "linux")]
mod stress_harness;
mod window;
