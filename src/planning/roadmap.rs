//! `.planning/ROADMAP.md`: the phase checklist (`- [x] **Phase 1: Name** - …`), the
//! `### Phase N: Name` sections with their goal, dependencies and plan lines, and the
//! milestone each phase belongs to.

use std::collections::HashMap;

use super::Bound;
use super::number::PhaseNumber;
use super::sections::heading;

/// One phase as the roadmap lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct RoadmapPhase {
    pub number: PhaseNumber,
    pub name: String,
    /// Checked (`[x]`) in the checklist: GSD's mark for a finished phase.
    pub checked: bool,
    pub goal: Option<String>,
    pub depends_on: Option<String>,
    /// Plan lines of the phase section: (`01-02`, checked, text).
    pub plans: Vec<RoadmapPlan>,
    /// The milestone heading the phase was listed under (`v1.1`), if any.
    pub milestone: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RoadmapPlan {
    pub id: String,
    pub checked: bool,
    pub text: String,
}

/// The roadmap's phases in file order (checklist first, sections fill in details).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roadmap {
    pub phases: Vec<RoadmapPhase>,
}

/// Most phases a roadmap may list (GSD numbers them with two or three digits).
pub const MAX_PHASES: usize = 2_000;
/// Most plan lines a roadmap may list, over all its phases.
pub const MAX_PLAN_LINES: usize = 20_000;

impl Roadmap {
    /// Parses ROADMAP.md text in one pass (time linear in its length); unknown lines are
    /// ignored. `Err(bound)` past [`MAX_PHASES`] or [`MAX_PLAN_LINES`].
    pub fn parse(text: &str) -> Result<Self, Bound> {
        let mut roadmap = Listing::default();
        let mut plan_lines = 0;
        let mut milestone: Option<String> = None;
        let mut in_section: Option<usize> = None;
        for raw in text.lines() {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let trimmed = line.trim();
            if let Some((_, title)) = heading(line) {
                in_section = None;
                if let Some((number, name)) = phase_title(title) {
                    let index = roadmap.entry(number, name, milestone.clone())?;
                    in_section = Some(index);
                } else if let Some(version) = milestone_version(title) {
                    milestone = Some(version);
                }
                continue;
            }
            if let Some((checked, rest)) = checkbox(trimmed) {
                if let Some((number, name)) = bold_phase(rest) {
                    let index = roadmap.entry(number, name, milestone.clone())?;
                    roadmap.phases[index].checked |= checked;
                    continue;
                }
                if let (Some(index), Some(plan)) = (in_section, plan_line(checked, rest)) {
                    plan_lines += 1;
                    if plan_lines > MAX_PLAN_LINES {
                        return Err(Bound::PlanLines { max: MAX_PLAN_LINES });
                    }
                    roadmap.phases[index].plans.push(plan);
                }
                continue;
            }
            if let Some((number, name, complete)) = table_row(trimmed) {
                // Table rows name phases; they do not say which milestone heading they sit under.
                let index = roadmap.entry(number, name, None)?;
                roadmap.phases[index].checked |= complete;
                continue;
            }
            if let Some(index) = in_section {
                let phase = &mut roadmap.phases[index];
                if let Some(goal) = labelled(trimmed, "Goal") {
                    phase.goal = Some(goal);
                } else if let Some(deps) = labelled(trimmed, "Depends on") {
                    phase.depends_on = Some(deps);
                }
            }
        }
        Ok(Roadmap { phases: roadmap.phases })
    }

    /// The phase with this number.
    pub fn phase(&self, number: &PhaseNumber) -> Option<&RoadmapPhase> {
        self.phases.iter().find(|p| &p.number == number)
    }
}

/// The phases found so far, indexed by number.
#[derive(Default)]
struct Listing {
    phases: Vec<RoadmapPhase>,
    index: HashMap<PhaseNumber, usize>,
}

impl Listing {
    /// Finds or adds a phase; the first listing fixes its milestone. `Err` past [`MAX_PHASES`].
    fn entry(&mut self, number: PhaseNumber, name: String, milestone: Option<String>) -> Result<usize, Bound> {
        if let Some(&i) = self.index.get(&number) {
            if self.phases[i].name.is_empty() {
                self.phases[i].name = name;
            }
            return Ok(i);
        }
        if self.phases.len() == MAX_PHASES {
            return Err(Bound::Phases { max: MAX_PHASES });
        }
        self.index.insert(number.clone(), self.phases.len());
        self.phases.push(RoadmapPhase {
            number,
            name,
            checked: false,
            goal: None,
            depends_on: None,
            plans: Vec::new(),
            milestone,
        });
        Ok(self.phases.len() - 1)
    }
}

