//! The session: where the work stands (handoff, pause, resume, breadcrumbs) and what it
//! cost and did (transcript usage, prices, the report).

pub mod breadcrumb;
pub mod continue_here;
pub mod handoff;
pub mod pause;
pub mod resume;
