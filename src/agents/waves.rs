//! Plan independence: groups a phase's plans into waves that may run in parallel and finds
//! what makes a wave unsafe — two plans touching one file, a plan depending on another of
//! its wave (or a later one), dependency cycles, dependencies on plans that do not exist.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::plans::{Plan, PlanKey};

/// One wave: plans that may run at the same time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Wave {
    pub wave: u32,
    pub plans: Vec<String>,
}

/// Something that makes the schedule unsafe.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Problem {
    /// Two plans of one wave modify the same file (or one a directory holding the other's).
    SameFile {
        wave: u32,
        plans: [String; 2],
        file: String,
    },
    /// `plan` depends on `on`, which runs in the same wave or a later one.
    Order {
        plan: String,
        wave: u32,
        on: String,
        on_wave: u32,
    },
    /// Plans that depend on each other in a circle, named in order (first repeated last).
    Cycle { plans: Vec<String> },
    /// `plan` depends on `on`, which names no plan.
    Missing { plan: String, on: String },
    /// `plan` has no wave: no `wave:`, and it is in or behind a dependency cycle.
    Unscheduled { plan: String },
    /// The plan's frontmatter could not be read.
    Unreadable { plan: String, reason: String },
}

impl Problem {
    /// One line for people.
    pub fn describe(&self) -> String {
        match self {
            Problem::SameFile { wave, plans, file } => {
                format!("wave {wave}: {} and {} both modify {file}", plans[0], plans[1])
            }
            Problem::Order {
                plan,
                wave,
                on,
                on_wave,
            } if wave == on_wave => {
                format!("wave {wave}: {plan} depends on {on}, which runs in the same wave")
            }
            Problem::Order {
                plan,
                wave,
                on,
                on_wave,
            } => format!("{plan} (wave {wave}) depends on {on}, which runs later (wave {on_wave})"),
            Problem::Cycle { plans } => format!("dependency cycle: {}", plans.join(" → ")),
            Problem::Missing { plan, on } => {
                format!("{plan} depends on '{on}', which is not a plan")
            }
            Problem::Unscheduled { plan } => {
                format!("{plan} cannot be scheduled: it has no `wave:` and is in or behind a cycle")
            }
            Problem::Unreadable { plan, reason } => format!("{plan}: {reason}"),
        }
    }
}

/// The waves of one phase and the problems found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Schedule {
    pub waves: Vec<Wave>,
    pub problems: Vec<Problem>,
}

/// Schedules `plans` (one phase). A plan's wave is its `wave:`, else one more than the
/// highest wave of its dependencies. `elsewhere` holds plans of other phases: depending on
/// them is allowed and does not affect the waves.
pub fn schedule(plans: &[Plan], elsewhere: &BTreeSet<PlanKey>) -> Schedule {
    let mut problems = Vec::new();
    let by_key: BTreeMap<PlanKey, &Plan> = plans.iter().filter_map(|p| Some((p.key()?, p))).collect();
    // Edges within the phase, by id.
    let mut deps: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for plan in plans {
        if let Some(reason) = &plan.problem {
            problems.push(Problem::Unreadable {
                plan: plan.id.clone(),
                reason: reason.clone(),
            });
        }
        let list = deps.entry(plan.id.as_str()).or_default();
        for (written, key) in plan.dependency_keys() {
            match key.as_ref().and_then(|k| by_key.get(k)) {
                Some(on) => list.push(on.id.as_str()),
                None if key.as_ref().is_some_and(|k| elsewhere.contains(k)) => {}
                None => problems.push(Problem::Missing {
                    plan: plan.id.clone(),
                    on: written,
                }),
            }
        }
    }
    let cycles = find_cycles(&deps);
    let in_cycle: BTreeSet<&str> = cycles.iter().flatten().copied().collect();
    for cycle in &cycles {
        let mut named: Vec<String> = cycle.iter().map(|s| s.to_string()).collect();
        named.push(named[0].clone());
        problems.push(Problem::Cycle { plans: named });
    }
    let mut wave_of: BTreeMap<&str, u32> = BTreeMap::new();
    for plan in plans {
        if let Some(w) = wave(plan.id.as_str(), plans, &deps, &in_cycle, &mut wave_of) {
            wave_of.insert(plan.id.as_str(), w);
        } else {
            problems.push(Problem::Unscheduled { plan: plan.id.clone() });
        }
    }
    for (plan, list) in &deps {
        let Some(&wave) = wave_of.get(plan) else { continue };
        for on in list {
            if let Some(&on_wave) = wave_of.get(on)
                && on_wave >= wave
            {
                problems.push(Problem::Order {
                    plan: plan.to_string(),
                    wave,
                    on: on.to_string(),
                    on_wave,
                });
            }
        }
    }
    let mut waves: BTreeMap<u32, Vec<&Plan>> = BTreeMap::new();
    for plan in plans {
        if let Some(&w) = wave_of.get(plan.id.as_str()) {
            waves.entry(w).or_default().push(plan);
        }
    }
    for (&wave, members) in &waves {
        for (i, a) in members.iter().enumerate() {
            for b in &members[i + 1..] {
                for file in shared_files(&a.files_modified, &b.files_modified) {
                    problems.push(Problem::SameFile {
                        wave,
                        plans: [a.id.clone(), b.id.clone()],
                        file,
                    });
                }
            }
        }
    }
    let waves = waves
        .into_iter()
        .map(|(wave, members)| Wave {
            wave,
            plans: members.iter().map(|p| p.id.clone()).collect(),
        })
        .collect();
    Schedule { waves, problems }
}

