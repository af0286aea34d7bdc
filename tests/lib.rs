//! All integration tests in one binary, so linking stays fast. Every test runs the built
//! `baton` binary, the way Claude Code does.

mod common;
mod e2e;
