//! The project's view of git: uncommitted paths relative to the project root (which may sit
//! below the work tree's top, in a monorepo), without the files baton writes itself.

use std::path::Path;

/// Files baton writes when pausing and resuming; they say nothing about the user's work.
pub fn is_batons_own(path: &str) -> bool {
    path == ".planning/HANDOFF.json"
        || path == ".planning/STATE.md"
        || path == ".continue-here.md"
        || path.ends_with("/.continue-here.md")
        || path.starts_with(".planning/handoffs/")
}

/// The project's directory relative to the work tree's top (`apps/shop/`, or empty at the top).
pub fn prefix(root: &Path) -> Option<String> {
    crate::git::output(root, &["rev-parse", "--show-prefix"]).map(|p| p.trim_end_matches(['\n', '\r']).to_owned())
}

/// A path relative to the work tree's top as a path relative to the project; `None` when
/// it lies outside the project.
pub fn to_project(prefix: &str, path: &str) -> Option<String> {
    path.strip_prefix(prefix).filter(|p| !p.is_empty()).map(str::to_owned)
}

/// Uncommitted files of the project, relative to its root, baton's own left out; `None`
/// when git could not be asked.
pub fn uncommitted_files(root: &Path) -> Option<Vec<String>> {
    let prefix = prefix(root)?;
    let files = crate::git::uncommitted_files(root)?;
    Some(
        files
            .iter()
            .filter_map(|f| to_project(&prefix, f))
            .filter(|f| !is_batons_own(f))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_project_relative() {
        assert_eq!(
            to_project("apps/shop/", "apps/shop/src/a.rs").as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(to_project("apps/shop/", "apps/other/b.rs"), None);
        assert_eq!(to_project("", "src/a.rs").as_deref(), Some("src/a.rs"));
        assert!(is_batons_own(".planning/phases/03-cart/.continue-here.md"));
        assert!(!is_batons_own("src/a.rs"));
    }
}
