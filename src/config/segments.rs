//! The statusline's segments as `statusline.segments` names them, and the order they are shown in.

use serde::{Deserialize, Serialize};

/// A statusline segment, as named in `statusline.segments`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Segment {
    /// The model's display name.
    Model,
    /// The in-progress task, else GSD state.
    Task,
    /// The directory and its git branch.
    Dir,
    /// The context bar, its percentage and the forecast (always shown).
    Context,
    /// The session's cost so far (`cost.total_cost_usd`).
    Cost,
    /// The session's duration (`cost.total_duration_ms`).
    Duration,
    /// Subscription usage limits (`rate_limits`).
    Limits,
    /// Whether the prompt cache is warm and for how long (`prompt_cache`).
    Cache,
    /// Compactions so far in this session.
    Compactions,
    /// The largest item in the live context (`baton window`).
    Largest,
}

/// Every segment, in the order the guide (docs/statusline.md) lists them.
pub const ALL_SEGMENTS: [Segment; 10] = [
    Segment::Model,
    Segment::Task,
    Segment::Dir,
    Segment::Context,
    Segment::Cost,
    Segment::Duration,
    Segment::Limits,
    Segment::Cache,
    Segment::Compactions,
    Segment::Largest,
];

/// Today's line: model │ task │ directory │ context.
pub const DEFAULT_SEGMENTS: [Segment; 4] = [Segment::Model, Segment::Task, Segment::Dir, Segment::Context];

/// Reads a list of segment names, skipping names that are not segments; not a list is absent.
pub(super) fn segment_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<Segment>>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(value.as_array().map(|names| {
        names
            .iter()
            .filter_map(|name| serde_json::from_value(name.clone()).ok())
            .collect()
    }))
}

/// `names` without repeats, with the context bar last when it is not named.
pub(super) fn segments_in_order(names: &[Segment]) -> Vec<Segment> {
    let mut segments: Vec<Segment> = Vec::with_capacity(names.len() + 1);
    for name in names {
        if !segments.contains(name) {
            segments.push(*name);
        }
    }
    if !segments.contains(&Segment::Context) {
        segments.push(Segment::Context);
    }
    segments
}
