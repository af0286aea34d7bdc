//! `.planning/phases/NN-slug/` (in the live directory, see [`Layout`]): which phase
//! directories exist and what they hold (CONTEXT, RESEARCH, PLAN/SUMMARY pairs, from file
//! names alone) and what their VERIFICATION report says (its frontmatter `status:`).

use std::fs;
use std::path::{Path, PathBuf};

use serde_norway::Value as Yaml;

use super::layout::Layout;
use super::number::{PhaseIds, PhaseNumber, plan_key};
use super::{Bound, Project};
use crate::error::Result;

/// Largest VERIFICATION.md baton reads for its status.
const MAX_VERIFICATION_BYTES: u64 = 256 * 1024;

/// What a phase's `*-VERIFICATION.md` says, as gsd-core reads it (its frontmatter `status:`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verification {
    /// No report, or one without a status.
    Missing,
    Passed,
    GapsFound,
    HumanNeeded,
    /// Another status, as written.
    Unknown(String),
}

/// Most entries baton reads under `.planning/phases/`, phase directories and their files
/// together (a 200-phase project of 10 plans each holds about 4,400).
pub const MAX_ENTRIES: usize = 20_000;

/// One phase directory and the artifacts in it.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseDir {
    pub number: PhaseNumber,
    /// `api-endpoints` of `03-api-endpoints`.
    pub slug: String,
    pub path: PathBuf,
    /// Plan ids (`03-02`) with a PLAN file, sorted.
    pub plans: Vec<String>,
    /// Plan ids with a SUMMARY file, sorted.
    pub summaries: Vec<String>,
    pub has_context: bool,
    pub has_research: bool,
    pub has_verification: bool,
    pub verification: Verification,
}

impl PhaseDir {
    /// Reads one phase directory, counting its entries against `budget`; `Ok(None)` when its
    /// name carries no phase number or it cannot be listed.
    fn read(path: &Path, ids: PhaseIds, budget: &mut usize) -> Result<Option<Self>, OverBudget> {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let Some(number) = PhaseNumber::prefix_of(name, ids) else {
            return Ok(None);
        };
        let token = token_of(name, &number);
        let slug = name[token.len()..].trim_start_matches('-').to_owned();
        let mut dir = PhaseDir {
            number,
            slug,
            path: path.to_path_buf(),
            plans: Vec::new(),
            summaries: Vec::new(),
            has_context: false,
            has_research: false,
            has_verification: false,
            verification: Verification::Missing,
        };
        let Ok(entries) = fs::read_dir(path) else {
            return Ok(None);
        };
        let mut reports = Vec::new();
        for entry in entries.flatten() {
            *budget = budget.checked_sub(1).ok_or(OverBudget)?;
            let file = entry.file_name();
            let Some(file) = file.to_str() else { continue };
            if let Some(id) = file.strip_suffix("-PLAN.md") {
                dir.plans.push(id.to_owned());
            } else if let Some(id) = file.strip_suffix("-SUMMARY.md") {
                dir.summaries.push(id.to_owned());
            } else if file.ends_with("-CONTEXT.md") {
                dir.has_context = true;
            } else if file.ends_with("-RESEARCH.md") {
                dir.has_research = true;
            } else if file.ends_with("-VERIFICATION.md") || file == "VERIFICATION.md" {
                dir.has_verification = true;
                reports.push(file.to_owned());
            }
        }
        dir.plans.sort_by_key(|id| plan_key(id));
        dir.summaries.sort_by_key(|id| plan_key(id));
        if let Some(report) = phase_report(&reports, token, &dir.number, ids) {
            dir.verification = read_verification(&path.join(report));
        }
        Ok(Some(dir))
    }

    /// Path of a file of this phase: `<dir>/<id>-<KIND>.md`.
    pub fn file(&self, id: &str, kind: &str) -> PathBuf {
        self.path.join(format!("{id}-{kind}.md"))
    }

    /// Path of a phase-level file such as CONTEXT or RESEARCH, whatever its number prefix.
    pub fn phase_file(&self, kind: &str) -> Option<PathBuf> {
        let suffix = format!("-{kind}.md");
        let entries = fs::read_dir(&self.path).ok()?;
        entries.flatten().map(|e| e.path()).find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(&suffix))
        })
    }
}

/// The phase number as a directory name spells it: `03` of `03-cart`, `01-02` of `01-02-cart`.
pub fn token_of<'a>(name: &'a str, number: &PhaseNumber) -> &'a str {
    let run = |s: &str| s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let first = run(name);
    match name[first..].strip_prefix('-') {
        Some(rest) if number.milestone().is_some() => &name[..first + 1 + run(rest)],
        _ => &name[..first],
    }
}

/// The phase's own report among `reports`, as gsd-core picks it: `<token>-VERIFICATION.md`,
/// else the first by name that names this phase, else a bare `VERIFICATION.md`.
fn phase_report<'a>(reports: &'a [String], token: &str, number: &PhaseNumber, ids: PhaseIds) -> Option<&'a str> {
    let own = format!("{token}-VERIFICATION.md");
    if let Some(exact) = reports.iter().find(|r| **r == own) {
        return Some(exact);
    }
    let mut named: Vec<&String> = reports
        .iter()
        .filter(|r| r.as_str() != "VERIFICATION.md" && PhaseNumber::prefix_of(r, ids).as_ref() == Some(number))
        .collect();
    named.sort();
    named
        .first()
        .map(|r| r.as_str())
        .or_else(|| reports.iter().find(|r| *r == "VERIFICATION.md").map(String::as_str))
}

