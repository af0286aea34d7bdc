//! Finds a session's transcripts: `<config>/projects/<project>/<session>.jsonl` and its
//! subagents' `<session>/subagents/agent-*.jsonl`, from a hook payload, a session id, a
//! path, or the newest transcript of the working directory's project.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::error::{Error, Result};
use crate::fsx::is_safe_session_id;

/// Claude Code cuts longer project directory names and appends a hash.
const MAX_PROJECT_NAME: usize = 200;

/// How the session is chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionChoice {
    /// The newest transcript of the working directory's project.
    Newest,
    /// A session id, searched in the working directory's project first, then in all.
    Id(String),
    /// A transcript file given by path.
    Transcript(PathBuf),
}

/// The transcripts of one session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionFiles {
    pub session_id: String,
    pub main: PathBuf,
    /// `agent-*.jsonl` under `<session>/subagents/`, sorted.
    pub subagents: Vec<PathBuf>,
}

/// The directory name Claude Code gives a working directory: every character other than
/// an ASCII letter or digit becomes `-` (`/work/my_app` → `-work-my-app`).
pub fn project_dir_name(cwd: &Path) -> String {
    cwd.to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The existing project directories of `cwd` (as given and with symlinks resolved).
fn project_dirs_of(cwd: &Path) -> Vec<PathBuf> {
    let mut names = vec![project_dir_name(cwd)];
    if let Ok(real) = crate::platform::path::canonical(cwd) {
        names.push(project_dir_name(&real));
    }
    names.dedup();
    let mut found = Vec::new();
    for projects in crate::claude_home::projects_dirs() {
        for name in &names {
            if name.len() <= MAX_PROJECT_NAME {
                found.push(projects.join(name));
            } else {
                // `<first 200>-<hash>`: the hash is Claude Code's own; match by prefix.
                let prefix = format!("{}-", &name[..MAX_PROJECT_NAME]);
                found.extend(entries(&projects).filter(|p| file_name(p).starts_with(&prefix)));
            }
        }
    }
    found.retain(|d| d.is_dir());
    found
}

/// Finds the session's transcripts for a command run in `cwd`.
pub fn locate(choice: &SessionChoice, cwd: &Path) -> Result<SessionFiles> {
    let main = match choice {
        SessionChoice::Transcript(path) => {
            if !path.is_file() {
                return Err(Error::Failed(format!(
                    "no transcript at {}; pass the path of a session's .jsonl file",
                    path.display()
                )));
            }
            path.clone()
        }
        SessionChoice::Id(id) => find_by_id(id, cwd)?,
        SessionChoice::Newest => newest(cwd)?,
    };
    Ok(with_subagents(main))
}

fn find_by_id(id: &str, cwd: &Path) -> Result<PathBuf> {
    if !is_safe_session_id(id) {
        return Err(Error::Usage(format!(
            "--session {id:?} is not a session id (letters, digits, '.', '_', '-')"
        )));
    }
    let file = format!("{id}.jsonl");
    let own = project_dirs_of(cwd).into_iter().map(|d| d.join(&file));
    let any = crate::claude_home::projects_dirs()
        .into_iter()
        .flat_map(|p| entries(&p).map(|d| d.join(&file)).collect::<Vec<_>>());
    own.chain(any)
        .find(|p| p.is_file())
        .or_else(|| find_subagent(id, cwd))
        .ok_or_else(|| {
            Error::Failed(format!(
                "no transcript found for session {id} under {}; check the id, or pass --transcript PATH",
                searched()
            ))
        })
}

/// A subagent's own transcript, `<session>/subagents/agent-<id>.jsonl`, by its agent id
/// (with or without `agent-`): the working directory's project first, then every project.
fn find_subagent(id: &str, cwd: &Path) -> Option<PathBuf> {
    let file = format!("agent-{}.jsonl", id.strip_prefix("agent-").unwrap_or(id));
    let own = project_dirs_of(cwd);
    let all = crate::claude_home::projects_dirs()
        .into_iter()
        .flat_map(|p| entries(&p).collect::<Vec<_>>());
    own.into_iter()
        .chain(all)
        .flat_map(|project| entries(&project).collect::<Vec<_>>())
        .map(|session| session.join("subagents").join(&file))
        .find(|p| p.is_file())
}

fn newest(cwd: &Path) -> Result<PathBuf> {
    let newest = project_dirs_of(cwd)
        .iter()
        .flat_map(|dir| entries(dir).filter(|p| p.extension().is_some_and(|e| e == "jsonl")))
        .filter_map(|p| Some((modified(&p)?, p)))
        .max_by_key(|(time, _)| *time);
    newest.map(|(_, p)| p).ok_or_else(|| {
        Error::Failed(format!(
            "no transcript found for {} under {}",
            cwd.display(),
            searched()
        ))
    })
}

/// The session id (the file's stem) and the subagent transcripts beside it.
fn with_subagents(main: PathBuf) -> SessionFiles {
    let session_id = main
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = main.with_file_name(&session_id).join("subagents");
    let mut subagents: Vec<PathBuf> = entries(&dir)
        .filter(|p| {
            let name = file_name(p);
            name.starts_with("agent-") && name.ends_with(".jsonl") && p.is_file()
        })
        .collect();
    subagents.sort();
    SessionFiles {
        session_id,
        main,
        subagents,
    }
}

fn searched() -> String {
    let dirs: Vec<String> = crate::claude_home::projects_dirs()
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    if dirs.is_empty() {
        "no projects directory (HOME unset)".to_owned()
    } else {
        dirs.join(" and ")
    }
}

fn entries(dir: &Path) -> impl Iterator<Item = PathBuf> {
    fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).ok()?.modified().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_names_replace_every_other_character() {
        assert_eq!(project_dir_name(Path::new("/work/my_app.v2")), "-work-my-app-v2");
        assert_eq!(project_dir_name(Path::new("/home/user/proj")), "-home-user-proj");
    }

    #[test]
    fn subagent_transcripts_are_found_beside_the_main_one() {
        let tmp = tempfile::tempdir().unwrap();
        let main = tmp.path().join("s1.jsonl");
        fs::write(&main, "").unwrap();
        let sub = tmp.path().join("s1/subagents");
        fs::create_dir_all(&sub).unwrap();
        for name in ["agent-b.jsonl", "agent-a.jsonl", "notes.txt", "agent-c.json"] {
            fs::write(sub.join(name), "").unwrap();
        }
        let files = locate(&SessionChoice::Transcript(main.clone()), tmp.path()).unwrap();
        assert_eq!(files.session_id, "s1");
        assert_eq!(
            files.subagents,
            vec![sub.join("agent-a.jsonl"), sub.join("agent-b.jsonl")]
        );
        assert!(locate(&SessionChoice::Transcript(tmp.path().join("none.jsonl")), tmp.path()).is_err());
    }

    #[test]
    fn unsafe_ids_are_refused() {
        let err = find_by_id("../../etc/passwd", Path::new("/")).unwrap_err();
        assert!(matches!(err, Error::Usage(_)), "{err}");
    }
}