/// The plan's wave: declared, else 1 + the highest wave of its dependencies (1 with none);
/// `None` for an undeclared plan in or behind a cycle.
fn wave<'a>(
    id: &'a str,
    plans: &'a [Plan],
    deps: &BTreeMap<&'a str, Vec<&'a str>>,
    in_cycle: &BTreeSet<&str>,
    memo: &mut BTreeMap<&'a str, u32>,
) -> Option<u32> {
    if let Some(&w) = memo.get(id) {
        return Some(w);
    }
    let plan = plans.iter().find(|p| p.id == id)?;
    if let Some(w) = plan.wave {
        return Some(w);
    }
    if in_cycle.contains(id) {
        return None;
    }
    let mut highest = 0;
    for on in deps.get(id).into_iter().flatten() {
        highest = highest.max(wave(on, plans, deps, in_cycle, memo)?);
    }
    memo.insert(id, highest + 1);
    Some(highest + 1)
}

/// Files both lists modify; a directory (`src/api/`, `src/api/**`) covers the files below it.
pub fn shared_files(a: &[String], b: &[String]) -> Vec<String> {
    let mut shared = BTreeSet::new();
    for x in a {
        for y in b {
            if let Some(file) = overlap(x, y) {
                shared.insert(file);
            }
        }
    }
    shared.into_iter().collect()
}

fn overlap(a: &str, b: &str) -> Option<String> {
    let dir = |p: &str| {
        let p = p.trim_end_matches("**").trim_end_matches('*');
        p.ends_with('/').then(|| p.to_owned())
    };
    if a == b {
        return Some(a.to_owned());
    }
    match (dir(a), dir(b)) {
        (Some(d), _) if b.starts_with(&d) => Some(b.to_owned()),
        (_, Some(d)) if a.starts_with(&d) => Some(a.to_owned()),
        _ => None,
    }
}

/// Each strongly connected group of two or more plans (or a plan depending on itself),
/// as one cycle through it in dependency order, starting at its smallest id.
fn find_cycles<'a>(deps: &BTreeMap<&'a str, Vec<&'a str>>) -> Vec<Vec<&'a str>> {
    let mut cycles = Vec::new();
    let mut done: BTreeSet<&str> = BTreeSet::new();
    for &start in deps.keys() {
        if done.contains(start) {
            continue;
        }
        // The plans reachable from `start` that also reach back to it form its group.
        let forward = reachable(start, deps);
        if !forward.contains(start) {
            continue;
        }
        let group: BTreeSet<&str> = forward
            .iter()
            .copied()
            .filter(|&n| reachable(n, deps).contains(start))
            .collect();
        done.extend(group.iter().copied());
        cycles.push(path_back(start, &group, deps));
    }
    cycles
}

