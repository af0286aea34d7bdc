//! The spot-check: what a finished run claims (its final message) against the repository —
//! the files it names exist and are its own work, removed ones are gone, named commits
//! exist, a plan it says it completed has its SUMMARY. Any refuted claim flags the run.
//!
//! Whose work a file is: the run's own Write/Edit calls (recorded by PostToolUse) settle it.
//! Otherwise git (or the clock) must show the file changed during the run, and no other run
//! going on at the same time may have written it with its own calls: with parallel agents in
//! one work tree, a change seen by git may be anyone's.

mod text;

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use super::claims::{self, Claims};
use super::ledger::{self, Run};
use super::plans;
use super::verification::{Check, Kind, Verdict, Verification};
use crate::clock;
use crate::git;
use crate::planning::Project;
pub use text::{orchestrator_text, subagent_text};

/// Filesystem and clock granularity allowed when comparing a file's mtime to the start.
const MTIME_SLACK_MS: i64 = 1_000;

/// Checks a run's final message against the repository.
pub fn verify(project: &Project, run: &Run) -> Verification {
    let message = run.last_message.as_deref().unwrap_or("");
    let claims: Claims = claims::extract(message);
    let context = Context::of(project, run);
    let mut checks = Vec::new();
    for path in &claims.files {
        checks.push(context.file(Kind::File, path));
    }
    for path in &claims.removed {
        checks.push(context.removed(path));
    }
    for hash in &claims.commits {
        checks.push(context.commit(hash));
    }
    for id in &claims.plans {
        let Ok((phase, plan)) = plans::find_plan(project, id) else {
            continue; // not a plan of this project: a number that looked like an id
        };
        let summary = phase.file(&plan.id, "SUMMARY");
        let shown = crate::platform::path::below(&summary, &project.root);
        if checks.iter().any(|c| context.same_file(&c.claim, &summary)) {
            continue;
        }
        let absolute = summary.display().to_string();
        let mut check = context.file(Kind::Summary, &absolute);
        check.detail = check.detail.replace(&absolute, &shown);
        check.claim = shown;
        if check.verdict == Verdict::Refuted {
            check.detail = format!("plan {} is reported complete but {}", plan.id, check.detail);
        }
        checks.push(check);
    }
    Verification {
        checked_at: ledger::now(),
        reports_success: claims.reports_success,
        flagged: checks.iter().any(|c| c.verdict == Verdict::Refuted),
        checks,
    }
}

/// What a check needs from the run.
struct Context<'a> {
    project: &'a Project,
    run: &'a Run,
    bases: Vec<PathBuf>,
    worktree: Option<PathBuf>,
    changed: Option<&'a [String]>,
    dirty_at_start: &'a std::collections::BTreeMap<String, String>,
    started_ms: Option<i64>,
    /// Files the run wrote with its own tool calls, absolute.
    own_edits: Vec<PathBuf>,
    /// Other runs that overlapped this one in time and wrote files with their own tool calls:
    /// (run id, its files, absolute). Read from the ledger on first need.
    overlapping: OnceCell<Vec<(String, Vec<PathBuf>)>>,
}

impl<'a> Context<'a> {
    fn of(project: &'a Project, run: &'a Run) -> Self {
        let worktree = run.worktree.as_deref().map(PathBuf::from);
        let mut bases: Vec<PathBuf> = Vec::new();
        for base in [
            run.cwd.as_deref().map(PathBuf::from),
            worktree.clone(),
            Some(project.root.clone()),
        ]
        .into_iter()
        .flatten()
        {
            if !bases.contains(&base) {
                bases.push(base);
            }
        }
        Context {
            project,
            run,
            bases,
            worktree,
            changed: run.files_changed.as_deref(),
            dirty_at_start: &run.dirty_at_start,
            started_ms: run.started_ms(),
            own_edits: real_paths(run),
            overlapping: OnceCell::new(),
        }
    }

    /// The run, other than this one and going on at the same time, that wrote `found` with
    /// its own tool calls.
    fn written_by_other(&self, found: &Path) -> Option<&str> {
        let overlapping = self.overlapping.get_or_init(|| {
            let (runs, _) = ledger::list(self.project);
            runs.into_iter()
                .filter(|other| other.id != self.run.id && !other.tool_edits.is_empty() && other.overlaps(self.run))
                .map(|other| (other.id.clone(), real_paths(&other)))
                .collect()
        });
        overlapping
            .iter()
            .find(|(_, edits)| edits.contains(&real_path(found)))
            .map(|(id, _)| id.as_str())
    }

    /// Where a claimed path is: as written (absolute) or below the first base holding it;
    /// a bare file name may also match a changed file in any directory.
    fn locate(&self, claim: &str) -> Option<PathBuf> {
        let path = Path::new(claim);
        if path.is_absolute() {
            return path.symlink_metadata().is_ok().then(|| path.to_path_buf());
        }
        if let Some(found) = self
            .bases
            .iter()
            .map(|b| b.join(path))
            .find(|p| p.symlink_metadata().is_ok())
        {
            return Some(found);
        }
        if claim.contains('/') {
            return None;
        }
        let suffix = format!("/{claim}");
        let changed = self.changed?.iter().find(|c| c.ends_with(&suffix))?;
        let found = self.worktree.as_ref()?.join(changed);
        found.symlink_metadata().is_ok().then_some(found)
    }

    fn same_file(&self, claim: &str, path: &Path) -> bool {
        self.locate(claim).is_some_and(|p| p == path)
    }

