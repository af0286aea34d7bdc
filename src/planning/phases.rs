//! `.planning/phases/NN-slug/`: which phase directories exist and what they hold
//! (CONTEXT, RESEARCH, PLAN/SUMMARY pairs, VERIFICATION), from file names alone.

use std::fs;
use std::path::{Path, PathBuf};

use super::number::{PhaseNumber, plan_key};
use crate::error::Result;

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
}

impl PhaseDir {
    /// Reads one phase directory, counting its entries against `budget`; `Ok(None)` when its
    /// name carries no phase number or it cannot be listed.
    fn read(path: &Path, budget: &mut usize) -> Result<Option<Self>, OverBudget> {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let Some(number) = PhaseNumber::prefix_of(name) else {
            return Ok(None);
        };
        let slug = name.split_once('-').map_or("", |(_, s)| s).to_owned();
        let mut dir = PhaseDir {
            number,
            slug,
            path: path.to_path_buf(),
            plans: Vec::new(),
            summaries: Vec::new(),
            has_context: false,
            has_research: false,
            has_verification: false,
        };
        let Ok(entries) = fs::read_dir(path) else {
            return Ok(None);
        };
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
            } else if file.ends_with("-VERIFICATION.md") {
                dir.has_verification = true;
            }
        }
        dir.plans.sort_by_key(|id| plan_key(id));
        dir.summaries.sort_by_key(|id| plan_key(id));
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

/// More entries than [`MAX_ENTRIES`].
struct OverBudget;

/// Every phase directory under `.planning/phases/`, ordered by phase number; an error when
/// it holds more than [`MAX_ENTRIES`] entries.
pub fn scan(planning_dir: &Path) -> Result<Vec<PhaseDir>> {
    let phases = planning_dir.join("phases");
    let Ok(entries) = fs::read_dir(&phases) else {
        return Ok(Vec::new());
    };
    let too_many = || {
        super::past_a_bound(
            &phases,
            &format!("it holds more than {MAX_ENTRIES} entries (phase directories and their files)"),
        )
    };
    let mut budget = MAX_ENTRIES;
    let mut dirs = Vec::new();
    for entry in entries.flatten() {
        budget = budget.checked_sub(1).ok_or_else(too_many)?;
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        if let Some(dir) = PhaseDir::read(&entry.path(), &mut budget).map_err(|OverBudget| too_many())? {
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
        let found = scan(tmp.path()).unwrap();
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
    }
}
