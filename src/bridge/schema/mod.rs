//! The schema after the run: what the migrations do (SQL DDL, Alembic operations) is kept
//! as a list of [`Change`]s per file, and replayed here in migration order (file names
//! compared with their numbers as numbers, Alembic files along their `down_revision` chain,
//! down migrations left out), so a table dropped, renamed or stripped of a column shows as
//! it is after the last migration, not as every name ever seen. ORM models are then merged
//! into the tables of the same name ([`models`]).

mod apply;
pub use apply::{Replayed, created};
pub mod models;
pub mod order;
#[cfg(test)]
mod tests;

use super::facts::{Change, ChangeKind, Name, Revision, TableOp};

/// Replays `changes` (each file's in its own order) in migration order.
pub fn replay(changes: Vec<Change>, revisions: &[Revision]) -> Replayed {
    let mut schema = Replayed::default();
    for change in order::in_migration_order(changes, revisions) {
        schema.apply(change);
    }
    schema
}
