//! Which agent and which files the bridge reads. The agent is a ledger run (an id, a unique
//! prefix, `last`) or a name (`db-coding-agent`, whose newest run is used when no files are
//! given). The files are `--files` (directories expanded with git), or those changed since
//! `--since REV`, or the run's own (git's changes since its start HEAD, plus the paths its
//! Write/Edit calls recorded). `.gitignore` is respected, failing closed (an untracked file
//! git cannot vouch for is not read), baton's own `.baton/` is left out, and a directory
//! reached through a link is never expanded.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use super::read::ReadStats;
use crate::agents::ledger::{self, Run, Status};
use crate::error::{Error, Result};
use crate::git;
use crate::planning::Project;

/// Most files one bridge run considers; the rest are counted as over the budget.
pub const MAX_FILES: usize = 50_000;
/// Most commit messages read for finding ids.
const MAX_COMMITS: usize = 500;

/// What the caller asked for.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// `--agent NAME|RUN`.
    pub agent: Option<String>,
    /// `--files P…` (relative to `cwd`, or absolute).
    pub files: Vec<String>,
    /// `--since REV`.
    pub since: Option<String>,
    /// `--message TEXT`: the final message when there is no run to take it from.
    pub message: Option<String>,
    /// Where relative `--files` start.
    pub cwd: PathBuf,
}

/// The resolved input.
#[derive(Debug, Clone, Default)]
pub struct Input {
    /// The agent's name as shown: the run's type, the given name, or `unknown`.
    pub agent: String,
    pub run: Option<Run>,
    /// The directory `paths` are relative to (the work tree's top).
    pub top: PathBuf,
    /// Files to read, sorted, once each.
    pub paths: Vec<String>,
    /// `(hash, message)` of the commits made during the run (or since `--since`).
    pub commits: Vec<(String, String)>,
    /// The agent's final message, for the `(unstructured)` fallback.
    pub message: Option<String>,
    /// The files left out before any is read: git-ignored, untracked ones git could not say
    /// `.gitignore` does not exclude, outside the work tree, over [`MAX_FILES`].
    pub skipped: ReadStats,
}

/// Resolves `request` in `project`.
pub fn resolve(project: &Project, request: &Request) -> Result<Input> {
    let explicit = !request.files.is_empty() || request.since.is_some();
    let run = match request.agent.as_deref() {
        Some(agent) => find_run(project, agent, !explicit)?,
        None if explicit => None,
        None => Some(ledger::find(project, "last").map_err(|_| {
            Error::Usage(
                "baton bridge needs an agent or files: --agent NAME|RUN, --files P…, or --since REV \
                 (no subagent run is recorded in this project yet)"
                    .into(),
            )
        })?),
    };
    gather(project, run, request)
}

/// The input of a recorded run: its files, commits and final message.
pub fn of_run(project: &Project, run: Run) -> Result<Input> {
    let request = Request {
        cwd: project.root.clone(),
        ..Request::default()
    };
    gather(project, Some(run), &request)
}

