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

/// The path of an `uncommitted_files` entry: gsd-core records `git status --porcelain` lines
/// (` M README.md`, `AM src.txt`, `R  old -> new`), baton and GSD 1.x bare paths.
pub fn entry_path(entry: &str) -> &str {
    let bytes = entry.as_bytes();
    let status = |b: u8| b" MADRCUT?!".contains(&b);
    let path = if bytes.len() > 3 && status(bytes[0]) && status(bytes[1]) && bytes[2] == b' ' && bytes[..2] != *b"  " {
        &entry[3..]
    } else {
        entry
    };
    // A rename names its new path last.
    path.rsplit_once(" -> ").map_or(path, |(_, new)| new)
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

    #[test]
    fn porcelain_lines_name_their_paths() {
        assert_eq!(entry_path(" M README.md"), "README.md");
        assert_eq!(entry_path("AM src.txt"), "src.txt");
        assert_eq!(entry_path("?? notes/new file.md"), "notes/new file.md");
        assert_eq!(entry_path("R  old.rs -> new.rs"), "new.rs");
        assert_eq!(entry_path("src/a.rs"), "src/a.rs");
        assert_eq!(entry_path("MD"), "MD");
        assert_eq!(entry_path("ab cd.txt"), "ab cd.txt");
    }
}
