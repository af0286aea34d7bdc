//! Model profiles: which model each agent runs under `quality`, `balanced`, `budget`,
//! `adaptive` (by role tier) or `inherit` (the session's model), with config.json's overrides
//! (per agent, per phase type, per tier, and whether full model ids are written), resolved as
//! gsd-core resolves them on Claude. Pure functions over the catalog (`catalog`); the config
//! file is read and edited in `profile_config`.

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

use super::catalog::{self, AgentRow};
pub use super::catalog::{AGENTS, Tier};

/// How agents are given models: `resolve_model_ids` in config.json.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ModelIds {
    /// Aliases (`opus`), which Claude Code's Agent tool takes (the default).
    #[default]
    Aliases,
    /// `true`: full model ids (`claude-opus-4-8`).
    Full,
    /// `"omit"`: no model at all; the agent runs on the session's.
    Omit,
}

/// What config.json sets beside the profile.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    /// `model_overrides`: agent → alias or model id.
    pub agents: BTreeMap<String, String>,
    /// `models`: phase type (`execution`) → tier alias (`opus`, `sonnet`, `haiku`, `inherit`).
    pub phases: BTreeMap<String, String>,
    /// `model_profile_overrides.claude`: tier alias → the model to run for it.
    pub tiers: BTreeMap<String, String>,
    pub ids: ModelIds,
}

/// Where a resolved model came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// `model_overrides[agent]`.
    Override,
    /// `models.<phase type>`.
    Phase,
    /// The profile's column (or, under `adaptive`, the agent's tier).
    Profile,
    /// `model_profile_overrides.claude.<tier>`.
    Tier,
    /// An agent the catalog does not know: the profile's general choice.
    Fallback,
    /// Nothing chose a model: the agent runs on the session's.
    Inherit,
}

impl Source {
    /// `override`, `phase`, `profile`, `tier`, `fallback`, `inherit`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Override => "override",
            Source::Phase => "phase",
            Source::Profile => "profile",
            Source::Tier => "tier",
            Source::Fallback => "fallback",
            Source::Inherit => "inherit",
        }
    }
}

/// One agent's model after resolution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resolution {
    pub agent: String,
    /// An alias (`opus`, `sonnet`, `haiku`), `inherit`, a model id, or empty under
    /// `resolve_model_ids: "omit"`.
    pub model: String,
    pub source: Source,
}

/// The model of one agent, as gsd-core's resolver gives it on Claude: `model_overrides[agent]`
/// (a catalog id read as its alias); else the tier from `models.<phase type>`, the profile's
/// column, or `inherit`; nothing under `resolve_model_ids: "omit"`; a tier's
/// `model_profile_overrides.claude` entry; for an agent the catalog does not know, the
/// profile's general choice (quality → opus, budget → haiku, inherit → inherit, else sonnet);
/// the tier's full id under `resolve_model_ids: true`, else its alias.
pub fn resolve(agent: &str, profile: Profile, o: &Overrides) -> Resolution {
    let resolution = |model: &str, source| Resolution {
        agent: agent.to_owned(),
        model: model.to_owned(),
        source,
    };
    let as_alias = |model: &str| catalog::alias_of(model).unwrap_or(model).to_owned();
    if let Some(model) = o.agents.get(agent) {
        return resolution(&as_alias(model), Source::Override);
    }
    let row = catalog::row_of(agent);
    let phase_tier = row
        .and_then(|r| o.phases.get(r.phase.name()))
        .filter(|t| matches!(t.as_str(), "opus" | "sonnet" | "haiku" | "inherit"));
    let (tier, source) = match (phase_tier, profile, row) {
        (Some(tier), _, _) => (Some(tier.as_str()), Source::Phase),
        (None, Profile::Inherit, _) => (Some("inherit"), Source::Inherit),
        (None, _, Some(row)) => (Some(column(row, profile)), Source::Profile),
        (None, _, None) => (None, Source::Fallback),
    };
    if o.ids == ModelIds::Omit {
        return resolution("", source);
    }
    if let Some(model) = tier.filter(|t| *t != "inherit").and_then(|t| o.tiers.get(t)) {
        return resolution(&as_alias(model), Source::Tier);
    }
    let Some(tier) = tier else {
        let general = match profile {
            Profile::Quality => "opus",
            Profile::Budget => "haiku",
            Profile::Inherit => "inherit",
            Profile::Balanced | Profile::Adaptive => "sonnet",
        };
        return resolution(general, Source::Fallback);
    };
    match (tier, o.ids) {
        ("inherit", _) => resolution("inherit", source),
        (alias, ModelIds::Full) => resolution(catalog::id_of(alias).unwrap_or(alias), source),
        (alias, _) => resolution(alias, source),
    }
}

/// A catalog agent's alias under a profile other than `inherit`.
fn column(row: &AgentRow, profile: Profile) -> &'static str {
    match profile {
        Profile::Quality => row.models[0],
        Profile::Balanced | Profile::Inherit => row.models[1],
        Profile::Budget => row.models[2],
        Profile::Adaptive => row.tier.model(),
    }
}

