//! The one progress definition. A plan is done when its SUMMARY exists; a phase's plans are
//! its PLAN files and, for GSD 1.x only, the plans its roadmap entry lists. When a phase is done
//! depends on which GSD keeps the project ([`Generation`]): for GSD 1.x, when its summaries
//! cover its plans (at least one) or the roadmap checks it; for gsd-core, when its
//! VERIFICATION report has passed (a phase without a directory: when the roadmap checks it),
//! and its verification counts as one more step than its plans. Completion is the mean of the
//! phases' fractions (a done phase counts 1, an unplanned one 0). Every command and the
//! statusline call this; nothing else computes a percentage.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

use serde::Serialize;

use super::Project;
use super::layout::{Generation, Layout};
use super::number::{PhaseNumber, plan_key};
use super::phases::{self, PhaseDir, Verification};
use super::roadmap::{Roadmap, RoadmapPhase};
use crate::error::Result;

/// Largest ROADMAP.md baton reads.
pub const MAX_ROADMAP_BYTES: u64 = 4 * 1024 * 1024;

/// One plan of a phase and whether it is done (its SUMMARY exists).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanStatus {
    pub id: String,
    pub done: bool,
}

/// One phase's standing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseStatus {
    pub number: PhaseNumber,
    pub name: String,
    pub milestone: Option<String>,
    pub dir: Option<PathBuf>,
    pub plans_total: usize,
    pub plans_done: usize,
    /// Every plan in order, with its status (all done when the phase is).
    pub plans: Vec<PlanStatus>,
    /// The first plan without a SUMMARY, in order.
    pub next_plan: Option<String>,
    pub done: bool,
    /// The roadmap checks it: done whatever its directory holds.
    pub checked: bool,
    pub has_context: bool,
    pub has_research: bool,
    pub has_verification: bool,
    /// Every plan has its SUMMARY (at least one plan): gsd-core's "executed".
    pub executed: bool,
    /// What its VERIFICATION report says.
    pub verification: Verification,
    /// Done only once verified (gsd-core): the verification is one more step than the plans.
    pub verified_rule: bool,
}

impl PhaseStatus {
    /// The share of this phase that is done, 0.0–1.0.
    pub fn fraction(&self) -> f64 {
        let steps = self.plans_total + usize::from(self.verified_rule);
        if self.done {
            1.0
        } else if self.plans_total == 0 {
            0.0
        } else {
            self.plans_done as f64 / steps as f64
        }
    }
}

/// Completion of a set of phases.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Progress {
    pub phases: Vec<PhaseStatus>,
    pub completed_phases: usize,
    pub total_phases: usize,
    pub completed_plans: usize,
    pub total_plans: usize,
    /// 0–100, rounded down: 100 only when every phase is done.
    pub percent: u8,
}

impl Progress {
    /// Reads the roadmap and the phase directories of a project and measures them; an error
    /// names a file or directory past a bound.
    pub fn load(project: &Project) -> Result<Self> {
        Self::load_in(&Layout::of(project))
    }

    /// [`Self::load`] in a layout already read.
    pub fn load_in(layout: &Layout) -> Result<Self> {
        let path = layout.live.join("ROADMAP.md");
        let roadmap = match super::read_bounded(&path, MAX_ROADMAP_BYTES)? {
            Some(bytes) => {
                Roadmap::parse(&String::from_utf8_lossy(&bytes)).map_err(|bound| super::past_a_bound(&path, bound))?
            }
            None => Roadmap::default(),
        };
        Ok(Self::compute(&roadmap, &phases::scan_in(layout)?, layout.generation))
    }

    /// Measures the phases the roadmap lists and the directories that exist (their union),
    /// under `generation`'s rule. Where a number is listed or found twice, the first listing
    /// and directory count.
    pub fn compute(roadmap: &Roadmap, dirs: &[PhaseDir], generation: Generation) -> Self {
        let mut listed: HashMap<&PhaseNumber, &RoadmapPhase> = HashMap::new();
        for phase in &roadmap.phases {
            listed.entry(&phase.number).or_insert(phase);
        }
        let mut found: HashMap<&PhaseNumber, &PhaseDir> = HashMap::new();
        for dir in dirs {
            found.entry(&dir.number).or_insert(dir);
        }
        let numbers: BTreeSet<&PhaseNumber> = listed.keys().chain(found.keys()).copied().collect();
        let phases = numbers
            .into_iter()
            .map(|number| {
                status(
                    number,
                    listed.get(number).copied(),
                    found.get(number).copied(),
                    generation,
                )
            })
            .collect();
        Self::from_phases(phases)
    }

