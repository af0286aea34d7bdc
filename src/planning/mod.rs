//! The project's planning state: finding the project root, GSD's `.planning/` files.

pub mod config;
pub mod number;
pub mod phases;
pub mod progress;
pub mod roadmap;
pub mod sections;
pub mod snapshot;
pub mod state;
pub mod state_edit;

use std::path::{Path, PathBuf};

/// How many directories up baton looks for the project root.
const MAX_DEPTH: usize = 40;

/// The project a directory belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The directory holding `.planning/` or `.baton/`, else the git work tree's top.
    pub root: PathBuf,
}

impl Project {
    /// Walks up from `start` to the nearest directory holding `.planning/` or `.baton/`,
    /// stopping at the git work tree's top and at the home directory.
    pub fn find(start: &Path) -> Option<Self> {
        let home = dirs::home_dir();
        let mut git_top = None;
        for dir in start.ancestors().take(MAX_DEPTH) {
            if dir.join(".planning").is_dir() || dir.join(".baton").is_dir() {
                return Some(Self {
                    root: dir.to_path_buf(),
                });
            }
            if git_top.is_none() && dir.join(".git").exists() {
                git_top = Some(dir.to_path_buf());
                break;
            }
            if home.as_deref() == Some(dir) {
                break;
            }
        }
        git_top.map(|root| Self { root })
    }

    /// `<root>/.planning`.
    pub fn planning_dir(&self) -> PathBuf {
        self.root.join(".planning")
    }

    /// GSD-style planning state is in use: `.planning/STATE.md` exists.
    pub fn has_planning_state(&self) -> bool {
        self.planning_dir().join("STATE.md").is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn walks_up_to_the_planning_dir_but_not_past_the_git_top() {
        let tmp = tempfile::tempdir().unwrap();
        let outer = tmp.path();
        fs::create_dir_all(outer.join(".planning")).unwrap();
        fs::write(outer.join(".planning/STATE.md"), "---\n---\n").unwrap();
        let deep = outer.join("src/a/b");
        fs::create_dir_all(&deep).unwrap();
        let found = Project::find(&deep).unwrap();
        assert_eq!(found.root, outer);
        assert!(found.has_planning_state());

        let repo = outer.join("vendor/lib");
        fs::create_dir_all(repo.join(".git")).unwrap();
        fs::create_dir_all(repo.join("src")).unwrap();
        let found = Project::find(&repo.join("src")).unwrap();
        assert_eq!(found.root, repo);
        assert!(!found.has_planning_state());
    }
}