    fn file(&self, kind: Kind, claim: &str) -> Check {
        let check = |verdict, detail: String| Check {
            kind,
            claim: claim.to_owned(),
            verdict,
            detail,
        };
        let Some(found) = self.locate(claim) else {
            return check(Verdict::Refuted, format!("{claim} does not exist"));
        };
        if self.own_edits.contains(&real_path(&found)) {
            return check(Verdict::Confirmed, "written by this run's own edits".into());
        }
        if let Some(other) = self.written_by_other(&found) {
            return check(
                Verdict::Refuted,
                format!("{claim} was written by run {other}, which ran at the same time, not by this one"),
            );
        }
        let (verdict, detail) = self.changed_during_run(claim, &found);
        if verdict == Verdict::Confirmed && !self.own_edits.is_empty() {
            // The run recorded edits of its own, and this is not one of them: a command it ran
            // may have written it, or another process may have.
            return check(
                Verdict::Unchecked,
                format!("{detail}, but not by this run's own edits (a command it ran, or someone else)"),
            );
        }
        check(verdict, detail)
    }

    /// What git (or the file's mtime) says about `found` changing during the run.
    fn changed_during_run(&self, claim: &str, found: &Path) -> (Verdict, String) {
        let relative = self.worktree.as_ref().and_then(|w| found.strip_prefix(w).ok());
        let relative = relative.map(crate::platform::path::shown);
        if let Some(rel) = &relative {
            if self.changed.is_some_and(|c| c.contains(rel)) {
                return (Verdict::Confirmed, "changed during the run".into());
            }
            // Dirty before the start and the same now: someone else's uncommitted work.
            if self
                .dirty_at_start
                .get(rel)
                .is_some_and(|before| *before == git::fingerprint(found))
            {
                return (
                    Verdict::Refuted,
                    format!("{claim} exists but did not change during the run (it was already modified before)"),
                );
            }
        }
        let modified = modified_ms(found);
        match (self.started_ms, modified) {
            (Some(start), Some(m)) if m + MTIME_SLACK_MS >= start => {
                (Verdict::Confirmed, "modified during the run".into())
            }
            (Some(_), Some(m)) => (
                Verdict::Refuted,
                format!(
                    "{claim} exists but did not change during the run (last modified {})",
                    clock::utc_rfc3339(m)
                ),
            ),
            _ => (
                Verdict::Unchecked,
                "exists; no start time recorded to tell when it changed".into(),
            ),
        }
    }

    fn removed(&self, claim: &str) -> Check {
        let (verdict, detail) = match self.locate(claim) {
            Some(_) => (
                Verdict::Refuted,
                format!("{claim} was reported removed but still exists"),
            ),
            None => (Verdict::Confirmed, "gone".to_owned()),
        };
        Check {
            kind: Kind::Removed,
            claim: claim.to_owned(),
            verdict,
            detail,
        }
    }

    fn commit(&self, hash: &str) -> Check {
        let answer = match &self.worktree {
            Some(dir) => git::commit_exists(dir, hash),
            None => None,
        };
        let (verdict, detail) = match answer {
            Some(true) => (Verdict::Confirmed, "commit exists".to_owned()),
            Some(false) => (
                Verdict::Refuted,
                format!("commit {hash} does not exist in this repository"),
            ),
            None if self.worktree.is_none() => (Verdict::Unchecked, "the project is not a git work tree".to_owned()),
            None => (Verdict::Unchecked, "git could not be asked".to_owned()),
        };
        Check {
            kind: Kind::Commit,
            claim: hash.to_owned(),
            verdict,
            detail,
        }
    }
}

/// A path with its symlinks resolved when it exists, so two spellings of one file compare equal.
fn real_path(path: &Path) -> PathBuf {
    crate::platform::path::canonical(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The files a run wrote with its own tool calls, as [`real_path`]s.
fn real_paths(run: &Run) -> Vec<PathBuf> {
    run.tool_edits_absolute().iter().map(|p| real_path(p)).collect()
}

fn modified_ms(path: &Path) -> Option<i64> {
    let modified = path.symlink_metadata().ok()?.modified().ok()?;
    let since = modified.duration_since(std::time::UNIX_EPOCH).ok()?;
    i64::try_from(since.as_millis()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn checks_files_against_the_ledger_and_the_clock() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        fs::create_dir_all(root.join("db")).unwrap();
        fs::write(root.join("db/001_users.sql"), "create table users();").unwrap();
        fs::write(root.join("old.md"), "x").unwrap();
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        fs::File::options()
            .write(true)
            .open(root.join("old.md"))
            .unwrap()
            .set_modified(past)
            .unwrap();
        let run = Run {
            id: "a1".into(),
            started_at: Some(ledger::now()),
            cwd: Some(root.display().to_string()),
            worktree: Some(root.display().to_string()),
            files_changed: Some(vec!["db/001_users.sql".into()]),
            last_message: Some(
                "Created db/001_users.sql and src/ghost.rs. Updated old.md. Removed db/gone.sql.".into(),
            ),
            ..Run::default()
        };
        let project = Project { root };
        let v = verify(&project, &run);
        let verdicts: Vec<(&str, Verdict)> = v.checks.iter().map(|c| (c.claim.as_str(), c.verdict)).collect();
        assert_eq!(
            verdicts,
            [
                ("db/001_users.sql", Verdict::Confirmed),
                ("src/ghost.rs", Verdict::Refuted),
                ("old.md", Verdict::Refuted),
                ("db/gone.sql", Verdict::Confirmed),
            ]
        );
        assert!(v.flagged && v.reports_success);
        let text = orchestrator_text(&run, &v);
        assert!(
            text.contains("src/ghost.rs does not exist") && text.contains("old.md exists but did not change"),
            "{text}"
        );
        assert!(text.contains("baton agents verify a1"));
        assert!(subagent_text(&v).contains("- src/ghost.rs does not exist\n"));
    }
}