    fn from_phases(phases: Vec<PhaseStatus>) -> Self {
        let total_phases = phases.len();
        let completed_phases = phases.iter().filter(|p| p.done).count();
        let total_plans = phases.iter().map(|p| p.plans_total).sum();
        let completed_plans = phases
            .iter()
            .map(|p| if p.done { p.plans_total } else { p.plans_done })
            .sum();
        let percent = if total_phases == 0 {
            0
        } else {
            let mean = phases.iter().map(PhaseStatus::fraction).sum::<f64>() / total_phases as f64;
            (mean * 100.0 + 1e-9).floor().min(100.0) as u8
        };
        Self {
            phases,
            completed_phases,
            total_phases,
            completed_plans,
            total_plans,
            percent,
        }
    }

    /// The same measure restricted to one milestone's phases.
    pub fn for_milestone(&self, milestone: &str) -> Self {
        let phases = self
            .phases
            .iter()
            .filter(|p| p.milestone.as_deref() == Some(milestone))
            .cloned()
            .collect();
        Self::from_phases(phases)
    }

    /// The first phase that is not done.
    pub fn current_phase(&self) -> Option<&PhaseStatus> {
        self.phases.iter().find(|p| !p.done)
    }

    /// The phase with this number.
    pub fn phase(&self, number: &PhaseNumber) -> Option<&PhaseStatus> {
        self.phases.iter().find(|p| &p.number == number)
    }

    /// The phases whose directories can change this measure: every one the roadmap does not
    /// check (a plan or summary added or removed there moves its fraction).
    pub fn open_phases(&self) -> impl Iterator<Item = &PhaseNumber> {
        self.phases.iter().filter(|p| !p.checked).map(|p| &p.number)
    }
}

