//! The GSD segment (`milestone NN% · Phase 3/8 name · status`). Reading a big project's
//! planning files costs more than the rest of the render, so the segment is kept in a small
//! per-project cache in the temp dir, sealed with the files' [`Fingerprint`]: STATE.md,
//! ROADMAP.md, config.json, `phases/` and the directories of the phases the percentage
//! counts and the roadmap does not check. A render whose seal matches reads the cache and
//! `stat`s those (no listing, no planning file read); any change recomputes.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::context::bridge::GENERATOR;
use crate::error::Result;
use crate::fsx;
use crate::planning::Project;
use crate::planning::fingerprint::Fingerprint;
use crate::planning::number::PhaseNumber;
use crate::planning::progress::Progress;
use crate::planning::state::PlanningState;

/// The cache's name after the project part.
const CACHE_NAME: &str = "gsd.json";
/// Bigger than the cache of any project within the planning readers' bounds (a larger one
/// is not read, and the segment is computed every time).
const MAX_CACHE_BYTES: u64 = 1024 * 1024;

/// The cache file's contents.
#[derive(Debug, Serialize, Deserialize)]
struct Cached {
    /// For the temp-dir sweep.
    generator: String,
    /// The baton that wrote it; another version's cache is not read.
    version: String,
    /// The project it describes (names are hashes of the root, which may collide).
    root: PathBuf,
    /// The seal's digest and the phase directories (and reports) it covers, one a line (one
    /// string reads faster than a list, and no name holds a line break).
    digest: u64,
    phase_dirs: String,
    segment: Option<String>,
}

/// The segment for a project with STATE.md, from the cache when the planning files have not
/// changed since it was written, else from the files. `None` when there is no STATE.md or a
/// file is past one of the planning readers' bounds (the rest of the line stays).
pub fn segment(project: &Project) -> Option<String> {
    if !project.has_planning_state() {
        return None;
    }
    let Ok(path) = fsx::project_cache_path(&project.root, CACHE_NAME) else {
        // No private directory: compute every time, never cache where others could write.
        return compute(project).ok().and_then(|(segment, _)| segment);
    };
    if let Some(cached) = read_cache(&path)
        && cached.version == env!("CARGO_PKG_VERSION")
        && cached.root == project.root
        && cached.digest == Fingerprint::reseal(project, phase_dirs(&cached.phase_dirs))
    {
        return cached.segment;
    }
    // Metadata first, contents after: a change in between shows as a new time next render.
    let fingerprint = Fingerprint::take(project);
    match compute(project) {
        Ok((segment, open)) => {
            let ids = crate::planning::layout::Layout::of(project).ids;
            let (seal, phase_dirs) =
                fingerprint.seal(|name| PhaseNumber::prefix_of(name, ids).is_some_and(|n| open.contains(&n)));
            // A seal with young times could match files changed after this read.
            if seal.settled() {
                let cached = Cached {
                    generator: GENERATOR.to_owned(),
                    version: env!("CARGO_PKG_VERSION").to_owned(),
                    root: project.root.clone(),
                    digest: seal.digest,
                    phase_dirs: phase_dirs.join("\n"),
                    segment: segment.clone(),
                };
                write_cache(&path, &cached);
            }
            segment
        }
        Err(e) => {
            // Not cached: an unreadable file may become readable without a new time.
            crate::log::note(&format!("statusline: GSD segment left out: {e}"));
            None
        }
    }
}

/// The names in the cache's `phase_dirs`.
fn phase_dirs(names: &str) -> impl Iterator<Item = &str> {
    names.split('\n').filter(|name| !name.is_empty())
}

fn read_cache(path: &Path) -> Option<Cached> {
    // Not through a symlink, only the user's own file, size-capped.
    let bytes = fsx::read_private(path, MAX_CACHE_BYTES).ok()?;
    serde_json::from_slice(&bytes).ok()
}

fn write_cache(path: &Path, cached: &Cached) {
    let written = serde_json::to_vec(cached)
        .map_err(std::io::Error::other)
        .and_then(|json| fsx::write_atomic(path, &json, 0o600, fsx::Durability::Ephemeral));
    if let Err(e) = written {
        crate::log::note(&format!("statusline: GSD cache not written: {e}"));
    }
}

/// The segment from the files: STATE.md's milestone, phase and status, and the progress
/// definition's percentage (the milestone's, else the whole roadmap's); with the phases
/// whose directories can change that percentage.
fn compute(project: &Project) -> Result<(Option<String>, HashSet<PhaseNumber>)> {
    let Some(state) = PlanningState::load(project)? else {
        return Ok((None, HashSet::new()));
    };
    let progress = Progress::load(project)?;
    let scoped = state
        .milestone
        .as_deref()
        .map(|m| progress.for_milestone(m))
        .filter(|p| p.total_phases > 0);
    let counted = scoped.as_ref().unwrap_or(&progress);
    let open = counted.open_phases().cloned().collect();
    let percent = (counted.total_phases > 0).then(|| format!("{}%", counted.percent));
    let milestone = match (state.milestone, state.milestone_name) {
        (Some(v), Some(n)) if n != "milestone" => Some(format!("{v} {n}")),
        (v, n) => v.or(n),
    };
    let milestone = match (milestone, percent) {
        (Some(m), Some(p)) => Some(format!("{m} {p}")),
        (m, p) => m.or(p),
    };
    let phase = state.phase.map(|p| {
        let numbered = match state.phase_total {
            Some(total) => format!("Phase {p}/{total}"),
            None => format!("Phase {p}"),
        };
        match state.phase_name {
            Some(name) => format!("{numbered} {name}"),
            None => numbered,
        }
    });
    let parts: Vec<String> = [milestone, phase, state.status]
        .into_iter()
        .flatten()
        .map(|s| crate::words::width::one_line(&s))
        .collect();
    Ok(((!parts.is_empty()).then(|| parts.join(" · ")), open))
}