/// `- [x] rest` → (true, "rest").
fn checkbox(line: &str) -> Option<(bool, &str)> {
    let rest = line.strip_prefix("- [").or_else(|| line.strip_prefix("* ["))?;
    let (mark, rest) = rest.split_at_checked(1)?;
    let rest = rest.strip_prefix(']')?;
    let checked = match mark {
        "x" | "X" => true,
        " " => false,
        _ => return None,
    };
    Some((checked, rest.trim()))
}

/// `**Phase 2.1: Hotfix** - text` → (2.1, "Hotfix").
fn bold_phase(rest: &str) -> Option<(PhaseNumber, String)> {
    let inner = rest.strip_prefix("**")?;
    let end = inner.find("**")?;
    phase_title(&inner[..end])
}

/// `Phase 3: API endpoints` (also without the colon) → (3, "API endpoints"); gsd-core's
/// milestone-prefixed `Phase 1-02: Cart` → (1-02, "Cart").
fn phase_title(title: &str) -> Option<(PhaseNumber, String)> {
    let rest = title.trim().strip_prefix("Phase ")?;
    let end = number_end(rest);
    let number = PhaseNumber::parse(&rest[..end])?;
    let name = rest[end..].trim_start_matches(':').trim();
    let name = name.split(" - ").next().unwrap_or(name).trim();
    Some((number, name.to_owned()))
}

/// Where a phase number at the start of `text` ends: digits and dots, and one dash between
/// digits (`1-02`).
fn number_end(text: &str) -> usize {
    let run = |s: &str| s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let first = run(text);
    match text[first..].strip_prefix('-') {
        Some(rest) if first > 0 && rest.starts_with(|c: char| c.is_ascii_digit()) => first + 1 + run(rest),
        _ => first,
    }
}

/// A heading naming a milestone: `v1.1 Auth`, `🚧 v2.0 (In Progress)` → `v1.1`.
fn milestone_version(title: &str) -> Option<String> {
    title
        .split(|c: char| c.is_whitespace() || c == '*' || c == '(' || c == ':')
        .find(|w| w.len() > 1 && w.starts_with('v') && w[1..].chars().next().is_some_and(|c| c.is_ascii_digit()))
        .map(|w| w.trim_end_matches(['.', ',']).to_owned())
}

/// `01-02: text` or `01-02-PLAN.md — text` → the plan.
fn plan_line(checked: bool, rest: &str) -> Option<RoadmapPlan> {
    let rest = rest.trim_start_matches("**");
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '-' || c == '.'))
        .unwrap_or(rest.len());
    let id = rest[..end].trim_end_matches('-');
    let (phase, plan) = id.rsplit_once('-')?;
    if phase.is_empty() || plan.is_empty() || !plan.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let text = rest[end..].trim_start_matches("PLAN.md").trim_start_matches("**");
    let text = text.trim_start_matches([':', '—', '-', ' ']).trim();
    Some(RoadmapPlan {
        id: id.to_owned(),
        checked,
        text: text.to_owned(),
    })
}

/// A row of the progress table, `| 3. Cart | 1/3 | In progress | - |` → (3, "Cart", false);
/// the status `Complete` means done. The header and separator rows are not phases.
fn table_row(line: &str) -> Option<(PhaseNumber, String, bool)> {
    let mut cells = line.strip_prefix('|')?.split('|').map(str::trim);
    let phase = cells.next()?;
    let _plans = cells.next()?;
    let status = cells.next()?;
    let phase = phase.strip_prefix("Phase ").unwrap_or(phase);
    let end = number_end(phase);
    let number = PhaseNumber::parse(&phase[..end])?;
    let name = phase[end..].trim_start_matches([':', ' ']).trim();
    let complete = status.trim_matches('*').to_ascii_lowercase().starts_with("complete");
    Some((number, name.to_owned(), complete))
}

