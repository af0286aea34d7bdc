//! Everything the planning files say at one moment: STATE.md, the progress definition over
//! ROADMAP.md and the phase directories, the current position and the next action (as the
//! GSD that keeps the project routes it, with its `/gsd-<command>` slash commands).

use std::path::PathBuf;

use serde::Serialize;

use super::Project;
use super::async_jobs::{self, Job};
use super::layout::{Generation, Layout};
use super::phases::Verification;
use super::progress::{PhaseStatus, Progress};
use super::state::PlanningState;
use crate::error::Result;

/// Where the work stands.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Position {
    pub milestone: Option<String>,
    pub milestone_name: Option<String>,
    pub phase: Option<String>,
    pub phase_name: Option<String>,
    pub total_phases: usize,
    pub phase_dir: Option<PathBuf>,
    /// The plan in progress or next (`03-02`).
    pub plan: Option<String>,
    pub plans_done: usize,
    pub plans_total: usize,
    pub status: Option<String>,
}

/// What to run next, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NextAction {
    pub command: String,
    pub reason: String,
}

/// The planning state of a project.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub project: Project,
    /// `None` when STATE.md is missing or unreadable.
    pub state: Option<PlanningState>,
    pub progress: Progress,
    pub layout: Layout,
    /// gsd-core's external jobs (`.planning/async-jobs/`).
    pub jobs: Vec<Job>,
}

impl Snapshot {
    /// Reads STATE.md, ROADMAP.md and the phase directories; an error names a file past a bound.
    pub fn load(project: &Project) -> Result<Self> {
        let layout = Layout::of(project);
        Ok(Self {
            project: project.clone(),
            state: PlanningState::load(project)?,
            progress: Progress::load_in(&layout)?,
            layout,
            jobs: async_jobs::read(project),
        })
    }

    /// The phase STATE.md names, else the first phase that is not done.
    pub fn current_phase(&self) -> Option<&PhaseStatus> {
        let named = self
            .state
            .as_ref()
            .and_then(|s| s.phase.as_deref())
            .and_then(super::number::PhaseNumber::parse);
        named
            .and_then(|n| self.progress.phase(&n))
            .or_else(|| self.progress.current_phase())
    }

    /// The current position, STATE.md first, the phase directories filling the gaps.
    pub fn position(&self) -> Position {
        let state = self.state.clone().unwrap_or_default();
        let phase = self.current_phase();
        Position {
            milestone: state.milestone,
            milestone_name: state.milestone_name,
            phase: phase.map(|p| p.number.to_string()).or(state.phase),
            phase_name: phase
                .map(|p| p.name.clone())
                .filter(|n| !n.is_empty())
                .or(state.phase_name),
            total_phases: self.progress.total_phases,
            phase_dir: phase.and_then(|p| p.dir.clone()),
            plan: phase.and_then(|p| p.next_plan.clone()).or(state.plan),
            plans_done: phase.map_or(0, |p| p.plans_done),
            plans_total: phase.map_or(0, |p| p.plans_total),
            status: state.status,
        }
    }

    /// The progress of the milestone STATE.md names, when the roadmap groups phases by it.
    pub fn milestone_progress(&self) -> Option<Progress> {
        let milestone = self.state.as_ref()?.milestone.as_deref()?;
        let scoped = self.progress.for_milestone(milestone);
        (scoped.total_phases > 0).then_some(scoped)
    }

    /// The next action as a GSD slash command (`/gsd-<command>`, which both GSD 1.x and
    /// gsd-core install), from the progress definition, routed as the project's GSD routes it.
    pub fn next_action(&self) -> NextAction {
        if self.progress.total_phases == 0 {
            return self.command(
                "new-project",
                "",
                "ROADMAP.md lists no phases and phases/ is empty".to_owned(),
            );
        }
        let phase = match self.layout.generation {
            Generation::Classic => self
                .current_phase()
                .filter(|p| !p.done)
                .or_else(|| self.progress.current_phase()),
            Generation::Core => self.core_phase(),
        };
        let Some(phase) = phase else {
            let reason = match self.progress.total_phases {
                1 => "its one phase is done".to_owned(),
                n => format!("all {n} phases are done"),
            };
            return self.command("complete-milestone", "", reason);
        };
        let n = &phase.number;
        if phase.plans_total == 0 {
            if phase.has_context {
                self.command(
                    "plan-phase",
                    &n.to_string(),
                    format!("phase {n} has context but no plans yet"),
                )
            } else {
                self.command(
                    "discuss-phase",
                    &n.to_string(),
                    format!("phase {n} has neither context nor plans yet"),
                )
            }
        } else if phase.executed && !phase.done {
            self.verification_step(phase)
        } else if let Some(job) = phase
            .next_plan
            .as_deref()
            .and_then(|plan| async_jobs::waiting_on(&self.jobs, plan))
        {
            let plan = phase.next_plan.as_deref().unwrap_or_default();
            let reason = format!("plan {plan} is waiting on {}, not unfinished", job.describe());
            self.command("resume-work", "", reason)
        } else {
            let plan = phase.next_plan.as_deref().unwrap_or("the next plan");
            let reason = format!(
                "{} of phase {n} done; {plan} is next",
                crate::words::of_total(phase.plans_done, phase.plans_total, "plan", "plans")
            );
            self.command("execute-phase", &n.to_string(), reason)
        }
    }