fn gather(project: &Project, run: Option<Run>, request: &Request) -> Result<Input> {
    let explicit = !request.files.is_empty() || request.since.is_some();
    let start = run
        .as_ref()
        .and_then(|r| r.worktree.as_deref().or(r.cwd.as_deref()))
        .map_or_else(|| request.cwd.clone(), PathBuf::from);
    // `git status` stats every file of the work tree: taken only when the files come from it.
    let git_top = git::toplevel(&start);
    let in_git = git_top.is_some();
    let top = git_top.unwrap_or_else(|| project.root.clone());
    let snapshot = || if in_git { git::snapshot_at(top.clone()) } else { None };
    // The index is listed (for the ignore check at the end) while the rest is gathered.
    let tracked = in_git.then(|| {
        let top = top.clone();
        std::thread::spawn(move || git::tracked(&top))
    });
    let mut input = Input {
        agent: run
            .as_ref()
            .and_then(|r| r.agent_type.clone())
            .or_else(|| request.agent.clone())
            .unwrap_or_else(|| "unknown".into()),
        message: request
            .message
            .clone()
            .or_else(|| run.as_ref().and_then(|r| r.last_message.clone())),
        top: top.clone(),
        ..Input::default()
    };
    let mut candidates: Vec<PathBuf> = Vec::new();
    // Paths `git status` listed: tracked, or untracked and not ignored (it leaves ignored ones
    // out), so none needs asking of `git check-ignore`.
    let mut listed_by_status: Vec<String> = Vec::new();
    if let Some(rev) = request.since.as_deref() {
        // The commits since and what they changed are asked of git while `git status` (the
        // slowest, it stats every file) runs.
        let (snapshot, since) = std::thread::scope(|scope| {
            let since = scope.spawn(|| {
                let commit = git::resolve_commit(&top, rev)?;
                Some(std::thread::scope(|both| {
                    let messages = both.spawn(|| git::commit_messages(&top, &commit, "HEAD", MAX_COMMITS));
                    let changed = git::changed_between(&top, &commit, "HEAD");
                    (changed, messages.join().ok().flatten())
                }))
            });
            (snapshot(), since.join().ok().flatten())
        });
        let snapshot = snapshot.ok_or_else(|| {
            Error::Failed(format!(
                "--since needs a git work tree; {} is not in one",
                start.display()
            ))
        })?;
        let (changed, commits) =
            since.ok_or_else(|| Error::Usage(format!("--since {rev}: not a commit in {}", top.display())))?;
        let changed =
            changed.ok_or_else(|| Error::Failed(format!("git could not list the files changed since {rev}")))?;
        candidates.extend(snapshot.dirty.iter().chain(&changed).map(|p| top.join(p)));
        listed_by_status.extend(snapshot.dirty);
        input.commits = commits.unwrap_or_default();
    }
    for file in &request.files {
        let path = request.cwd.join(file);
        // A directory is expanded unless it is a link or reached through one (reading what is
        // below it is refused anyway). One lstat for a plain file, as many as its parts for a
        // directory.
        let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        let expand = is_dir && !relative_to(&path, &top).is_some_and(|rel| through_a_link(&top, &rel));
        if expand {
            let below = relative_to(&path, &top).unwrap_or_default();
            let listed = in_git
                .then(|| git::files_below(&top, if below.is_empty() { "." } else { &below }))
                .flatten();
            match listed {
                Some(files) => candidates.extend(files.iter().map(|p| top.join(p))),
                None => walk(&path, &mut candidates),
            }
        } else {
            candidates.push(path);
        }
    }
    if let (false, Some(run)) = (explicit, run.as_ref()) {
        candidates.extend(run_files(run, snapshot).iter().map(|p| top.join(p)));
        candidates.extend(run.tool_edits_absolute());
        if let (Some(from), true) = (run.head_at_start.as_deref(), in_git) {
            let to = run.head_at_end.as_deref().unwrap_or("HEAD");
            if from != to {
                input.commits = git::commit_messages(&top, from, to, MAX_COMMITS).unwrap_or_default();
            }
        }
    }
    let mut paths = Vec::new();
    // Spread over the cores: a full run names thousands of files.
    for relative in crate::bridge::parallel::map(&candidates, |candidate| relative_to(candidate, &top)) {
        match relative {
            Some(path) if !path.is_empty() && !crate::agents::hook::is_baton_state(&path) => paths.push(path),
            Some(_) => {}
            None => input.skipped.outside += 1,
        }
    }
    paths.sort();
    paths.dedup();
    if let Some(tracked) = tracked {
        let vouched = tracked.join().ok().flatten().map(|mut tracked| {
            tracked.extend(listed_by_status);
            tracked
        });
        let (ignored, unverified) = ignored_or_unknown(&top, &paths, vouched);
        input.skipped.ignored = ignored.len();
        input.skipped.unverified = unverified.len();
        paths.retain(|p| !ignored.contains(p) && !unverified.contains(p));
    }
    if paths.len() > MAX_FILES {
        input.skipped.over_budget = paths.len() - MAX_FILES;
        paths.truncate(MAX_FILES);
    }
    input.paths = paths;
    input.run = run;
    Ok(input)
}

