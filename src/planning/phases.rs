//! `.planning/phases/NN-slug/`: which phase directories exist and what they hold
//! (CONTEXT, RESEARCH, PLAN/SUMMARY pairs, VERIFICATION), from file names alone.

use std::fs;
use std::path::{Path, PathBuf};

use super::number::{PhaseNumber, plan_key};

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
    /// Reads one phase directory; `None` when its name carries no phase number.
    pub fn read(path: &Path) -> Option<Self> {
        let name = path.file_name()?.to_str()?;
        let number = PhaseNumber::prefix_of(name)?;
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
        for entry in fs::read_dir(path).ok()?.flatten() {
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
        Some(dir)
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

/// Every phase directory under `.planning/phases/`, ordered by phase number.
pub fn scan(planning_dir: &Path) -> Vec<PhaseDir> {
    let Ok(entries) = fs::read_dir(planning_dir.join("phases")) else {
        return Vec::new();
    };
    let mut dirs: Vec<PhaseDir> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| PhaseDir::read(&e.path()))
        .collect();
    dirs.sort_by(|a, b| a.number.cmp(&b.number));
    dirs
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
        let found = scan(tmp.path());
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