    /// The phase gsd-core's progress routes to: the first with plans not yet summarised, else
    /// the first executed but not verified, else the first not started.
    fn core_phase(&self) -> Option<&PhaseStatus> {
        let open = || self.progress.phases.iter().filter(|p| !p.done);
        open()
            .find(|p| p.plans_total > p.plans_done)
            .or_else(|| open().find(|p| p.executed))
            .or_else(|| open().next())
    }

    /// What an executed phase whose verification has not passed needs, by its report's status.
    fn verification_step(&self, phase: &PhaseStatus) -> NextAction {
        let n = phase.number.to_string();
        match &phase.verification {
            Verification::GapsFound => self.command(
                "plan-phase",
                &format!("{n} --gaps"),
                format!("phase {n}'s verification found gaps: plan the fixes"),
            ),
            Verification::HumanNeeded => self.command(
                "verify-work",
                &n,
                format!("phase {n}'s verification needs a person's checks"),
            ),
            Verification::Unknown(status) => self.command(
                "execute-phase",
                &n,
                format!("phase {n}'s verification says {status:?}: execute-phase writes it again"),
            ),
            Verification::Missing | Verification::Passed => self.command(
                "execute-phase",
                &n,
                format!(
                    "every plan of phase {n} is done and it is not verified yet: execute-phase resumes at verification"
                ),
            ),
        }
    }

    /// `/gsd-<name> <args>`, in the active workstream when there is one.
    fn command(&self, name: &str, args: &str, reason: String) -> NextAction {
        let args = if args.is_empty() {
            String::new()
        } else {
            format!(" {args}")
        };
        NextAction {
            command: format!("/gsd-{name}{args}{}", self.layout.workstream_flag()),
            reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn project(files: &[(&str, &str)]) -> (tempfile::TempDir, Project) {
        let tmp = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = tmp.path().join(".planning").join(path);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        fs::create_dir_all(tmp.path().join(".planning")).unwrap();
        let project = Project {
            root: tmp.path().to_path_buf(),
        };
        (tmp, project)
    }

    #[test]
    fn next_action_follows_the_phase_lifecycle() {
        let roadmap = "- [x] **Phase 1: A**\n- [ ] **Phase 2: B**\n- [ ] **Phase 3: C**\n";
        let (_t, p) = project(&[("ROADMAP.md", roadmap)]);
        assert_eq!(
            Snapshot::load(&p).unwrap().next_action().command,
            "/gsd-discuss-phase 2"
        );
        let (_t, p) = project(&[("ROADMAP.md", roadmap), ("phases/02-b/02-CONTEXT.md", "x")]);
        assert_eq!(Snapshot::load(&p).unwrap().next_action().command, "/gsd-plan-phase 2");
        let (_t, p) = project(&[
            ("ROADMAP.md", roadmap),
            ("phases/02-b/02-01-PLAN.md", "x"),
            ("phases/02-b/02-01-SUMMARY.md", "x"),
            ("phases/02-b/02-02-PLAN.md", "x"),
        ]);
        let s = Snapshot::load(&p).unwrap();
        let next = s.next_action();
        assert_eq!(next.command, "/gsd-execute-phase 2");
        assert!(
            next.reason.contains("1 of 2") && next.reason.contains("02-02"),
            "{}",
            next.reason
        );
        assert_eq!(s.position().plan.as_deref(), Some("02-02"));
        let (_t, p) = project(&[("ROADMAP.md", "- [x] **Phase 1: A**\n")]);
        assert_eq!(
            Snapshot::load(&p).unwrap().next_action().command,
            "/gsd-complete-milestone"
        );
        let (_t, p) = project(&[]);
        assert_eq!(Snapshot::load(&p).unwrap().next_action().command, "/gsd-new-project");
    }
}
