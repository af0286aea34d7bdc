//! Rust paths as written: the name a path ends with.

/// The last segment of a path (`axum::routing::get` → `get`, `Router::<S>::new` → `new`).
pub fn last_segment(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path).trim()
}
