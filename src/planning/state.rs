//! `.planning/STATE.md`: GSD's YAML frontmatter and the "Current Position" lines of its body.
//! Tolerates CRLF, a missing or malformed frontmatter, and missing pieces.

use serde::Deserialize;
use serde_norway::Value as Yaml;

use super::sections;
use super::yaml::{self, YamlError};
use super::{Bound, Project};
use crate::error::Result;

/// Largest STATE.md baton reads or edits (GSD keeps it under ~100 lines).
pub const MAX_STATE_BYTES: u64 = 4 * 1024 * 1024;

/// What STATE.md says about the current position.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PlanningState {
    pub milestone: Option<String>,
    pub milestone_name: Option<String>,
    pub status: Option<String>,
    pub phase: Option<String>,
    pub phase_name: Option<String>,
    pub phase_total: Option<String>,
    pub plan: Option<String>,
    pub plan_total: Option<String>,
    pub stopped_at: Option<String>,
    pub paused_at: Option<String>,
    pub last_activity: Option<String>,
    pub resume_file: Option<String>,
    /// "Accumulated Context" lists.
    pub decisions: Vec<String>,
    pub blockers: Vec<String>,
    pub pending_todos: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Frontmatter {
    milestone: Option<Yaml>,
    milestone_name: Option<Yaml>,
    status: Option<Yaml>,
    current_phase: Option<Yaml>,
    current_phase_name: Option<Yaml>,
    current_plan: Option<Yaml>,
    progress: Option<Yaml>,
    stopped_at: Option<Yaml>,
    paused_at: Option<Yaml>,
    last_activity: Option<Yaml>,
}

impl PlanningState {
    /// Reads the project's STATE.md: `Ok(None)` when there is none; an error naming the file
    /// when it cannot be read or is past a bound (size, frontmatter).
    pub fn load(project: &Project) -> Result<Option<Self>> {
        let path = project.live_dir().join("STATE.md");
        let Some(bytes) = super::read_bounded(&path, MAX_STATE_BYTES)? else {
            return Ok(None);
        };
        Self::parse(&String::from_utf8_lossy(&bytes))
            .map(Some)
            .map_err(|bound| super::past_a_bound(&path, bound))
    }

    /// [`Self::load`] for callers that only care whether there is a usable STATE.md.
    pub fn read(project: &Project) -> Option<Self> {
        Self::load(project).ok().flatten()
    }

    /// Parses STATE.md text: frontmatter values first, body lines fill the gaps. A
    /// frontmatter that is not valid YAML is left aside; one past a bound is an error.
    pub fn parse(text: &str) -> Result<Self, Bound> {
        let text = text.replace("\r\n", "\n");
        let (frontmatter, body) = split_frontmatter(&text);
        let fm: Frontmatter = match frontmatter.map(yaml::parse) {
            None | Some(Err(YamlError::Invalid(_))) => Frontmatter::default(),
            Some(Err(YamlError::Refused(why))) => return Err(why),
            Some(Ok(fm)) => fm,
        };
        let mut state = Self {
            milestone: fm.milestone.as_ref().and_then(scalar),
            milestone_name: fm.milestone_name.as_ref().and_then(scalar),
            status: fm.status.as_ref().and_then(scalar),
            phase: fm.current_phase.as_ref().and_then(scalar),
            phase_name: fm.current_phase_name.as_ref().and_then(scalar),
            phase_total: fm
                .progress
                .as_ref()
                .and_then(|p| p.get("total_phases"))
                .and_then(scalar)
                .filter(|t| t != "0"),
            plan: fm.current_plan.as_ref().and_then(scalar),
            plan_total: None,
            stopped_at: fm.stopped_at.as_ref().and_then(scalar),
            paused_at: fm.paused_at.as_ref().and_then(scalar),
            last_activity: fm.last_activity.as_ref().and_then(scalar),
            resume_file: None,
            decisions: sections::items_under(body, "decisions"),
            blockers: sections::items_under(body, "blockers"),
            pending_todos: sections::items_under(body, "pending todos"),
        };
        for line in body.lines() {
            let line = line.trim();
            let value = |prefix: &str| {
                line.strip_prefix(prefix)
                    .map(str::trim)
                    .filter(|v| !v.is_empty() && !is_placeholder(v))
                    .map(str::to_owned)
            };
            if let Some(rest) = line.strip_prefix("Plan:") {
                let (number, total, _) = parse_phase_line(rest.trim());
                state.plan = state.plan.take().or(number);
                state.plan_total = state.plan_total.take().or(total);
            } else if let Some(v) = value("Stopped at:") {
                state.stopped_at = state.stopped_at.take().or(Some(v));
            } else if let Some(v) = value("Last activity:") {
                // A frontmatter date says less than the body's `2026-11-28 — Completed 03-01`.
                let says_more = state
                    .last_activity
                    .as_deref()
                    .is_none_or(|fm| v.len() > fm.len() && v.contains(fm));
                if says_more {
                    state.last_activity = Some(v);
                }
            } else if let Some(v) = value("Resume file:") {
                state.resume_file = Some(v);
            }
            if let Some(rest) = line.strip_prefix("Phase:") {
                let (number, total, name) = parse_phase_line(rest.trim());
                state.phase = state.phase.take().or(number);
                state.phase_total = state.phase_total.take().or(total);
                state.phase_name = state.phase_name.take().or(name);
            } else if let Some(rest) = line.strip_prefix("Status:") {
                let rest = rest.trim();
                if state.status.is_none() && !rest.is_empty() {
                    state.status = Some(rest.to_owned());
                }
            }
        }
        Ok(state)
    }
}

