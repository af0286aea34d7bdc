//! The agent catalog model profiles read: every GSD agent with its role tier (what `adaptive`
//! maps to a model), its phase type (what `models.<phase>` in config.json sets) and its model
//! under `quality`, `balanced` and `budget`; and the full model ids behind the aliases. As
//! gsd-core 1.14 ships them (`gsd-core/bin/shared/model-catalog.json`, whose first twelve
//! agents are GSD 1.x's table); a test compares them with the package.

use serde::Serialize;

use Phase::*;
use Tier::*;

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
            Heavy => "heavy",
            Standard => "standard",
            Light => "light",
        }
    }

    /// The tier of a catalog agent.
    pub fn of(agent: &str) -> Option<Tier> {
        row_of(agent).map(|r| r.tier)
    }

    /// The model alias `adaptive` gives this tier.
    pub fn model(self) -> &'static str {
        match self {
            Heavy => "opus",
            Standard => "sonnet",
            Light => "haiku",
        }
    }
}

/// The kind of work an agent does: `models.<phase>` in config.json picks its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Planning,
    Discuss,
    Research,
    Execution,
    Verification,
}

impl Phase {
    /// As config.json's `models` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Planning => "planning",
            Discuss => "discuss",
            Research => "research",
            Execution => "execution",
            Verification => "verification",
        }
    }
}

/// One agent: its tier, phase type and its model under quality, balanced and budget.
#[derive(Debug, Clone, Copy)]
pub struct AgentRow {
    pub name: &'static str,
    pub tier: Tier,
    pub phase: Phase,
    /// Under `quality`, `balanced`, `budget`.
    pub models: [&'static str; 3],
}

const fn row(name: &'static str, tier: Tier, phase: Phase, models: [&'static str; 3]) -> AgentRow {
    AgentRow {
        name,
        tier,
        phase,
        models,
    }
}

/// gsd-core 1.14's 35 agents, in its order.
pub const AGENTS: &[AgentRow] = &[
    row("gsd-planner", Heavy, Planning, ["opus", "opus", "sonnet"]),
    row("gsd-roadmapper", Heavy, Planning, ["opus", "sonnet", "sonnet"]),
    row("gsd-executor", Standard, Execution, ["opus", "sonnet", "sonnet"]),
    row("gsd-phase-researcher", Standard, Research, ["opus", "sonnet", "haiku"]),
    row(
        "gsd-project-researcher",
        Standard,
        Research,
        ["opus", "sonnet", "haiku"],
    ),
    row(
        "gsd-research-synthesizer",
        Light,
        Research,
        ["sonnet", "sonnet", "haiku"],
    ),
    row("gsd-debugger", Heavy, Execution, ["opus", "sonnet", "sonnet"]),
    row("gsd-codebase-mapper", Light, Research, ["sonnet", "haiku", "haiku"]),
    row("gsd-verifier", Standard, Verification, ["sonnet", "sonnet", "haiku"]),
    row("gsd-plan-checker", Light, Verification, ["sonnet", "sonnet", "haiku"]),
    row(
        "gsd-integration-checker",
        Light,
        Verification,
        ["sonnet", "sonnet", "haiku"],
    ),
    row(
        "gsd-nyquist-auditor",
        Light,
        Verification,
        ["sonnet", "sonnet", "haiku"],
    ),
    row("gsd-pattern-mapper", Light, Planning, ["sonnet", "sonnet", "haiku"]),
    row("gsd-ui-researcher", Standard, Research, ["opus", "sonnet", "haiku"]),
    row("gsd-ui-checker", Light, Verification, ["sonnet", "sonnet", "haiku"]),
    row("gsd-ui-auditor", Light, Verification, ["sonnet", "sonnet", "haiku"]),
    row("gsd-doc-writer", Standard, Execution, ["opus", "sonnet", "haiku"]),
    row("gsd-doc-verifier", Light, Verification, ["sonnet", "sonnet", "haiku"]),
    row("gsd-dom-verifier", Light, Verification, ["sonnet", "sonnet", "haiku"]),
    row(
        "gsd-advisor-researcher",
        Standard,
        Research,
        ["opus", "sonnet", "haiku"],
    ),
    row("gsd-ai-researcher", Standard, Research, ["opus", "sonnet", "haiku"]),
    row("gsd-assumptions-analyzer", Heavy, Discuss, ["opus", "sonnet", "sonnet"]),
    row("gsd-code-fixer", Standard, Execution, ["opus", "sonnet", "sonnet"]),
    row(
        "gsd-code-reviewer",
        Standard,
        Verification,
        ["opus", "sonnet", "sonnet"],
    ),
    row(
        "gsd-debug-session-manager",
        Heavy,
        Execution,
        ["opus", "sonnet", "sonnet"],
    ),
    row("gsd-doc-classifier", Light, Research, ["sonnet", "haiku", "haiku"]),
    row("gsd-doc-synthesizer", Standard, Research, ["opus", "sonnet", "haiku"]),
    row("gsd-domain-researcher", Standard, Research, ["opus", "sonnet", "haiku"]),
    row("gsd-eval-auditor", Standard, Verification, ["opus", "sonnet", "haiku"]),
    row("gsd-eval-planner", Heavy, Planning, ["opus", "opus", "sonnet"]),
    row("gsd-framework-selector", Heavy, Planning, ["opus", "sonnet", "sonnet"]),
    row("gsd-intel-updater", Light, Research, ["opus", "sonnet", "haiku"]),
    row("gsd-mempalace-curator", Light, Research, ["sonnet", "sonnet", "haiku"]),
    row(
        "gsd-security-auditor",
        Heavy,
        Verification,
        ["opus", "sonnet", "sonnet"],
    ),
    row("gsd-user-profiler", Heavy, Research, ["opus", "sonnet", "sonnet"]),
];