fn status(
    number: &PhaseNumber,
    listed: Option<&RoadmapPhase>,
    dir: Option<&PhaseDir>,
    generation: Generation,
) -> PhaseStatus {
    // GSD 1.x: plans are the union of PLAN files and the roadmap's plan lines of this phase
    // (its number and one more), compared by number (the first spelling of a number is kept).
    // gsd-core counts the PLAN files on disk only (`roadmap analyze`: `plan_count`): a plan the
    // roadmap lists before its file is written is not one yet.
    let own = number.key();
    let of_this_phase = |id: &&String| {
        let key = plan_key(id);
        key.len() == own.len() + 1 && key.starts_with(&own)
    };
    let roadmap_plans = listed.filter(|_| generation == Generation::Classic);
    let mut by_key: BTreeMap<Vec<u32>, &String> = BTreeMap::new();
    let ids = dir.into_iter().flat_map(|d| d.plans.iter()).chain(
        roadmap_plans
            .into_iter()
            .flat_map(|p| p.plans.iter().map(|p| &p.id))
            .filter(of_this_phase),
    );
    for id in ids {
        by_key.entry(plan_key(id)).or_insert(id);
    }
    let plans: Vec<(Vec<u32>, String)> = by_key.into_iter().map(|(k, id)| (k, id.clone())).collect();
    let summaries: BTreeSet<Vec<u32>> = dir
        .into_iter()
        .flat_map(|d| d.summaries.iter())
        .map(|s| plan_key(s))
        .collect();
    let plans_done = plans.iter().filter(|(k, _)| summaries.contains(k)).count();
    let next_plan = plans
        .iter()
        .find(|(k, _)| !summaries.contains(k))
        .map(|(_, id)| id.clone());
    let checked = listed.is_some_and(|p| p.checked);
    let executed = !plans.is_empty() && plans_done >= plans.len();
    let verification = dir.map_or(Verification::Missing, |d| d.verification.clone());
    let verified_rule = generation == Generation::Core;
    let done = match (generation, dir) {
        (Generation::Classic, _) => checked || executed,
        // gsd-core reads the directory, never the checkbox, once there is one.
        (Generation::Core, Some(_)) => verification == Verification::Passed,
        (Generation::Core, None) => checked,
    };
    let plan_status = plans
        .iter()
        .map(|(k, id)| PlanStatus {
            id: id.clone(),
            done: done || summaries.contains(k),
        })
        .collect();
    let name = listed
        .map(|p| p.name.clone())
        .filter(|n| !n.is_empty())
        .or_else(|| dir.map(|d| d.slug.replace('-', " ")))
        .unwrap_or_default();
    PhaseStatus {
        number: number.clone(),
        name,
        milestone: listed.and_then(|p| p.milestone.clone()),
        dir: dir.map(|d| d.path.clone()),
        plans_total: plans.len(),
        plans_done: if done { plans.len() } else { plans_done },
        plans: plan_status,
        next_plan: if done { None } else { next_plan },
        done,
        checked,
        has_context: dir.is_some_and(|d| d.has_context),
        has_research: dir.is_some_and(|d| d.has_research),
        has_verification: dir.is_some_and(|d| d.has_verification),
        executed,
        verification,
        verified_rule,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(number: &str, plans: &[&str], summaries: &[&str]) -> PhaseDir {
        PhaseDir {
            number: PhaseNumber::parse(number).unwrap(),
            slug: "x".into(),
            path: PathBuf::from(format!("/p/{number}-x")),
            plans: plans.iter().map(|s| s.to_string()).collect(),
            summaries: summaries.iter().map(|s| s.to_string()).collect(),
            has_context: false,
            has_research: false,
            has_verification: false,
            verification: Verification::Missing,
        }
    }

    #[test]
    fn one_definition_for_plans_phases_and_percent() {
        let roadmap = Roadmap::parse(
            "## v1.0\n- [x] **Phase 1: A**\n- [ ] **Phase 2: B**\n## v1.1\n- [ ] **Phase 3: C**\n- [ ] **Phase 4: D**\n\
             ### Phase 3: C\n- [ ] 03-01: one\n- [ ] 03-02: two\n- [ ] 03-03: three\n",
        )
        .unwrap();
        let dirs = [
            dir("1", &[], &[]),
            dir("2", &["02-01", "02-02"], &["02-01", "02-02"]),
            dir("3", &["03-01"], &["03-01"]),
        ];
        let p = Progress::compute(&roadmap, &dirs, Generation::Classic);
        assert_eq!((p.completed_phases, p.total_phases), (2, 4));
        assert_eq!((p.completed_plans, p.total_plans), (3, 5));
        // (1 + 1 + 1/3 + 0) / 4 = 58.3%
        assert_eq!(p.percent, 58);
        let current = p.current_phase().unwrap();
        assert_eq!(
            (current.number.to_string(), current.next_plan.as_deref()),
            ("3".to_owned(), Some("03-02"))
        );
        let v11 = p.for_milestone("v1.1");
        assert_eq!((v11.total_phases, v11.percent), (2, 16));
        assert_eq!(p.for_milestone("v1.0").percent, 100);
    }

    #[test]
    fn a_phase_with_no_plans_is_not_done_and_summaries_beyond_plans_still_finish_it() {
        let p = Progress::compute(
            &Roadmap::default(),
            &[dir("1", &[], &[]), dir("2", &["2-1"], &["02-01", "02-02"])],
            Generation::Classic,
        );
        assert!(!p.phases[0].done && p.phases[1].done);
        assert_eq!(p.percent, 50);
        assert_eq!(
            Progress::compute(&Roadmap::default(), &[], Generation::Classic).percent,
            0
        );
    }

    #[test]
    fn under_gsd_core_a_phase_is_done_once_verified() {
        let roadmap = Roadmap::parse("- [x] **Phase 1: A**\n- [x] **Phase 2: B**\n- [x] **Phase 3: C**\n").unwrap();
        let mut verified = dir("1", &["01-01"], &["01-01"]);
        verified.verification = Verification::Passed;
        let executed = dir("2", &["02-01", "02-02"], &["02-01", "02-02"]);
        let dirs = [verified, executed];
        let core = Progress::compute(&roadmap, &dirs, Generation::Core);
        let done: Vec<bool> = core.phases.iter().map(|p| p.done).collect();
        // Phase 2's checkbox does not count beside its directory; phase 3 has none.
        assert_eq!(done, [true, false, true]);
        assert!(core.phases[1].executed);
        // (1 + 2/3 + 1) / 3: the verification is one more step of phase 2.
        assert_eq!(core.percent, 88);
        let classic = Progress::compute(&roadmap, &dirs, Generation::Classic);
        assert_eq!((classic.completed_phases, classic.percent), (3, 100));
        // Never 100% while a phase waits for its verification.
        let all_executed = Progress::compute(&Roadmap::default(), &dirs[1..], Generation::Core);
        assert_eq!(all_executed.percent, 66);
    }
}
