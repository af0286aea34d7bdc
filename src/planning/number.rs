//! Phase numbers (`3`, `03`, `2.1`, an inserted phase) and plan ids (`03-02`), compared
//! numerically.

use std::cmp::Ordering;
use std::fmt;

/// A phase number as GSD writes it, normalised (`03` → `3`, `02.1` → `2.1`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PhaseNumber {
    parts: Vec<u32>,
}

impl PhaseNumber {
    /// Parses `3`, `03`, `2.1`, `10.2.1`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim().trim_end_matches('.');
        if text.is_empty() {
            return None;
        }
        let parts: Option<Vec<u32>> = text
            .split('.')
            .map(|p| {
                (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| p.parse().ok())
                    .flatten()
            })
            .collect();
        parts.map(|parts| Self { parts })
    }

    /// The leading number of a directory or file name: `02.1-hotfix` → 2.1, `03-02-PLAN.md` → 3.
    pub fn prefix_of(name: &str) -> Option<Self> {
        let end = name
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(name.len());
        Self::parse(&name[..end])
    }
}

impl fmt::Display for PhaseNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: Vec<String> = self.parts.iter().map(u32::to_string).collect();
        f.write_str(&text.join("."))
    }
}

impl Ord for PhaseNumber {
    fn cmp(&self, other: &Self) -> Ordering {
        self.parts.cmp(&other.parts)
    }
}

impl PartialOrd for PhaseNumber {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl serde::Serialize for PhaseNumber {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The one plan key: `03-02` and `3-2` are the same plan, and `03-2` sorts before `03-10`.
pub fn plan_key(id: &str) -> Vec<u32> {
    id.split(['-', '.']).map(|p| p.parse().unwrap_or(u32::MAX)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_normalises_and_orders() {
        let n = |s| PhaseNumber::parse(s).unwrap();
        assert_eq!(n("03").to_string(), "3");
        assert_eq!(n("02.1").to_string(), "2.1");
        assert!(n("2") < n("2.1") && n("2.1") < n("2.2") && n("2.2") < n("3") && n("9") < n("10"));
        assert_eq!(PhaseNumber::parse("x"), None);
        assert_eq!(PhaseNumber::parse("1..2"), None);
        assert_eq!(PhaseNumber::prefix_of("02.1-hotfix").unwrap().to_string(), "2.1");
        assert_eq!(PhaseNumber::prefix_of("03-02-PLAN.md").unwrap().to_string(), "3");
        assert_eq!(PhaseNumber::prefix_of("notes"), None);
    }
}