/// The catalog row of `agent`.
pub fn row_of(agent: &str) -> Option<&'static AgentRow> {
    AGENTS.iter().find(|r| r.name == agent)
}

/// The aliases and the model ids they stand for on Claude (`resolve_model_ids: true` writes the
/// id; an override naming an id is read as its alias). `fable` has an id but no tier.
pub const MODEL_IDS: &[(&str, &str)] = &[
    ("opus", "claude-opus-4-8"),
    ("sonnet", "claude-sonnet-5"),
    ("haiku", "claude-haiku-4-5"),
    ("fable", "claude-fable-5"),
];

/// The alias a model id stands for, if it is one of [`MODEL_IDS`].
pub fn alias_of(id: &str) -> Option<&'static str> {
    MODEL_IDS.iter().find(|(_, i)| *i == id).map(|(alias, _)| *alias)
}

/// The model id behind a tier alias.
pub fn id_of(alias: &str) -> Option<&'static str> {
    MODEL_IDS.iter().take(3).find(|(a, _)| *a == alias).map(|(_, id)| *id)
}

/// Whether `name` is a Claude alias an agent may be given (`opus`, `sonnet`, `haiku`, `fable`).
pub fn is_alias(name: &str) -> bool {
    MODEL_IDS.iter().any(|(alias, _)| *alias == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_five_agents_each_once_with_gsd_1s_twelve_first() {
        assert_eq!(AGENTS.len(), 35);
        for (i, r) in AGENTS.iter().enumerate() {
            assert!(AGENTS[..i].iter().all(|o| o.name != r.name), "{} twice", r.name);
        }
        assert_eq!(AGENTS[11].name, "gsd-nyquist-auditor");
        assert_eq!(Tier::of("gsd-plan-checker"), Some(Light));
        assert_eq!(
            (alias_of("claude-opus-4-8"), id_of("haiku")),
            (Some("opus"), Some("claude-haiku-4-5"))
        );
        assert_eq!(id_of("fable"), None);
    }
}
