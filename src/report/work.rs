//! The report's account of the work: commits since the session started (`git log`, with a
//! timeout and a null stdin), the plans executed and phases progressed (the planning files,
//! measured by the one progress definition), blockers, decisions and the next steps
//! (STATE.md and HANDOFF.json).

use std::collections::BTreeSet;
use std::path::Path;

use serde::Serialize;

use crate::clock::utc_rfc3339;
use crate::continuity::handoff::Handoff;
use crate::planning::phases;
use crate::planning::snapshot::{Position, Snapshot};

/// At most this many commits are read (a session that long is reported in part).
const MAX_COMMITS: usize = 1000;

/// One commit of the session.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Commit {
    pub hash: String,
    pub short: String,
    pub time: String,
    pub subject: String,
}

/// A plan whose SUMMARY was written during the session.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanDone {
    pub plan: String,
    pub phase: String,
    /// The SUMMARY file, relative to the project root, with `/` between its parts.
    pub summary: String,
}

/// A phase the session moved forward, as it stands now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseProgress {
    pub phase: String,
    pub name: String,
    pub plans_done: usize,
    pub plans_total: usize,
    pub done: bool,
}

/// What the session did, and what stands in the way.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Work {
    /// `false` outside a git work tree (or when git did not answer in time).
    pub git: bool,
    pub commits: Vec<Commit>,
    pub files_changed: usize,
    pub insertions: u64,
    pub deletions: u64,
    pub uncommitted_files: Vec<String>,
    /// Where the work stands, when the project has `.planning/`.
    pub position: Option<Position>,
    pub progress_percent: Option<u8>,
    pub plans_executed: Vec<PlanDone>,
    pub phases_progressed: Vec<PhaseProgress>,
    pub blockers: Vec<String>,
    pub human_actions: Vec<String>,
    pub decisions: Vec<String>,
    pub next_steps: Vec<String>,
}

/// Gathers the work of the session that started at `start_ms` in the project at `root`.
pub fn gather(root: &Path, start_ms: Option<i64>, planning: Option<&Snapshot>, handoff: Option<&Handoff>) -> Work {
    let mut work = Work::default();
    let mut session_paths = BTreeSet::new();
    if let Some(log) = git_log(root, start_ms) {
        work.git = true;
        work.commits = log.commits;
        work.files_changed = log.paths.len();
        work.insertions = log.insertions;
        work.deletions = log.deletions;
        session_paths = log.paths;
        work.uncommitted_files = crate::continuity::worktree::uncommitted_files(root).unwrap_or_default();
    }
    if let Some(snapshot) = planning {
        work.position = Some(snapshot.position());
        work.progress_percent = Some(snapshot.progress.percent);
        work.plans_executed = plans_executed(root, start_ms, &session_paths, &work);
        work.phases_progressed = phases_progressed(snapshot, &work.plans_executed);
        if let Some(state) = &snapshot.state {
            for (list, items) in [
                (&mut work.blockers, &state.blockers),
                (&mut work.decisions, &state.decisions),
            ] {
                for item in items {
                    if !list.contains(item) {
                        list.push(item.clone());
                    }
                }
            }
        }
    }
    if let Some(handoff) = handoff {
        add_handoff(&mut work, handoff);
    }
    work.next_steps = next_steps(planning, handoff, &work);
    work
}

struct GitLog {
    commits: Vec<Commit>,
    paths: BTreeSet<String>,
    insertions: u64,
    deletions: u64,
}

/// `git log --numstat` since the session started; `None` outside a git work tree. With no
/// known start (a transcript without timestamps) no commits are listed: all history would
/// be wrong.
fn git_log(root: &Path, start_ms: Option<i64>) -> Option<GitLog> {
    crate::git::output(root, &["rev-parse", "--is-inside-work-tree"])?;
    let mut log = GitLog {
        commits: Vec::new(),
        paths: BTreeSet::new(),
        insertions: 0,
        deletions: 0,
    };
    let (Some(start_ms), Some(_)) = (start_ms, crate::git::head(root)) else {
        return Some(log);
    };
    let since = format!("--since={}", utc_rfc3339(start_ms));
    let max = format!("--max-count={MAX_COMMITS}");
    let out = crate::git::output(
        root,
        &[
            "log",
            &since,
            &max,
            "--no-color",
            "--format=%x1e%H%x1f%h%x1f%aI%x1f%s",
            "--numstat",
            // Paths relative to the project, which may sit below the work tree's top.
            "--relative",
        ],
    )?;
    for record in out.split('\x1e').filter(|r| !r.trim().is_empty()) {
        let mut lines = record.lines();
        let mut head = lines.next().unwrap_or_default().split('\x1f');
        let (Some(hash), Some(short), Some(time), Some(subject)) = (head.next(), head.next(), head.next(), head.next())
        else {
            continue;
        };
        log.commits.push(Commit {
            hash: hash.into(),
            short: short.into(),
            time: time.into(),
            subject: subject.into(),
        });
        for stat in lines.filter(|l| !l.is_empty()) {
            let mut cols = stat.splitn(3, '\t');
            let (Some(added), Some(deleted), Some(path)) = (cols.next(), cols.next(), cols.next()) else {
                continue;
            };
            log.insertions += added.parse::<u64>().unwrap_or(0);
            log.deletions += deleted.parse::<u64>().unwrap_or(0);
            log.paths.insert(path.to_owned());
        }
    }
    Some(log)
}

