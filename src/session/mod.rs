//! The session: where the work stands (handoff, pause, resume, breadcrumbs) and what it
//! cost and did (transcript usage, prices, the report).

pub mod api_usage;
pub mod archive;
pub mod breadcrumb;
pub mod chunks;
pub mod continue_here;
pub mod handoff;
pub mod line;
pub mod pause;
pub mod pricing;
pub mod report;
pub mod resume;
pub mod scan;
pub mod time;
pub mod transcripts;
pub mod usage;
pub mod worktree;
