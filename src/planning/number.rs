//! Phase numbers (`3`, `03`, `2.1`, an inserted phase, gsd-core's milestone-prefixed `1-02`)
//! and plan ids (`03-02`), compared numerically.

use std::cmp::Ordering;
use std::fmt;

/// A phase number as GSD writes it, normalised (`03` → `3`, `02.1` → `2.1`); under gsd-core's
/// milestone-prefixed ids it carries its milestone (`1-02`, directory `01-02-cart`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PhaseNumber {
    milestone: Option<u32>,
    parts: Vec<u32>,
}

/// How a project numbers its phases (`.planning/config.json` `phase_id_convention`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PhaseIds {
    /// `3`, `03-cart`: GSD's numbering, and gsd-core's unless told otherwise.
    #[default]
    Sequential,
    /// `1-02`, `01-02-cart`: gsd-core's `milestone-prefixed` convention.
    MilestonePrefixed,
}

impl PhaseNumber {
    /// Parses `3`, `03`, `2.1`, `10.2.1` and a milestone-prefixed `1-02` (or `01-02.1`);
    /// `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim().trim_end_matches('.');
        match text.split_once('-') {
            Some((milestone, phase)) => Some(Self {
                milestone: Some(number(milestone)?),
                parts: dotted(phase)?,
            }),
            None => Some(Self {
                milestone: None,
                parts: dotted(text)?,
            }),
        }
    }

    /// The leading number of a directory or file name under `ids`: `02.1-hotfix` → 2.1,
    /// `03-02-PLAN.md` → 3; milestone-prefixed, `01-02-cart` → 1-02.
    pub fn prefix_of(name: &str, ids: PhaseIds) -> Option<Self> {
        let run = |s: &str| s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
        let end = run(name);
        if ids == PhaseIds::MilestonePrefixed
            && let Some(rest) = name[end..].strip_prefix('-')
        {
            // gsd-core writes the phase part with exactly two digits (a slug may lead with digits).
            let phase = &rest[..run(rest)];
            let digits = phase.split('.').next().unwrap_or_default();
            if digits.len() == 2 && !name[..end].contains('.') {
                return Self::parse(&format!("{}-{phase}", &name[..end]));
            }
        }
        Self::parse(&name[..end])
    }

    /// The milestone of a milestone-prefixed id (`1` of `1-02`).
    pub fn milestone(&self) -> Option<u32> {
        self.milestone
    }

    /// The numbers a plan id of this phase starts with (`[1, 2]` for `1-02`, `[2, 1]` for 2.1).
    pub fn key(&self) -> Vec<u32> {
        self.milestone.into_iter().chain(self.parts.iter().copied()).collect()
    }
}

/// `07` → 7; `None` for an empty or non-digit text.
fn number(text: &str) -> Option<u32> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

/// `2.1` → [2, 1].
fn dotted(text: &str) -> Option<Vec<u32>> {
    text.split('.').map(number).collect()
}

impl fmt::Display for PhaseNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = self.parts.iter();
        if let Some(milestone) = self.milestone {
            // gsd-core's own spelling: `1-02`.
            write!(f, "{milestone}-{:02}", parts.next().copied().unwrap_or_default())?;
        } else if let Some(first) = parts.next() {
            write!(f, "{first}")?;
        }
        for part in parts {
            write!(f, ".{part}")?;
        }
        Ok(())
    }
}

impl Ord for PhaseNumber {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.milestone, &self.parts).cmp(&(other.milestone, &other.parts))
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
        let seq = PhaseIds::Sequential;
        assert_eq!(PhaseNumber::prefix_of("02.1-hotfix", seq).unwrap().to_string(), "2.1");
        assert_eq!(PhaseNumber::prefix_of("03-02-PLAN.md", seq).unwrap().to_string(), "3");
        assert_eq!(PhaseNumber::prefix_of("notes", seq), None);
    }

    #[test]
    fn milestone_prefixed_ids_carry_their_milestone() {
        let prefixed = PhaseIds::MilestonePrefixed;
        let cart = PhaseNumber::prefix_of("01-02-cart", prefixed).unwrap();
        assert_eq!(cart.to_string(), "1-02");
        assert_eq!(Some(&cart), PhaseNumber::parse("1-02").as_ref());
        assert_eq!(cart.key(), [1, 2]);
        assert_eq!(
            PhaseNumber::prefix_of("01-02-cart", PhaseIds::Sequential)
                .unwrap()
                .to_string(),
            "1"
        );
        // A slug leading with a year is not a phase part.
        assert_eq!(
            PhaseNumber::prefix_of("14-2026-photos", prefixed).unwrap().to_string(),
            "14"
        );
        assert!(PhaseNumber::parse("1-02").unwrap() < PhaseNumber::parse("1-10").unwrap());
        assert!(PhaseNumber::parse("1-10").unwrap() < PhaseNumber::parse("2-01").unwrap());
        assert_eq!(PhaseNumber::parse("1-02.1").unwrap().to_string(), "1-02.1");
        assert_eq!(PhaseNumber::parse("1-"), None);
    }
}