/// Plans whose SUMMARY a session commit touched, or that is uncommitted (or outside git)
/// and was written after the session started.
fn plans_executed(root: &Path, start_ms: Option<i64>, committed: &BTreeSet<String>, work: &Work) -> Vec<PlanDone> {
    let Some(start_ms) = start_ms else { return Vec::new() };
    let mut done = Vec::new();
    // Past the bound the snapshot already failed; the phases read the same way here.
    let project = crate::planning::Project {
        root: root.to_path_buf(),
    };
    for dir in phases::scan(&project).unwrap_or_default() {
        for id in &dir.summaries {
            let path = dir.file(id, "SUMMARY");
            // As git names it: `/` between the parts on every system.
            let key = crate::platform::path::below(&path, root);
            let fresh = || written_since(&path, start_ms);
            let counted = committed.contains(&key)
                || (!work.git && fresh())
                || (work.uncommitted_files.contains(&key) && fresh());
            if counted {
                done.push(PlanDone {
                    plan: id.clone(),
                    phase: dir.number.to_string(),
                    summary: key,
                });
            }
        }
    }
    done
}

fn written_since(path: &Path, start_ms: i64) -> bool {
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let ms = modified
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_millis() as i64);
    ms.is_some_and(|ms| ms >= start_ms)
}

fn phases_progressed(snapshot: &Snapshot, plans: &[PlanDone]) -> Vec<PhaseProgress> {
    let numbers: BTreeSet<&str> = plans.iter().map(|p| p.phase.as_str()).collect();
    snapshot
        .progress
        .phases
        .iter()
        .filter(|p| numbers.contains(p.number.to_string().as_str()))
        .map(|p| PhaseProgress {
            phase: p.number.to_string(),
            name: p.name.clone(),
            plans_done: p.plans_done,
            plans_total: p.plans_total,
            done: p.done,
        })
        .collect()
}

fn add_handoff(work: &mut Work, handoff: &Handoff) {
    // Compared before decorating: STATE.md's "X" and the handoff's "X (technical)" are one blocker.
    let seen = work.blockers.clone();
    add_once(
        &mut work.blockers,
        seen,
        &handoff.blockers,
        |b| b.description.as_deref(),
        |b| {
            let mut text = b.description.clone().unwrap_or_default();
            if let Some(kind) = b.kind.as_deref().filter(|k| !k.is_empty()) {
                text = format!("{text} ({kind})");
            }
            if let Some(w) = b.workaround.as_deref().filter(|w| !w.is_empty()) {
                text = format!("{text}; workaround: {w}");
            }
            text
        },
    );
    add_once(
        &mut work.human_actions,
        Vec::new(),
        &handoff.human_actions_pending,
        |a| a.action.as_deref(),
        |a| {
            let mut text = a.action.clone().unwrap_or_default();
            if a.blocking {
                text.push_str(" (blocking)");
            }
            text
        },
    );
    let seen = work.decisions.clone();
    add_once(
        &mut work.decisions,
        seen,
        &handoff.decisions,
        |d| d.decision.as_deref(),
        |d| {
            let mut text = d.decision.clone().unwrap_or_default();
            if let Some(r) = d.rationale.as_deref().filter(|r| !r.is_empty()) {
                text = format!("{text}: {r}");
            }
            text
        },
    );
}

/// Adds the text `word` gives each item to `list`, once per `key` (trimmed): an item without
/// a key, or whose key is in `seen` or came before, is skipped, and so is a text already listed.
fn add_once<T>(
    list: &mut Vec<String>,
    mut seen: Vec<String>,
    items: &[T],
    key: impl Fn(&T) -> Option<&str>,
    word: impl Fn(&T) -> String,
) {
    for item in items {
        let key = key(item).unwrap_or_default().trim().to_owned();
        if key.is_empty() || seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let text = word(item);
        if !text.is_empty() && !list.contains(&text) {
            list.push(text);
        }
    }
}

fn next_steps(planning: Option<&Snapshot>, handoff: Option<&Handoff>, work: &Work) -> Vec<String> {
    let mut steps = Vec::new();
    if let Some(next) = handoff.and_then(|h| h.next_action.clone()).filter(|n| !n.is_empty()) {
        steps.push(next);
    }
    if let Some(snapshot) = planning {
        let next = snapshot.next_action();
        steps.push(format!("`{}`: {}", next.command, next.reason));
        if let Some(state) = &snapshot.state {
            steps.extend(state.pending_todos.iter().map(|t| format!("To do: {t}")));
        }
    }
    if !work.human_actions.is_empty() {
        steps.push(format!(
            "{} pending (see Blockers)",
            crate::words::count(work.human_actions.len(), "human action", "human actions")
        ));
    }
    if !work.uncommitted_files.is_empty() {
        steps.push(format!(
            "Commit or stash {}",
            crate::words::count(work.uncommitted_files.len(), "uncommitted file", "uncommitted files")
        ));
    }
    steps
}
