//! Model profiles: which model each agent runs under `quality`, `balanced`, `budget`,
//! `adaptive` (by role tier) or `inherit` (the session's model), with per-agent overrides.
//! Pure functions over one table; the config file is read and edited in `profile_config`.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::error::{Error, Result};

/// A model profile of `.planning/config.json` `model_profile`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Quality,
    Balanced,
    Budget,
    Adaptive,
    Inherit,
}

impl Profile {
    /// Every profile, in the order help and errors list them.
    pub const ALL: [Profile; 5] = [
        Profile::Quality,
        Profile::Balanced,
        Profile::Budget,
        Profile::Adaptive,
        Profile::Inherit,
    ];
    /// GSD's default when config.json names none.
    pub const DEFAULT: Profile = Profile::Balanced;

    /// The name as config.json spells it.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Quality => "quality",
            Profile::Balanced => "balanced",
            Profile::Budget => "budget",
            Profile::Adaptive => "adaptive",
            Profile::Inherit => "inherit",
        }
    }

    /// Parses a profile name (case-insensitive); the error lists the valid ones.
    pub fn parse(name: &str) -> Result<Profile> {
        let wanted = name.trim().to_ascii_lowercase();
        Profile::ALL.into_iter().find(|p| p.name() == wanted).ok_or_else(|| {
            Error::Usage(format!(
                "unknown model profile '{name}'; the profiles are: {}",
                profile_names()
            ))
        })
    }
}

/// `quality, balanced, budget, adaptive, inherit`.
pub fn profile_names() -> String {
    let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
    names.join(", ")
}

/// How demanding an agent's role is; `adaptive` maps heavy → opus, standard → sonnet,
/// light → haiku.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Heavy,
    Standard,
    Light,
}

impl Tier {
    /// `heavy`, `standard`, `light`.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Heavy => "heavy",
            Tier::Standard => "standard",
            Tier::Light => "light",
        }
    }

    /// The tier of a table agent.
    pub fn of(agent: &str) -> Option<Tier> {
        AGENTS.iter().find(|r| r.name == agent).map(|r| r.tier)
    }

    fn model(self) -> &'static str {
        match self {
            Tier::Heavy => "opus",
            Tier::Standard => "sonnet",
            Tier::Light => "haiku",
        }
    }
}

/// One agent's row: its role tier and its model under the three fixed profiles.
#[derive(Debug, Clone, Copy)]
pub struct AgentRow {
    pub name: &'static str,
    pub tier: Tier,
    pub quality: &'static str,
    pub balanced: &'static str,
    pub budget: &'static str,
}

const fn row(
    name: &'static str,
    tier: Tier,
    quality: &'static str,
    balanced: &'static str,
    budget: &'static str,
) -> AgentRow {
    AgentRow {
        name,
        tier,
        quality,
        balanced,
        budget,
    }
}

/// GSD's agent table (GSD.md), with baton's role tiers for `adaptive`: heavy = plans and
/// diagnoses (a wrong call is expensive downstream), light = summarises or maps what others
/// found, standard = everything else.
pub const AGENTS: &[AgentRow] = &[
    row("gsd-planner", Tier::Heavy, "opus", "opus", "sonnet"),
    row("gsd-roadmapper", Tier::Heavy, "opus", "sonnet", "sonnet"),
    row("gsd-executor", Tier::Standard, "opus", "sonnet", "sonnet"),
    row("gsd-phase-researcher", Tier::Standard, "opus", "sonnet", "haiku"),
    row("gsd-project-researcher", Tier::Standard, "opus", "sonnet", "haiku"),
    row("gsd-research-synthesizer", Tier::Light, "sonnet", "sonnet", "haiku"),
    row("gsd-debugger", Tier::Heavy, "opus", "sonnet", "sonnet"),
    row("gsd-codebase-mapper", Tier::Light, "sonnet", "haiku", "haiku"),
    row("gsd-verifier", Tier::Standard, "sonnet", "sonnet", "haiku"),
    row("gsd-plan-checker", Tier::Standard, "sonnet", "sonnet", "haiku"),
    row("gsd-integration-checker", Tier::Standard, "sonnet", "sonnet", "haiku"),
    row("gsd-nyquist-auditor", Tier::Standard, "sonnet", "sonnet", "haiku"),
];

