//! PLAN.md frontmatter as orchestration needs it: `wave`, `depends_on`, `files_modified`.
//! Phase directories come from `planning::phases`; this module reads the plans inside.
//! Dependencies written as `01`, `3-1`, `03-01` or `03-01-PLAN.md` all name plan `03-01`.

use std::path::{Path, PathBuf};

use serde_norway::Value as Yaml;

use crate::error::{Error, Result};
use crate::planning::Project;
use crate::planning::number::PhaseNumber;
use crate::planning::phases::{self, PhaseDir};
use crate::planning::state::split_frontmatter;
use crate::planning::yaml::{self, YamlError};

/// Largest PLAN.md baton reads.
const MAX_PLAN_BYTES: u64 = 2 * 1024 * 1024;

/// One plan's orchestration facts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    /// `03-02`, as in the file name.
    pub id: String,
    pub path: PathBuf,
    /// `wave:` as written, when it is a positive number.
    pub wave: Option<u32>,
    /// Plan ids, as written (see [`PlanKey`] to compare them).
    pub depends_on: Vec<String>,
    pub files_modified: Vec<String>,
    /// Why the frontmatter could not be read, when it could not.
    pub problem: Option<String>,
}

/// A plan id compared numerically: `03-01`, `3-1` and `3-01` are the same plan.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlanKey {
    pub phase: PhaseNumber,
    pub plan: u32,
}

impl PlanKey {
    /// Reads `03-01`, `03-01-PLAN.md`, a path ending in one; a bare `01` takes `phase`.
    pub fn parse(text: &str, phase: Option<&PhaseNumber>) -> Option<PlanKey> {
        let text = text.trim().trim_matches(['"', '\'', '`']);
        let name = text.rsplit('/').next().unwrap_or(text);
        let id = ["-PLAN.md", "-SUMMARY.md", "-PLAN", ".md"]
            .iter()
            .find_map(|s| name.strip_suffix(s))
            .unwrap_or(name);
        match id.rsplit_once('-') {
            Some((p, n)) => Some(PlanKey {
                phase: PhaseNumber::parse(p)?,
                plan: parse_number(n)?,
            }),
            None => Some(PlanKey {
                phase: phase?.clone(),
                plan: parse_number(id)?,
            }),
        }
    }
}

fn parse_number(text: &str) -> Option<u32> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

impl Plan {
    /// This plan's key.
    pub fn key(&self) -> Option<PlanKey> {
        PlanKey::parse(&self.id, None)
    }

    /// Parses a PLAN.md's frontmatter; an unreadable one leaves the fields empty and says why.
    pub fn parse(id: &str, path: &Path, text: &str) -> Plan {
        let mut plan = Plan {
            id: id.to_owned(),
            path: path.to_path_buf(),
            ..Plan::default()
        };
        let text = text.replace("\r\n", "\n");
        let yaml = match split_frontmatter(&text).0 {
            None => {
                plan.problem = Some("no frontmatter".into());
                return plan;
            }
            Some(f) => match yaml::parse::<Yaml>(f) {
                Ok(yaml) => yaml,
                Err(YamlError::Invalid(e)) => {
                    plan.problem = Some(format!("frontmatter is not valid YAML: {e}"));
                    return plan;
                }
                Err(YamlError::Refused(why)) => {
                    plan.problem = Some(format!("not read: {why}"));
                    return plan;
                }
            },
        };
        plan.wave = yaml.get("wave").and_then(|w| match w {
            Yaml::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
            Yaml::String(s) => s.trim().parse().ok(),
            _ => None,
        });
        plan.wave = plan.wave.filter(|w| *w > 0);
        plan.depends_on = string_list(yaml.get("depends_on"));
        plan.files_modified = string_list(yaml.get("files_modified"))
            .into_iter()
            .map(|f| f.strip_prefix("./").unwrap_or(&f).to_owned())
            .collect();
        plan
    }

    /// Reads `<phase dir>/<id>-PLAN.md`.
    pub fn read(phase: &PhaseDir, id: &str) -> Plan {
        let path = phase.file(id, "PLAN");
        match crate::fsx::read_regular(&path, MAX_PLAN_BYTES) {
            Ok(bytes) => Plan::parse(id, &path, &String::from_utf8_lossy(&bytes)),
            Err(e) => Plan {
                id: id.to_owned(),
                path,
                problem: Some(format!("unreadable: {e}")),
                ..Plan::default()
            },
        }
    }

    /// The keys of the plans this one depends on (`01` is read in this plan's phase).
    pub fn dependency_keys(&self) -> Vec<(String, Option<PlanKey>)> {
        let phase = self.key().map(|k| k.phase);
        self.depends_on
            .iter()
            .map(|d| (d.clone(), PlanKey::parse(d, phase.as_ref())))
            .collect()
    }
}

