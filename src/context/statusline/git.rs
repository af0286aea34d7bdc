//! The git branch of a directory, read from `.git/HEAD` without spawning git.

use std::fs;
use std::path::{Path, PathBuf};

/// How many directories up to look for `.git`.
const MAX_DEPTH: usize = 40;

/// The current branch, or the short commit id when HEAD is detached; `None` outside git.
pub fn branch(dir: &Path) -> Option<String> {
    let git_dir = find_git_dir(dir)?;
    let head = read_small(&git_dir.join("HEAD"))?;
    let head = head.trim();
    if let Some(reference) = head.strip_prefix("ref:") {
        let reference = reference.trim();
        return Some(reference.strip_prefix("refs/heads/").unwrap_or(reference).to_owned());
    }
    (head.len() >= 7 && head.bytes().all(|b| b.is_ascii_hexdigit())).then(|| head[..7].to_owned())
}

/// The git directory for `dir`: `.git` itself, or where a `.git` file (worktree,
/// submodule) points.
fn find_git_dir(dir: &Path) -> Option<PathBuf> {
    for candidate in dir.ancestors().take(MAX_DEPTH) {
        let dot_git = candidate.join(".git");
        let Ok(meta) = fs::metadata(&dot_git) else {
            continue;
        };
        if meta.is_dir() {
            return Some(dot_git);
        }
        let pointer = read_small(&dot_git)?;
        let target = pointer.trim().strip_prefix("gitdir:")?.trim();
        return Some(candidate.join(target));
    }
    None
}

fn read_small(path: &Path) -> Option<String> {
    String::from_utf8(crate::fsx::read_regular(path, 4096).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_branches_detached_heads_and_worktree_pointers() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        fs::create_dir_all(repo.join(".git")).unwrap();
        fs::create_dir_all(repo.join("src/deep")).unwrap();
        fs::write(repo.join(".git/HEAD"), "ref: refs/heads/feature/x\n").unwrap();
        assert_eq!(branch(&repo.join("src/deep")).as_deref(), Some("feature/x"));

        fs::write(repo.join(".git/HEAD"), "0123456789abcdef0123456789abcdef01234567\n").unwrap();
        assert_eq!(branch(&repo).as_deref(), Some("0123456"));

        let wt = tmp.path().join("wt");
        fs::create_dir_all(tmp.path().join("gitdirs/wt")).unwrap();
        fs::create_dir_all(&wt).unwrap();
        fs::write(wt.join(".git"), "gitdir: ../gitdirs/wt\n").unwrap();
        fs::write(tmp.path().join("gitdirs/wt/HEAD"), "ref: refs/heads/main\n").unwrap();
        assert_eq!(branch(&wt).as_deref(), Some("main"));

        assert_eq!(branch(Path::new("/proc/self")), None);
    }
}
