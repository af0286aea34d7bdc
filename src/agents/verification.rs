//! The spot-check's findings for one run, as the ledger stores them: each claim the run's
//! final message makes, what the repository says about it, and whether the run is flagged.

use serde::{Deserialize, Serialize};

/// What was claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    File,
    Removed,
    Commit,
    Summary,
}

/// The outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Confirmed,
    Refuted,
    /// Could not be checked (no git, no start time); never flags a run.
    Unchecked,
}

/// One claim and what the repository says about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub kind: Kind,
    pub claim: String,
    pub verdict: Verdict,
    pub detail: String,
}

/// The spot-check of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verification {
    pub checked_at: String,
    /// Whether the final message reads as success (heuristic).
    pub reports_success: bool,
    /// True when any claim was refuted.
    pub flagged: bool,
    pub checks: Vec<Check>,
}

impl Verification {
    /// The refuted checks.
    pub fn problems(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| c.verdict == Verdict::Refuted)
    }
}