fn reachable<'a>(from: &'a str, deps: &BTreeMap<&'a str, Vec<&'a str>>) -> BTreeSet<&'a str> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<&str> = deps.get(from).cloned().unwrap_or_default();
    while let Some(n) = stack.pop() {
        if seen.insert(n) {
            stack.extend(deps.get(n).into_iter().flatten().copied());
        }
    }
    seen
}

/// A shortest dependency path from `start` back to itself inside `group`.
fn path_back<'a>(start: &'a str, group: &BTreeSet<&'a str>, deps: &BTreeMap<&'a str, Vec<&'a str>>) -> Vec<&'a str> {
    let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(n) = queue.pop_front() {
        for &next in deps.get(n).into_iter().flatten() {
            if next == start {
                let mut path = vec![n];
                while let Some(&p) = parent.get(path.last().unwrap()) {
                    path.push(p);
                }
                path.reverse();
                if path[0] != start {
                    path.insert(0, start);
                }
                return path;
            }
            if group.contains(next) && next != start && !parent.contains_key(next) {
                parent.insert(next, n);
                queue.push_back(next);
            }
        }
    }
    vec![start]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn plan(id: &str, wave: Option<u32>, deps: &[&str], files: &[&str]) -> Plan {
        Plan {
            id: id.into(),
            path: PathBuf::from(format!("{id}-PLAN.md")),
            wave,
            depends_on: deps.iter().map(|s| s.to_string()).collect(),
            files_modified: files.iter().map(|s| s.to_string()).collect(),
            problem: None,
        }
    }

    #[test]
    fn computes_waves_from_dependencies() {
        let plans = [
            plan("03-01", None, &[], &["src/a.ts"]),
            plan("03-02", None, &[], &["src/b.ts"]),
            plan("03-03", None, &["03-01", "02"], &["src/c.ts"]),
            plan("03-04", None, &["03-03", "02-05"], &[]),
        ];
        let elsewhere = BTreeSet::from([PlanKey::parse("02-05", None).unwrap()]);
        let s = schedule(&plans, &elsewhere);
        assert_eq!(s.problems, []);
        let waves: Vec<(u32, Vec<String>)> = s.waves.into_iter().map(|w| (w.wave, w.plans)).collect();
        assert_eq!(
            waves,
            [
                (1, vec!["03-01".into(), "03-02".into()]),
                (2, vec!["03-03".into()]),
                (3, vec!["03-04".into()])
            ]
        );
    }

    #[test]
    fn finds_overlaps_same_wave_dependencies_and_missing_plans() {
        let plans = [
            plan("03-01", Some(1), &[], &["src/api/users.ts", "src/db.ts"]),
            plan("03-02", Some(1), &["03-01"], &["src/api/"]),
            plan("03-03", Some(1), &["03-09"], &["docs/x.md"]),
        ];
        let s = schedule(&plans, &BTreeSet::new());
        let lines: Vec<String> = s.problems.iter().map(Problem::describe).collect();
        assert_eq!(
            lines,
            [
                "03-03 depends on '03-09', which is not a plan",
                "wave 1: 03-02 depends on 03-01, which runs in the same wave",
                "wave 1: 03-01 and 03-02 both modify src/api/users.ts",
            ]
        );
    }

    #[test]
    fn names_cycles_and_leaves_their_plans_unscheduled() {
        let plans = [
            plan("03-01", None, &[], &[]),
            plan("03-02", None, &["03-04"], &[]),
            plan("03-03", None, &["03-02"], &[]),
            plan("03-04", None, &["03-03"], &[]),
            plan("03-05", None, &["03-05"], &[]),
        ];
        let s = schedule(&plans, &BTreeSet::new());
        let lines: Vec<String> = s.problems.iter().map(Problem::describe).collect();
        assert!(
            lines.contains(&"dependency cycle: 03-02 → 03-04 → 03-03 → 03-02".to_owned()),
            "{lines:#?}"
        );
        assert!(
            lines.contains(&"dependency cycle: 03-05 → 03-05".to_owned()),
            "{lines:#?}"
        );
        assert!(lines.contains(&"03-03 cannot be scheduled: it has no `wave:` and is in or behind a cycle".to_owned()));
        assert_eq!(
            s.waves,
            [Wave {
                wave: 1,
                plans: vec!["03-01".into()]
            }]
        );
    }
}
