//! `.planning/STATE.md`: GSD's YAML frontmatter and the "Current Position" lines of its body.
//! Tolerates CRLF, a missing or malformed frontmatter, and missing pieces.

use serde::Deserialize;
use serde_norway::Value as Yaml;

use super::Project;

/// Largest STATE.md baton reads (GSD keeps it under ~100 lines).
const MAX_STATE_BYTES: u64 = 1024 * 1024;

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
}

impl PlanningState {
    /// Reads the project's STATE.md; `None` when it is missing or unreadable.
    pub fn read(project: &Project) -> Option<Self> {
        let bytes =
            crate::fsx::read_regular(&project.planning_dir().join("STATE.md"), MAX_STATE_BYTES)
                .ok()?;
        Some(Self::parse(&String::from_utf8_lossy(&bytes)))
    }

    /// Parses STATE.md text: frontmatter values first, body lines fill the gaps.
    pub fn parse(text: &str) -> Self {
        let text = text.replace("\r\n", "\n");
        let (frontmatter, body) = split_frontmatter(&text);
        let fm: Frontmatter = frontmatter
            .and_then(|f| serde_norway::from_str(f).ok())
            .unwrap_or_default();
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
        };
        for line in body.lines() {
            let line = line.trim();
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
        state
    }
}

/// Splits `---\n…\n---` frontmatter from the body; no frontmatter gives `(None, text)`.
pub fn split_frontmatter(text: &str) -> (Option<&str>, &str) {
    let Some(rest) = text.strip_prefix("---\n") else {
        return (None, text);
    };
    if let Some(rest_after) = rest.strip_prefix("---") {
        return (
            Some(""),
            rest_after.strip_prefix('\n').unwrap_or(rest_after),
        );
    }
    match rest.find("\n---") {
        Some(end) => {
            let after = &rest[end + 4..];
            let body = after.split_once('\n').map_or("", |(_, b)| b);
            (Some(&rest[..end]), body)
        }
        None => (None, text),
    }
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
        let s = PlanningState::parse(text);
        assert_eq!(s.milestone.as_deref(), Some("v1.2"));
        assert_eq!(s.milestone_name.as_deref(), Some("Auth"));
        assert_eq!(s.status.as_deref(), Some("executing"));
        assert_eq!(s.phase.as_deref(), Some("3"));
        assert_eq!(s.phase_total.as_deref(), Some("8"));
        assert_eq!(s.phase_name.as_deref(), Some("API endpoints"));
    }

    #[test]
    fn survives_missing_and_malformed_frontmatter() {
        let s = PlanningState::parse("# State\nPhase: 2.1 of 5 (Hotfix)\nStatus: Ready to plan\n");
        assert_eq!(s.phase.as_deref(), Some("2.1"));
        assert_eq!(s.status.as_deref(), Some("Ready to plan"));
        let s = PlanningState::parse("---\nmilestone: [unclosed\n---\nPhase: 1 of 2\n");
        assert_eq!((s.milestone, s.phase.as_deref()), (None, Some("1")));
        let s = PlanningState::parse("---\nstatus: null\n");
        assert_eq!(s, PlanningState::default());
    }
}