/// The paths `.gitignore` excludes, and those git could not say of: fails closed, so a file
/// is read only when git tracks it or says it is not ignored. `known` are the index's files
/// and the untracked ones `git status` listed (it lists no ignored file): no ignore rule to
/// apply; only the others are asked of `git check-ignore`.
fn ignored_or_unknown(
    top: &Path,
    paths: &[String],
    known: Option<std::collections::HashSet<String>>,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let Some(known) = known else {
        return (BTreeSet::new(), paths.iter().cloned().collect());
    };
    // One reached through a directory link is left to the reader, which refuses it (git
    // would refuse the whole question over it).
    let untracked: Vec<&str> = paths
        .iter()
        .map(String::as_str)
        .filter(|p| !known.contains(*p))
        .filter(|p| !p.rsplit_once('/').is_some_and(|(dir, _)| through_a_link(top, dir)))
        .collect();
    match git::ignored(top, &untracked) {
        Some(ignored) => (ignored, BTreeSet::new()),
        None => (BTreeSet::new(), untracked.into_iter().map(str::to_owned).collect()),
    }
}

/// Whether a part of `relative` (below `top`), the last included, is a symbolic link.
fn through_a_link(top: &Path, relative: &str) -> bool {
    let mut path = top.to_path_buf();
    relative.split('/').filter(|p| !p.is_empty()).any(|part| {
        path.push(part);
        std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink())
    })
}

/// The run named by `agent`: an id, a unique prefix of six or more characters, or `last`;
/// otherwise `agent` is an agent type, whose newest finished run is used when `need_run`.
fn find_run(project: &Project, agent: &str, need_run: bool) -> Result<Option<Run>> {
    let (runs, _) = ledger::list(project);
    if agent == "last" {
        return ledger::find(project, "last").map(Some);
    }
    if let Some(run) = runs.iter().find(|r| r.id == agent) {
        return Ok(Some(run.clone()));
    }
    let prefixed: Vec<&Run> = runs
        .iter()
        .filter(|r| agent.len() >= 6 && r.id.starts_with(agent))
        .collect();
    if let [run] = prefixed.as_slice() {
        return Ok(Some((*run).clone()));
    }
    if !need_run {
        return Ok(None);
    }
    let newest = runs
        .iter()
        .rev()
        .find(|r| r.agent_type.as_deref() == Some(agent) && r.status == Status::Finished);
    newest.cloned().map(Some).ok_or_else(|| {
        Error::Usage(format!(
            "no finished run of '{agent}' is recorded in {}; give the files with --files P… or --since REV",
            ledger::dir(project).display()
        ))
    })
}

/// The files git says the run changed: as recorded at its stop, or computed now from its start.
fn run_files(run: &Run, now: impl FnOnce() -> Option<git::Snapshot>) -> Vec<String> {
    if let Some(files) = &run.files_changed {
        return files.clone();
    }
    now()
        .and_then(|now| git::changed_since(&now, run.head_at_start.as_deref(), &run.dirty_at_start))
        .unwrap_or_default()
}

/// `path` relative to `top` with `/`, `..` resolved lexically (then through symlinks of the
/// directories, as git reports the real top); `None` when it is outside.
fn relative_to(path: &Path, top: &Path) -> Option<String> {
    let clean = lexical(path);
    let relative = match clean.strip_prefix(top) {
        Ok(r) => r.to_path_buf(),
        Err(_) => {
            let parent = crate::platform::path::canonical(clean.parent()?).ok()?;
            let top = crate::platform::path::canonical(top).ok()?;
            parent.strip_prefix(&top).ok()?.join(clean.file_name()?)
        }
    };
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// `a/./b/../c` → `a/c`, without touching the file system.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Every regular file below `dir`, without following symlinks (outside git).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else { continue };
            let name = entry.file_name();
            if kind.is_dir() && name != ".git" && name != "node_modules" {
                pending.push(entry.path());
            } else if !kind.is_dir() {
                out.push(entry.path());
            }
            if out.len() > MAX_FILES * 2 {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_made_relative_to_the_top() {
        let top = Path::new("/p");
        assert_eq!(
            relative_to(Path::new("/p/src/../db/a.sql"), top).as_deref(),
            Some("db/a.sql")
        );
        assert_eq!(relative_to(Path::new("/elsewhere/x"), top), None);
        assert_eq!(relative_to(Path::new("/p/../p2/x"), top), None);
    }
}