/// A YAML list of strings; also a single string (comma-separated) or numbers.
fn string_list(value: Option<&Yaml>) -> Vec<String> {
    let scalar = |v: &Yaml| match v {
        Yaml::String(s) => Some(s.trim().to_owned()),
        Yaml::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let items: Vec<String> = match value {
        Some(Yaml::Sequence(items)) => items.iter().filter_map(scalar).collect(),
        Some(Yaml::String(s)) => s.split(',').map(|p| p.trim().to_owned()).collect(),
        Some(other) => scalar(other).into_iter().collect(),
        None => Vec::new(),
    };
    items.into_iter().filter(|s| !s.is_empty()).collect()
}

/// The plans of one phase directory, in plan order.
pub fn read_phase(phase: &PhaseDir) -> Vec<Plan> {
    phase.plans.iter().map(|id| Plan::read(phase, id)).collect()
}

/// The phase directory named by `wanted` (`3`, `03`, `2.1`); the error lists those present.
pub fn find_phase(project: &Project, wanted: &str) -> Result<PhaseDir> {
    let dirs = phases::scan(project)?;
    let number = PhaseNumber::parse(wanted);
    let list = || {
        let names: Vec<String> = dirs.iter().map(|d| d.number.to_string()).collect();
        if names.is_empty() {
            "there are none under .planning/phases/".to_owned()
        } else {
            format!("the phases are: {}", names.join(", "))
        }
    };
    let found = dirs.iter().find(|d| Some(&d.number) == number.as_ref());
    found
        .cloned()
        .ok_or_else(|| Error::Usage(format!("no phase '{wanted}'; {}", list())))
}

/// The plan named by `wanted` (`03-02`, `3-2`, or a path to its PLAN.md) and its phase.
pub fn find_plan(project: &Project, wanted: &str) -> Result<(PhaseDir, Plan)> {
    let dirs = phases::scan(project)?;
    if let Some(key) = PlanKey::parse(wanted, None) {
        for dir in &dirs {
            if let Some(id) = dir
                .plans
                .iter()
                .find(|id| PlanKey::parse(id, None).as_ref() == Some(&key))
            {
                let plan = Plan::read(dir, id);
                return Ok((dir.clone(), plan));
            }
        }
    }
    let all: Vec<&str> = dirs.iter().flat_map(|d| d.plans.iter().map(String::as_str)).collect();
    Err(Error::Usage(if all.is_empty() {
        format!("no plan '{wanted}': there are no *-PLAN.md files under .planning/phases/")
    } else {
        format!("no plan '{wanted}'; the plans are: {}", all.join(", "))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_wave_dependencies_and_files_in_their_usual_spellings() {
        let text = "---\r\nphase: 03-api\r\nplan: 02\r\nwave: 2\r\ndepends_on: [\"03-01\", 01]\r\n\
                    files_modified:\r\n  - ./src/api/users.ts\r\n  - src/db.ts\r\nautonomous: true\r\n---\r\n# Plan\r\n";
        let plan = Plan::parse("03-02", Path::new("p"), text);
        assert_eq!(plan.wave, Some(2));
        assert_eq!(plan.depends_on, ["03-01", "01"]);
        assert_eq!(plan.files_modified, ["src/api/users.ts", "src/db.ts"]);
        let keys: Vec<Option<PlanKey>> = plan.dependency_keys().into_iter().map(|(_, k)| k).collect();
        assert_eq!(keys[0], keys[1]);
        assert_eq!(keys[0], PlanKey::parse("3-1", None));

        let plan = Plan::parse(
            "03-03",
            Path::new("p"),
            "---\nwave: \"1\"\ndepends_on: 03-01, 03-02-PLAN.md\nfiles_modified: []\n---\n",
        );
        assert_eq!((plan.wave, plan.depends_on.len()), (Some(1), 2));
        assert!(Plan::parse("x", Path::new("p"), "no frontmatter").problem.is_some());
        assert!(
            Plan::parse("x", Path::new("p"), "---\nwave: [\n---\n")
                .problem
                .unwrap()
                .contains("YAML")
        );
    }

    #[test]
    fn plan_keys_compare_numerically() {
        let k = |s| PlanKey::parse(s, None);
        assert_eq!(k("03-01"), k("3-1"));
        assert_eq!(k(".planning/phases/02.1-fix/02.1-04-SUMMARY.md"), k("2.1-4"));
        assert_eq!(k("01"), None);
        assert_eq!(PlanKey::parse("01", PhaseNumber::parse("3").as_ref()), k("03-01"));
        assert_eq!(k("x-1"), None);
    }
}