/// The `status:` of a VERIFICATION report's frontmatter.
fn read_verification(path: &Path) -> Verification {
    let Ok(bytes) = crate::fsx::read_regular(path, MAX_VERIFICATION_BYTES) else {
        return Verification::Missing;
    };
    let text = String::from_utf8_lossy(&bytes)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    let status = super::state::split_frontmatter(&text)
        .0
        .and_then(|fm| super::yaml::parse::<Yaml>(fm).ok())
        .and_then(|fm| fm.get("status").and_then(Yaml::as_str).map(|s| s.trim().to_owned()))
        .filter(|s| !s.is_empty());
    match status.as_deref() {
        None => Verification::Missing,
        Some("passed") => Verification::Passed,
        Some("gaps_found") => Verification::GapsFound,
        Some("human_needed") => Verification::HumanNeeded,
        Some(other) => Verification::Unknown(other.to_owned()),
    }
}

/// More entries than [`MAX_ENTRIES`].
struct OverBudget;

/// Every phase directory of the project (in its live directory), ordered by phase number; an
/// error when `phases/` holds more than [`MAX_ENTRIES`] entries.
pub fn scan(project: &Project) -> Result<Vec<PhaseDir>> {
    scan_in(&Layout::of(project))
}

/// [`scan`] in a layout already read.
pub fn scan_in(layout: &Layout) -> Result<Vec<PhaseDir>> {
    let phases = layout.live.join("phases");
    let Ok(entries) = fs::read_dir(&phases) else {
        return Ok(Vec::new());
    };
    let too_many = || super::past_a_bound(&phases, Bound::PhaseEntries { max: MAX_ENTRIES });
    let mut budget = MAX_ENTRIES;
    let mut dirs = Vec::new();
    for entry in entries.flatten() {
        budget = budget.checked_sub(1).ok_or_else(too_many)?;
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        if let Some(dir) = PhaseDir::read(&entry.path(), layout.ids, &mut budget).map_err(|OverBudget| too_many())? {
            dirs.push(dir);
        }
    }
    dirs.sort_by(|a, b| a.number.cmp(&b.number));
    Ok(dirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_artifacts_from_names() {
        let tmp = tempfile::tempdir().unwrap();
        let phases = tmp.path().join("phases");
        let dir = phases.join("02.1-hot-fix");
        fs::create_dir_all(&dir).unwrap();
        for f in [
            "02.1-CONTEXT.md",
            "02.1-01-PLAN.md",
            "02.1-01-SUMMARY.md",
            "02.1-02-PLAN.md",
            "02.1-10-PLAN.md",
            ".continue-here.md",
        ] {
            fs::write(dir.join(f), "x").unwrap();
        }
        fs::create_dir_all(phases.join("01-setup")).unwrap();
        fs::create_dir_all(phases.join("notes")).unwrap();
        let found = scan_in(&Layout::classic(tmp.path())).unwrap();
        assert_eq!(found.len(), 2);
        let hot = &found[1];
        assert_eq!(
            (hot.number.to_string(), hot.slug.as_str()),
            ("2.1".to_owned(), "hot-fix")
        );
        assert_eq!(hot.plans, ["02.1-01", "02.1-02", "02.1-10"]);
        assert_eq!(hot.summaries, ["02.1-01"]);
        assert!(hot.has_context && !hot.has_research);
        assert!(hot.phase_file("CONTEXT").unwrap().ends_with("02.1-CONTEXT.md"));
        assert_eq!(hot.verification, Verification::Missing);
    }

    #[test]
    fn reads_the_phases_own_verification_status_and_milestone_prefixed_dirs() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("phases/01-02-cart");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("01-02-01-PLAN.md"), "x").unwrap();
        fs::write(dir.join("01-02-CORRECTION-VERIFICATION.md"), "no frontmatter").unwrap();
        fs::write(
            dir.join("01-02-VERIFICATION.md"),
            "---\r\nphase: 1-02\r\nstatus: passed\r\n---\r\n# Report\nstatus: gaps_found\n",
        )
        .unwrap();
        let mut layout = Layout::classic(tmp.path());
        layout.ids = PhaseIds::MilestonePrefixed;
        let found = scan_in(&layout).unwrap();
        assert_eq!(
            (found[0].number.to_string(), found[0].slug.as_str()),
            ("1-02".to_owned(), "cart")
        );
        assert_eq!(found[0].plans, ["01-02-01"]);
        assert_eq!(found[0].verification, Verification::Passed);
        fs::remove_file(dir.join("01-02-VERIFICATION.md")).unwrap();
        fs::write(dir.join("01-02-VERIFICATION.md"), "---\nstatus: human_needed\n---\n").unwrap();
        assert_eq!(scan_in(&layout).unwrap()[0].verification, Verification::HumanNeeded);
        fs::write(dir.join("01-02-VERIFICATION.md"), "---\nstatus: failed\n---\n").unwrap();
        assert_eq!(
            scan_in(&layout).unwrap()[0].verification,
            Verification::Unknown("failed".into())
        );
        // Read sequentially, the same directory is phase 1 with a slug of "02-cart".
        let seq = scan_in(&Layout::classic(tmp.path())).unwrap();
        assert_eq!(
            (seq[0].number.to_string(), seq[0].slug.as_str()),
            ("1".to_owned(), "02-cart")
        );
    }
}
