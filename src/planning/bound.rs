//! The bounds past which baton does not read a planning file (so a huge or hostile file costs
//! nothing), as a typed error: [`crate::error::Error::PastABound`] names the file and says what to do.

use super::{phases, roadmap, yaml};

/// Which bound a planning file is past.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Bound {
    /// The file is larger than the bytes baton reads of it.
    #[error("it is larger than the {} KiB baton reads", limit / 1024)]
    FileBytes { limit: u64 },
    #[error("its frontmatter is {0} bytes, more than the {max} baton reads", max = yaml::MAX_BYTES)]
    FrontmatterBytes(usize),
    #[error(
        "its frontmatter opens {0} flow collections ('[' or '{{'), more than the {max} baton reads",
        max = yaml::MAX_FLOW_COLLECTIONS
    )]
    FlowCollections(usize),
    /// GSD never writes an anchor, and without anchors no alias can expand.
    #[error("its frontmatter uses a YAML anchor (&name), which baton does not read")]
    Anchor,
    #[error("it lists more than {max} phases", max = roadmap::MAX_PHASES)]
    Phases,
    #[error("it lists more than {max} plans", max = roadmap::MAX_PLAN_LINES)]
    PlanLines,
    #[error("it holds more than {max} entries (phase directories and their files)", max = phases::MAX_ENTRIES)]
    PhaseEntries,
}
