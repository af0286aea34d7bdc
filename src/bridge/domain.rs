//! The agent's domain (db, backend, frontend, devops, security): from the words of its name
//! (`db-coding-agent`, `frontend_dev`), else from what was extracted from its files. The
//! domain orders the handoff: the next agent reads the finished agent's own kind first.

use super::facts::Facts;

/// The domains, in the order ties are broken.
pub const DOMAINS: [&str; 5] = ["db", "backend", "frontend", "devops", "security"];

/// The words of agent names that say each domain.
const NAME_WORDS: [(&str, &[&str]); 5] = [
    (
        "db",
        &[
            "db",
            "database",
            "data",
            "sql",
            "schema",
            "migration",
            "migrations",
            "dba",
            "orm",
            "prisma",
            "postgres",
            "mysql",
        ],
    ),
    ("backend", &["backend", "api", "server", "service", "services", "be"]),
    (
        "frontend",
        &["frontend", "ui", "web", "client", "fe", "react", "vue", "angular", "ux"],
    ),
    (
        "devops",
        &[
            "devops",
            "ops",
            "ci",
            "cd",
            "cicd",
            "infra",
            "infrastructure",
            "deploy",
            "deployment",
            "platform",
            "sre",
            "release",
        ],
    ),
    (
        "security",
        &["security", "sec", "appsec", "audit", "pentest", "vuln", "vulnerability"],
    ),
];

/// The domain the agent's name says, by its first word that names one.
pub fn from_name(name: &str) -> Option<&'static str> {
    let words = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase);
    for word in words {
        if let Some((domain, _)) = NAME_WORDS.iter().find(|(_, w)| w.contains(&word.as_str())) {
            return Some(domain);
        }
    }
    None
}

/// The domain most of the extracted names belong to; `None` when nothing was extracted.
pub fn infer(facts: &Facts) -> Option<&'static str> {
    let declared_env = facts
        .env_vars
        .iter()
        .filter(|e| e.source == "pipeline" || e.source.starts_with(".env"))
        .count();
    let scores = [
        facts.tables.len() + facts.indexes.len() + facts.enums.len() + facts.migrations.len(),
        facts.endpoints.len() + facts.shapes.len() + facts.services.len() + facts.env_vars.len() - declared_env,
        facts.components.len() + facts.routes.len() + facts.state.len() + facts.design_system.len(),
        facts.pipelines.len() + facts.docker_stages.len() + facts.images.len() + declared_env,
        facts.findings.len() + facts.guards.len(),
    ];
    let best = scores.iter().copied().max().filter(|s| *s > 0)?;
    DOMAINS.iter().zip(scores).find(|(_, s)| *s == best).map(|(d, _)| *d)
}

/// The name's domain, else the inferred one.
pub fn of(name: &str, facts: &Facts) -> Option<&'static str> {
    from_name(name).or_else(|| infer(facts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::facts::{DockerStage, EnvVar, Table};

    #[test]
    fn names_say_the_domain() {
        for (name, domain) in [
            ("db-coding-agent", Some("db")),
            ("Backend_Dev", Some("backend")),
            ("gsd-ui-checker", Some("frontend")),
            ("devops-engineer", Some("devops")),
            ("security-auditor", Some("security")),
            ("general-purpose", None),
            ("gsd-executor", None),
        ] {
            assert_eq!(from_name(name), domain, "{name}");
        }
    }

    #[test]
    fn the_files_say_it_otherwise() {
        let mut facts = Facts {
            tables: vec![Table::default(); 2],
            docker_stages: vec![DockerStage::default()],
            ..Facts::default()
        };
        assert_eq!(of("general-purpose", &facts), Some("db"));
        facts.env_vars = vec![
            EnvVar {
                source: ".env.example".into(),
                ..EnvVar::default()
            };
            3
        ];
        assert_eq!(infer(&facts), Some("devops"));
        assert_eq!(infer(&Facts::default()), None);
    }
}
