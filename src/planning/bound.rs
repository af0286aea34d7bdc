//! The bounds past which baton does not read a planning file (so a huge or hostile file costs
//! nothing), as a typed error: [`crate::error::Error::PastABound`] names the file and says what to do.

/// Which bound a planning file is past, with the limit baton holds it to (each reader owns its
/// limits; the bound only says them).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Bound {
    /// The file is larger than the bytes baton reads of it.
    #[error("it is larger than the {} KiB baton reads", limit / 1024)]
    FileBytes { limit: u64 },
    #[error("its frontmatter is {found} bytes, more than the {max} baton reads")]
    FrontmatterBytes { found: usize, max: usize },
    #[error("its frontmatter opens {found} flow collections ('[' or '{{'), more than the {max} baton reads")]
    FlowCollections { found: usize, max: usize },
    /// GSD never writes an anchor, and without anchors no alias can expand.
    #[error("its frontmatter uses a YAML anchor (&name), which baton does not read")]
    Anchor,
    #[error("it lists more than {max} phases")]
    Phases { max: usize },
    #[error("it lists more than {max} plans")]
    PlanLines { max: usize },
    #[error("it holds more than {max} entries (phase directories and their files)")]
    PhaseEntries { max: usize },
}
