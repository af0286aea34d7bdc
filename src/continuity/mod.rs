//! Session continuity: where the work stands and how it survives a pause, /clear or
//! compaction (the handoff, `baton pause` and `baton resume`, the `.continue-here.md` page,
//! the hooks' breadcrumbs, and the archive of used handoffs).

pub mod archive;
pub mod breadcrumb;
pub mod continue_here;
pub mod handoff;
pub mod pause;
pub mod resume;
pub mod worktree;