/// Resolves `agents`, or every known agent when empty, in one pass.
pub fn resolve_many(agents: &[String], profile: Profile, o: &Overrides) -> Vec<Resolution> {
    let all;
    let agents = if agents.is_empty() {
        all = known_agents(&o.agents);
        &all
    } else {
        agents
    };
    agents.iter().map(|a| resolve(a, profile, o)).collect()
}

/// The catalog's agents, then any agent only named in the overrides.
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

    fn with_agents(pairs: &[(&str, &str)]) -> Overrides {
        Overrides {
            agents: pairs.iter().map(|(a, m)| (a.to_string(), m.to_string())).collect(),
            ..Overrides::default()
        }
    }

    fn model(agent: &str, profile: Profile, o: &Overrides) -> String {
        resolve(agent, profile, o).model
    }

    #[test]
    fn the_fixed_profiles_follow_the_catalog() {
        let none = Overrides::default();
        assert_eq!(model("gsd-planner", Profile::Balanced, &none), "opus");
        assert_eq!(model("gsd-roadmapper", Profile::Balanced, &none), "sonnet");
        assert_eq!(model("gsd-codebase-mapper", Profile::Balanced, &none), "haiku");
        assert_eq!(model("gsd-executor", Profile::Quality, &none), "opus");
        assert_eq!(model("gsd-phase-researcher", Profile::Budget, &none), "haiku");
        assert_eq!(model("gsd-eval-planner", Profile::Budget, &none), "sonnet");
    }

    #[test]
    fn adaptive_maps_tiers_and_inherit_maps_everything_to_the_session_model() {
        let none = Overrides::default();
        assert_eq!(model("gsd-planner", Profile::Adaptive, &none), "opus");
        assert_eq!(model("gsd-executor", Profile::Adaptive, &none), "sonnet");
        for light in ["gsd-plan-checker", "gsd-integration-checker", "gsd-nyquist-auditor"] {
            assert_eq!(model(light, Profile::Adaptive, &none), "haiku", "{light}");
        }
        for row in AGENTS {
            let r = resolve(row.name, Profile::Inherit, &none);
            assert_eq!((r.model.as_str(), r.source), ("inherit", Source::Inherit));
        }
    }

    #[test]
    fn overrides_beat_every_profile_and_a_catalog_id_reads_as_its_alias() {
        let o = with_agents(&[
            ("gsd-executor", "claude-opus-4-8"),
            ("gsd-verifier", "claude-opus-4-5"),
            ("my-reviewer", "haiku"),
        ]);
        for profile in Profile::ALL {
            let r = resolve("gsd-executor", profile, &o);
            assert_eq!((r.model.as_str(), r.source), ("opus", Source::Override));
            assert_eq!(
                model("gsd-verifier", profile, &o),
                "claude-opus-4-5",
                "a pinned id stays"
            );
        }
        assert_eq!(model("my-reviewer", Profile::Budget, &o), "haiku");
        let all = resolve_many(&[], Profile::Balanced, &o);
        assert_eq!((all.len(), all.last().unwrap().agent.as_str()), (36, "my-reviewer"));
    }

    #[test]
    fn an_unknown_agent_gets_the_profiles_general_choice() {
        let none = Overrides::default();
        let general: Vec<String> = Profile::ALL.iter().map(|p| model("gsd-typo", *p, &none)).collect();
        assert_eq!(general, ["opus", "sonnet", "haiku", "sonnet", "inherit"]);
        assert_eq!(resolve("gsd-typo", Profile::Balanced, &none).source, Source::Fallback);
        let e = Profile::parse("fast").unwrap_err().to_string();
        assert!(e.contains("quality, balanced, budget, adaptive, inherit"), "{e}");
        assert_eq!(Profile::parse(" Budget ").unwrap(), Profile::Budget);
    }

    #[test]
    fn phase_models_tier_overrides_and_model_ids() {
        let mut o = Overrides::default();
        o.phases.insert("execution".into(), "opus".into());
        o.phases.insert("research".into(), "fast".into());
        assert_eq!(resolve("gsd-executor", Profile::Budget, &o).source, Source::Phase);
        assert_eq!(model("gsd-executor", Profile::Budget, &o), "opus");
        assert_eq!(
            model("gsd-phase-researcher", Profile::Budget, &o),
            "haiku",
            "not a tier: ignored"
        );
        o.tiers.insert("opus".into(), "claude-opus-4-7".into());
        assert_eq!(model("gsd-executor", Profile::Budget, &o), "claude-opus-4-7");
        o.tiers.insert("opus".into(), "claude-opus-4-8".into());
        assert_eq!(model("gsd-planner", Profile::Quality, &o), "opus");
        o.ids = ModelIds::Full;
        assert_eq!(model("gsd-verifier", Profile::Quality, &o), "claude-sonnet-5");
        assert_eq!(
            model("gsd-typo", Profile::Quality, &o),
            "opus",
            "a fallback is an alias"
        );
        o.ids = ModelIds::Omit;
        assert_eq!(model("gsd-verifier", Profile::Quality, &o), "");
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