/// Where a resolved model came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// `model_overrides[agent]`.
    Override,
    /// The profile's column.
    Profile,
    /// Nothing chose a model: the agent runs on the session's.
    Inherit,
}

impl Source {
    /// `override`, `profile`, `inherit`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Override => "override",
            Source::Profile => "profile",
            Source::Inherit => "inherit",
        }
    }
}

/// One agent's model after resolution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resolution {
    pub agent: String,
    /// An alias (`opus`, `sonnet`, `haiku`), `inherit`, or a full model id from an override.
    pub model: String,
    pub source: Source,
}

/// The model of one agent: `overrides[agent]` → the profile's column → `inherit`.
/// Unknown agents (neither in the table nor overridden) are an error listing the known ones.
pub fn resolve(agent: &str, profile: Profile, overrides: &BTreeMap<String, String>) -> Result<Resolution> {
    let resolution = |model: &str, source| Resolution {
        agent: agent.to_owned(),
        model: model.to_owned(),
        source,
    };
    if let Some(model) = overrides.get(agent) {
        return Ok(resolution(model, Source::Override));
    }
    let Some(row) = AGENTS.iter().find(|r| r.name == agent) else {
        return Err(Error::Usage(format!(
            "unknown agent '{agent}'; the agents are: {} (add others under \"model_overrides\" \
             in .planning/config.json)",
            known_agents(overrides).join(", ")
        )));
    };
    Ok(match profile {
        Profile::Quality => resolution(row.quality, Source::Profile),
        Profile::Balanced => resolution(row.balanced, Source::Profile),
        Profile::Budget => resolution(row.budget, Source::Profile),
        Profile::Adaptive => resolution(row.tier.model(), Source::Profile),
        Profile::Inherit => resolution("inherit", Source::Inherit),
    })
}

/// Resolves `agents`, or every known agent when empty, in one pass.
pub fn resolve_many(
    agents: &[String],
    profile: Profile,
    overrides: &BTreeMap<String, String>,
) -> Result<Vec<Resolution>> {
    let all;
    let agents = if agents.is_empty() {
        all = known_agents(overrides);
        &all
    } else {
        agents
    };
    agents.iter().map(|a| resolve(a, profile, overrides)).collect()
}

/// The table's agents, then any agent only named in the overrides.
pub fn known_agents(overrides: &BTreeMap<String, String>) -> Vec<String> {
    let mut names: Vec<String> = AGENTS.iter().map(|r| r.name.to_owned()).collect();
    for agent in overrides.keys() {
        if !names.contains(agent) {
            names.push(agent.clone());
        }
    }
    names
}

/// A model value an override may hold: an alias or a model id, no spaces or controls.
pub fn is_model_value(value: &str) -> bool {
    !value.is_empty() && value.len() <= 200 && value.bytes().all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\')
}

/// Advice when Claude Code talks to a non-Anthropic endpoint (`ANTHROPIC_BASE_URL` whose
/// host is not api.anthropic.com): the aliases may not exist there, `inherit` is safe.
pub fn endpoint_advice(base_url: Option<&str>, profile: Profile) -> Option<String> {
    let host = base_url.map(str::trim).filter(|u| !u.is_empty()).map(url_host)?;
    if host.eq_ignore_ascii_case("api.anthropic.com") || profile == Profile::Inherit {
        return None;
    }
    Some(format!(
        "ANTHROPIC_BASE_URL points at {host}, not api.anthropic.com: that endpoint may not serve \
         the opus/sonnet/haiku aliases. `baton profile set inherit` makes every agent use the \
         session's model."
    ))
}

