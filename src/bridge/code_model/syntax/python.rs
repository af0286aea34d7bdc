//! Python names as written: the name a dotted one ends with.

/// The last segment of a dotted name (`models.CharField` → `CharField`).
pub fn last_segment(text: &str) -> &str {
    text.rsplit('.').next().unwrap_or(text)
}
