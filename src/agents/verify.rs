//! The spot-check: what a finished run claims (its final message) against the repository —
//! the files it names exist and changed during the run, removed ones are gone, named commits
//! exist, a plan it says it completed has its SUMMARY. Any refuted claim flags the run.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::claims::{self, Claims};
use super::ledger::{self, Run};
use super::plans;
use crate::git;
use crate::planning::Project;

/// Filesystem and clock granularity allowed when comparing a file's mtime to the start.
const MTIME_SLACK_MS: i64 = 1_000;

/// What was claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    File,
    Removed,
    Commit,
    Summary,
}

/// The outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Confirmed,
    Refuted,
    /// Could not be checked (no git, no start time); never flags a run.
    Unchecked,
}

/// One claim and what the repository says about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub kind: Kind,
    pub claim: String,
    pub verdict: Verdict,
    pub detail: String,
}

/// The spot-check of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verification {
    pub checked_at: String,
    /// Whether the final message reads as success (heuristic).
    pub reports_success: bool,
    /// True when any claim was refuted.
    pub flagged: bool,
    pub checks: Vec<Check>,
}

impl Verification {
    /// The refuted checks.
    pub fn problems(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| c.verdict == Verdict::Refuted)
    }
}

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
        let shown = super::relative(&summary, &project.root).display().to_string();
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
        checked_at: ledger::now_rfc3339(),
        reports_success: claims.reports_success,
        flagged: checks.iter().any(|c| c.verdict == Verdict::Refuted),
        checks,
    }
}

/// What a check needs from the run.
struct Context<'a> {
    bases: Vec<PathBuf>,
    worktree: Option<PathBuf>,
    changed: Option<&'a [String]>,
    dirty_at_start: &'a std::collections::BTreeMap<String, String>,
    started_ms: Option<i64>,
}

impl<'a> Context<'a> {
    fn of(project: &Project, run: &'a Run) -> Self {
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
            bases,
            worktree,
            changed: run.files_changed.as_deref(),
            dirty_at_start: &run.dirty_at_start,
            started_ms: run.started_ms(),
        }
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
        let relative = self.worktree.as_ref().and_then(|w| found.strip_prefix(w).ok());
        let relative = relative.map(|r| r.to_string_lossy().into_owned());
        if let Some(rel) = &relative {
            if self.changed.is_some_and(|c| c.contains(rel)) {
                return check(Verdict::Confirmed, "changed during the run".into());
            }
            // Dirty before the start and the same now: someone else's uncommitted work.
            if self
                .dirty_at_start
                .get(rel)
                .is_some_and(|before| *before == git::fingerprint(&found))
            {
                return check(
                    Verdict::Refuted,
                    format!("{claim} exists but did not change during the run (it was already modified before)"),
                );
            }
        }
        let modified = modified_ms(&found);
        match (self.started_ms, modified) {
            (Some(start), Some(m)) if m + MTIME_SLACK_MS >= start => {
                check(Verdict::Confirmed, "modified during the run".into())
            }
            (Some(_), Some(m)) => check(
                Verdict::Refuted,
                format!(
                    "{claim} exists but did not change during the run (last modified {})",
                    format_ms(m)
                ),
            ),
            _ => check(
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

fn modified_ms(path: &Path) -> Option<i64> {
    let modified = path.symlink_metadata().ok()?.modified().ok()?;
    let since = modified.duration_since(std::time::UNIX_EPOCH).ok()?;
    i64::try_from(since.as_millis()).ok()
}

fn format_ms(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms).map_or_else(
        || ms.to_string(),
        |t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    )
}

/// Most refuted claims a hook lists; the rest are counted (`baton agents verify` shows all).
const MAX_LISTED: usize = 20;

/// `- reason` lines for the refuted checks, at most [`MAX_LISTED`] of them.
fn problem_lines(verification: &Verification) -> String {
    let mut lines = String::new();
    for check in verification.problems().take(MAX_LISTED) {
        lines.push_str(&format!("- {}\n", check.detail));
    }
    let more = verification.problems().count().saturating_sub(MAX_LISTED);
    if more > 0 {
        lines.push_str(&format!("- … and {more} more\n"));
    }
    lines
}

/// SubagentStop context for a flagged run, read by the subagent itself (Claude Code feeds it
/// back to the agent, which continues): what does not hold, and what to do about it.
pub fn subagent_text(verification: &Verification) -> String {
    let mut text = String::from("baton spot-check: your final report does not match the repository:\n");
    text.push_str(&problem_lines(verification));
    text.push_str(
        "If that work is missing, do it now; otherwise end with a corrected report that names only \
         the files, commits and plans you actually created, changed or completed.",
    );
    text
}

/// Context for the orchestrator after its `Agent` call returned a flagged run.
pub fn orchestrator_text(run: &Run, verification: &Verification) -> String {
    let kind = run.agent_type.as_deref().unwrap_or("subagent");
    let mut text = format!(
        "baton spot-check: the {kind} run {} reported work that the repository does not show:\n",
        run.id
    );
    text.push_str(&problem_lines(verification));
    text.push_str(&format!(
        "Do not rely on its report until this is resolved; details: `baton agents verify {}`.",
        run.id
    ));
    text
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
            started_at: Some(ledger::now_rfc3339()),
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