/// Template filler such as `[date]` or `None` counts as absent.
fn is_placeholder(value: &str) -> bool {
    (value.starts_with('[') && value.ends_with(']'))
        || matches!(value.to_ascii_lowercase().as_str(), "none" | "null" | "-")
}

impl PlanningState {
    /// Whether the project is paused: STATE.md says `status: paused` or has a `paused_at`.
    pub fn is_paused(&self) -> bool {
        self.paused_at.is_some() || self.status.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("paused"))
    }
}

/// The byte-order mark some editors put at the start of a file; kept on write.
pub const BOM: char = '\u{feff}';

/// Index of the line closing a frontmatter, given a file's lines without their endings
/// (a leading BOM already removed): the first line must be `---`, and the closing `---`
/// must come before any code fence (```): a `---` inside a code block of an unclosed
/// frontmatter is not taken. (`#` lines are YAML comments here, so they cannot mark the body.)
pub fn frontmatter_close<'a>(mut lines: impl Iterator<Item = &'a str>) -> Option<usize> {
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    for (i, line) in lines.enumerate() {
        let line = line.trim_end();
        if line == "---" {
            return Some(i + 1);
        }
        if line.starts_with("```") {
            return None;
        }
    }
    None
}

/// Splits `---\n…\n---` frontmatter from the body (LF text, a leading BOM ignored); no
/// frontmatter, or one that never closes before the body, gives `(None, text)`.
pub fn split_frontmatter(text: &str) -> (Option<&str>, &str) {
    let unmarked = text.strip_prefix(BOM).unwrap_or(text);
    let lines: Vec<&str> = unmarked.split_inclusive('\n').collect();
    let Some(close) = frontmatter_close(lines.iter().map(|l| l.trim_end_matches('\n'))) else {
        return (None, text);
    };
    let start = lines[0].len();
    let end: usize = lines[..close].iter().map(|l| l.len()).sum();
    let body_start = end + lines[close].len();
    let frontmatter = unmarked[start..end].strip_suffix('\n').unwrap_or(&unmarked[start..end]);
    (Some(frontmatter), &unmarked[body_start..])
}

/// `3 of 8 (Auth API)` → ("3", "8", "Auth API"); also `2.1` and missing parts.
fn parse_phase_line(rest: &str) -> (Option<String>, Option<String>, Option<String>) {
    let (head, name) = match rest.split_once('(') {
        Some((h, n)) => (h.trim(), n.trim_end().trim_end_matches(')').trim()),
        None => (rest, ""),
    };
    let mut words = head.split_whitespace();
    let number = words
        .next()
        .filter(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()));
    let total = match (words.next(), words.next()) {
        (Some("of"), Some(t)) => Some(t.to_owned()),
        _ => None,
    };
    let name = (!name.is_empty()).then(|| name.to_owned());
    (number.map(str::to_owned), total, name)
}