/// The host of a URL: `https://user@host:8443/path` → `host`.
fn url_host(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if let Some(v6) = host_port.strip_prefix('[') {
        return v6.split(']').next().unwrap_or(v6);
    }
    host_port.split(':').next().unwrap_or(host_port)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overrides(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(a, m)| (a.to_string(), m.to_string())).collect()
    }

    fn model(agent: &str, profile: Profile, o: &BTreeMap<String, String>) -> String {
        resolve(agent, profile, o).unwrap().model
    }

    #[test]
    fn the_fixed_profiles_follow_gsds_table() {
        let none = BTreeMap::new();
        assert_eq!(model("gsd-planner", Profile::Balanced, &none), "opus");
        assert_eq!(model("gsd-roadmapper", Profile::Balanced, &none), "sonnet");
        assert_eq!(model("gsd-codebase-mapper", Profile::Balanced, &none), "haiku");
        assert_eq!(model("gsd-executor", Profile::Quality, &none), "opus");
        assert_eq!(model("gsd-verifier", Profile::Quality, &none), "sonnet");
        assert_eq!(model("gsd-phase-researcher", Profile::Budget, &none), "haiku");
        assert_eq!(model("gsd-planner", Profile::Budget, &none), "sonnet");
        assert_eq!(AGENTS.len(), 12);
    }

    #[test]
    fn adaptive_maps_tiers_and_inherit_maps_everything_to_the_session_model() {
        let none = BTreeMap::new();
        assert_eq!(model("gsd-planner", Profile::Adaptive, &none), "opus");
        assert_eq!(model("gsd-executor", Profile::Adaptive, &none), "sonnet");
        assert_eq!(model("gsd-codebase-mapper", Profile::Adaptive, &none), "haiku");
        for row in AGENTS {
            let r = resolve(row.name, Profile::Inherit, &none).unwrap();
            assert_eq!((r.model.as_str(), r.source), ("inherit", Source::Inherit));
        }
    }

    #[test]
    fn overrides_beat_every_profile_and_may_name_new_agents() {
        let o = overrides(&[("gsd-executor", "claude-opus-4-5"), ("my-reviewer", "haiku")]);
        for profile in Profile::ALL {
            let r = resolve("gsd-executor", profile, &o).unwrap();
            assert_eq!((r.model.as_str(), r.source), ("claude-opus-4-5", Source::Override));
        }
        assert_eq!(model("my-reviewer", Profile::Budget, &o), "haiku");
        let all = resolve_many(&[], Profile::Balanced, &o).unwrap();
        assert_eq!(all.len(), 13);
        assert_eq!(all.last().unwrap().agent, "my-reviewer");
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let e = resolve("gsd-typo", Profile::Balanced, &BTreeMap::new())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown agent 'gsd-typo'") && e.contains("gsd-nyquist-auditor"),
            "{e}"
        );
        let e = Profile::parse("fast").unwrap_err().to_string();
        assert!(e.contains("quality, balanced, budget, adaptive, inherit"), "{e}");
        assert_eq!(Profile::parse(" Budget ").unwrap(), Profile::Budget);
    }

    #[test]
    fn advises_inherit_only_for_other_endpoints() {
        let advice = |url| endpoint_advice(Some(url), Profile::Balanced);
        assert!(advice("https://api.anthropic.com").is_none());
        assert!(advice("https://api.anthropic.com:443/v1").is_none());
        let text = advice("https://user:pw@openrouter.ai:8443/api").unwrap();
        assert!(text.contains("openrouter.ai") && text.contains("baton profile set inherit"));
        assert!(advice("http://[::1]:8080").unwrap().contains("::1"));
        assert!(endpoint_advice(Some("http://127.0.0.1:9"), Profile::Inherit).is_none());
        assert!(endpoint_advice(None, Profile::Balanced).is_none());
        assert!(endpoint_advice(Some(""), Profile::Balanced).is_none());
    }
}