/// `**Goal**: text`, `**Goal:** text` or `Goal: text` → text.
fn labelled(line: &str, label: &str) -> Option<String> {
    let rest = line.strip_prefix("**").unwrap_or(line).strip_prefix(label)?;
    let rest = rest
        .trim_start_matches("**")
        .strip_prefix(':')
        .or_else(|| rest.strip_prefix(":**"))?;
    let text = rest.trim_start_matches("**").trim();
    (!text.is_empty()).then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROADMAP: &str = "# Roadmap: Shop\n\n## Milestones\n\n- ✅ **v1.0 MVP** - Phases 1-2\n\n\
        ## ✅ v1.0 MVP (Shipped)\n\n- [x] **Phase 1: Foundation** - scaffolding\n- [x] **Phase 2: Catalog** - products\n\n\
        ## 🚧 v1.1 Checkout (In Progress)\n\n- [ ] **Phase 3: Cart** - cart\n- [ ] **Phase 3.1: Cart hotfix** - INSERTED\n\
        - [ ] **Phase 4: Payments**\n\n## Phase Details\n\n### Phase 3: Cart\n**Goal**: Users can fill a cart\n\
        **Depends on**: Phase 2\n**Plans**: 2 plans\n\nPlans:\n- [x] 03-01: Cart model\n- [ ] 03-02-PLAN.md — Cart API\n\n\
        ### Phase 4: Payments\n**Goal:** Take money\n\n## Progress\n\n| Phase | Plans Complete | Status | Completed |\n";

    #[test]
    fn reads_checklist_sections_plans_and_milestones() {
        let r = Roadmap::parse(ROADMAP).unwrap();
        let numbers: Vec<String> = r.phases.iter().map(|p| p.number.to_string()).collect();
        assert_eq!(numbers, ["1", "2", "3", "3.1", "4"]);
        assert!(r.phases[0].checked && !r.phases[2].checked);
        assert_eq!(r.phases[0].milestone.as_deref(), Some("v1.0"));
        assert_eq!(r.phases[3].milestone.as_deref(), Some("v1.1"));
        let cart = &r.phases[2];
        assert_eq!(cart.name, "Cart");
        assert_eq!(cart.goal.as_deref(), Some("Users can fill a cart"));
        assert_eq!(cart.depends_on.as_deref(), Some("Phase 2"));
        assert_eq!(cart.plans.len(), 2);
        assert_eq!((cart.plans[0].id.as_str(), cart.plans[0].checked), ("03-01", true));
        assert_eq!(
            (cart.plans[1].id.as_str(), cart.plans[1].text.as_str()),
            ("03-02", "Cart API")
        );
        assert_eq!(r.phases[4].goal.as_deref(), Some("Take money"));
        assert_eq!(r.phases[3].name, "Cart hotfix");
    }

    /// (number, name, checked) of each phase.
    fn listed(r: &Roadmap) -> Vec<(String, &str, bool)> {
        r.phases
            .iter()
            .map(|p| (p.number.to_string(), p.name.as_str(), p.checked))
            .collect()
    }

    #[test]
    fn phases_only_in_the_progress_table_are_read() {
        let r = Roadmap::parse(
            "# Roadmap\n\n## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n\
             | 1. Setup | 2/2 | Complete | 2026-11-05 |\n| 3. Cart | 1/3 | In progress | - |\n| 3.1. Hotfix | 0/1 | Not started | - |\n",
        ).unwrap();
        let phases = listed(&r);
        assert_eq!(
            phases,
            [
                ("1".to_owned(), "Setup", true),
                ("3".to_owned(), "Cart", false),
                ("3.1".to_owned(), "Hotfix", false)
            ]
        );
    }

    #[test]
    fn milestone_prefixed_ids() {
        let r = Roadmap::parse(
            "- [x] **Phase 1-01: Setup** - scaffolding\n- [ ] **Phase 1-02: Cart**\n\
             ### Phase 1-02: Cart\nPlans:\n- [ ] 01-02-01: Cart model\n",
        )
        .unwrap();
        let phases = listed(&r);
        assert_eq!(
            phases,
            [("1-01".to_owned(), "Setup", true), ("1-02".to_owned(), "Cart", false)]
        );
        assert_eq!(r.phases[1].plans[0].id, "01-02-01");
    }

    #[test]
    fn crlf_and_junk_do_not_break_it() {
        let r = Roadmap::parse(&ROADMAP.replace('\n', "\r\n")).unwrap();
        assert_eq!(r.phases.len(), 5);
        assert_eq!(
            Roadmap::parse("- [?] **Phase x: y**\n### Phase : z\n").unwrap(),
            Roadmap::default()
        );
    }
}