/// A YAML scalar as display text; `null`, empty and collections read as `None`.
fn scalar(value: &Yaml) -> Option<String> {
    let text = match value {
        Yaml::String(s) => s.trim().to_owned(),
        Yaml::Number(n) => n.to_string(),
        Yaml::Bool(b) => b.to_string(),
        _ => return None,
    };
    (!text.is_empty() && text != "null").then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_frontmatter_and_fills_gaps_from_the_body() {
        let text = "---\r\ngsd_state_version: 1.0\r\nmilestone: v1.2\r\nmilestone_name: Auth\r\nstatus: executing\r\n\
                    current_phase: 3\r\nprogress:\r\n  total_phases: 8\r\n  percent: 40\r\n---\r\n\r\n# State\r\n\
                    ## Current Position\r\nPhase: 3 of 8 (API endpoints)\r\nPlan: 2 of 4\r\n";
        let s = PlanningState::parse(text).unwrap();
        assert_eq!(s.milestone.as_deref(), Some("v1.2"));
        assert_eq!(s.milestone_name.as_deref(), Some("Auth"));
        assert_eq!(s.status.as_deref(), Some("executing"));
        assert_eq!(s.phase.as_deref(), Some("3"));
        assert_eq!(s.phase_total.as_deref(), Some("8"));
        assert_eq!(s.phase_name.as_deref(), Some("API endpoints"));
    }

    #[test]
    fn survives_missing_and_malformed_frontmatter() {
        let s = PlanningState::parse("# State\nPhase: 2.1 of 5 (Hotfix)\nStatus: Ready to plan\n").unwrap();
        assert_eq!(s.phase.as_deref(), Some("2.1"));
        assert_eq!(s.status.as_deref(), Some("Ready to plan"));
        let s = PlanningState::parse("---\nmilestone: [unclosed\n---\nPhase: 1 of 2\n").unwrap();
        assert_eq!((s.milestone, s.phase.as_deref()), (None, Some("1")));
        let s = PlanningState::parse("---\nstatus: null\n").unwrap();
        assert_eq!(s, PlanningState::default());
    }

    #[test]
    fn a_frontmatter_closes_before_the_body_and_a_bom_is_skipped() {
        let unclosed = "---\nstatus: executing\n# State\n```yaml\n---\n```\n";
        assert_eq!(split_frontmatter(unclosed), (None, unclosed));
        let fenced = "---\na: 1\n```\n---\n";
        assert_eq!(split_frontmatter(fenced).0, None);
        let commented = "---\n# GSD state\nwave: 1\n---\nbody\n";
        assert_eq!(split_frontmatter(commented), (Some("# GSD state\nwave: 1"), "body\n"));
        assert_eq!(
            split_frontmatter("\u{feff}---\na: 1\n---\nbody\n"),
            (Some("a: 1"), "body\n")
        );
        assert_eq!(split_frontmatter("---\n---\nbody"), (Some(""), "body"));
        let s = PlanningState::parse("\u{feff}---\r\nstatus: executing\r\n---\r\n").unwrap();
        assert_eq!(s.status.as_deref(), Some("executing"));
    }

    #[test]
    fn the_body_last_activity_wins_when_it_says_more() {
        let s =
            PlanningState::parse("---\nlast_activity: 2026-11-28\n---\nLast activity: 2026-11-28 — Completed 03-01\n")
                .unwrap();
        assert_eq!(s.last_activity.as_deref(), Some("2026-11-28 — Completed 03-01"));
        let s = PlanningState::parse("---\nlast_activity: Shipped 03-01\n---\nLast activity: 2026-11-28\n").unwrap();
        assert_eq!(s.last_activity.as_deref(), Some("Shipped 03-01"));
    }

    #[test]
    fn reads_lists_and_session_continuity() {
        let text = "---\nstatus: paused\npaused_at: 2026-11-29T10:00:00Z\n---\n## Current Position\nPhase: 3 of 8 (API)\n\
                    Plan: 2 of 4\nLast activity: 2026-11-29 - Completed 03-01\n\n## Accumulated Context\n### Decisions\n\
                    - Use JWT\n### Pending Todos\nNone yet.\n### Blockers/Concerns\n- Stripe key missing\n\n\
                    ## Session Continuity\nLast session: 2026-11-29\nStopped at: Completed 03-01-PLAN.md\nResume file: None\n";
        let s = PlanningState::parse(text).unwrap();
        assert_eq!((s.plan.as_deref(), s.plan_total.as_deref()), (Some("2"), Some("4")));
        assert_eq!(s.decisions, ["Use JWT"]);
        assert_eq!(s.blockers, ["Stripe key missing"]);
        assert!(s.pending_todos.is_empty());
        assert_eq!(s.stopped_at.as_deref(), Some("Completed 03-01-PLAN.md"));
        assert_eq!(s.resume_file, None);
        assert!(s.is_paused());
    }
}
