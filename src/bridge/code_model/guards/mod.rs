//! Auth guards: what each framework's scanner notes about guards in a file (a guard defined,
//! a guard put on a route, a function that may be one), and the link step that turns the
//! notes of all files into the run's [`Guard`] list, each with how many endpoints it is on.

pub mod names;

use std::collections::HashMap;

use crate::bridge::facts::{Endpoint, Guard};

pub use names::is_auth_name;

/// What a note says of a guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The file defines it as a guard (a `CanActivate` class, a `BasePermission`, an extractor).
    Defined,
    /// The file puts it on a route or router.
    Used,
    /// The file defines a function of that name: where a guard used elsewhere comes from.
    Candidate,
}

/// One file's note about a guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardNote {
    pub name: String,
    /// See [`Guard::kind`].
    pub kind: &'static str,
    pub framework: &'static str,
    pub role: Role,
    pub file: String,
}

impl GuardNote {
    /// A note of `role` about guard `name` of `kind` in `file`.
    pub fn new(name: &str, kind: &'static str, framework: &'static str, role: Role, file: &str) -> GuardNote {
        GuardNote {
            name: name.to_owned(),
            kind,
            framework,
            role,
            file: file.to_owned(),
        }
    }
}

/// The run's guards from every file's notes: each guard once, from its definition when the
/// run has one (else from where it is used), with how many of `endpoints` carry it. A
/// candidate becomes a guard only when a guard of its name is used.
pub fn link(notes: &[GuardNote], endpoints: &[Endpoint]) -> Vec<Guard> {
    let mut on: HashMap<&str, usize> = HashMap::new();
    for endpoint in endpoints {
        for guard in &endpoint.guards {
            *on.entry(guard.as_str()).or_default() += 1;
        }
    }
    let used = |name: &str| on.contains_key(name) || notes.iter().any(|n| n.role == Role::Used && n.name == name);
    let mut out: Vec<Guard> = Vec::new();
    let mut chosen: HashMap<&str, usize> = HashMap::new();
    // A guard an endpoint carries with no note of its own (found through an alias, from a
    // library): named where the first endpoint carrying it is.
    let mut unnoted: Vec<GuardNote> = Vec::new();
    for endpoint in endpoints {
        for guard in &endpoint.guards {
            if !notes.iter().any(|n| n.name == *guard) && !unnoted.iter().any(|n| n.name == *guard) {
                let framework = framework_of(&endpoint.framework);
                unnoted.push(GuardNote::new(guard, "guard", framework, Role::Used, &endpoint.file));
            }
        }
    }
    let notes: Vec<&GuardNote> = notes.iter().chain(&unnoted).collect();
    let notes = notes.as_slice();
    for role in [Role::Defined, Role::Candidate, Role::Used] {
        for note in notes.iter().copied().filter(|note| note.role == role) {
            if chosen.contains_key(note.name.as_str()) || (role == Role::Candidate && !used(&note.name)) {
                continue;
            }
            // A candidate takes the kind (and, when it does not know it, the framework) its use gives it.
            let use_of = notes.iter().find(|n| n.role == Role::Used && n.name == note.name);
            let (kind, framework) = match (role, use_of) {
                (Role::Candidate, Some(used)) => {
                    let framework = if note.framework.is_empty() {
                        used.framework
                    } else {
                        note.framework
                    };
                    (used.kind, framework)
                }
                _ => (note.kind, note.framework),
            };
            chosen.insert(&note.name, out.len());
            out.push(Guard {
                name: note.name.clone(),
                kind: kind.to_owned(),
                framework: (!framework.is_empty()).then(|| framework.to_owned()),
                endpoints: on.get(note.name.as_str()).copied().unwrap_or(0),
                file: note.file.clone(),
            });
        }
    }
    out
}

/// The framework names endpoints carry, as the static strings notes hold.
fn framework_of(framework: &str) -> &'static str {
    const KNOWN: &[&str] = &[
        "express", "koa", "fastify", "nestjs", "fastapi", "flask", "django", "axum", "actix", "nextjs", "remix",
    ];
    KNOWN.iter().copied().find(|known| *known == framework).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guard_is_listed_once_from_its_definition_with_its_endpoint_count() {
        let notes = vec![
            GuardNote::new(
                "requireAuth",
                "middleware",
                "express",
                Role::Used,
                "src/routes/users.ts",
            ),
            GuardNote::new(
                "requireAuth",
                "middleware",
                "express",
                Role::Candidate,
                "src/middleware/auth.ts",
            ),
            GuardNote::new(
                "verifyHelper",
                "middleware",
                "express",
                Role::Candidate,
                "src/middleware/auth.ts",
            ),
            GuardNote::new("RolesGuard", "guard", "nestjs", Role::Defined, "src/roles.guard.ts"),
        ];
        let endpoint = |guards: &[&str]| Endpoint {
            guards: guards.iter().map(|g| g.to_string()).collect(),
            ..Endpoint::default()
        };
        let guards = link(
            &notes,
            &[endpoint(&["requireAuth"]), endpoint(&["requireAuth", "RolesGuard"])],
        );
        let lines: Vec<String> = guards
            .iter()
            .map(|g| format!("{} {} {} {}", g.name, g.kind, g.endpoints, g.file))
            .collect();
        assert_eq!(
            lines,
            [
                "RolesGuard guard 1 src/roles.guard.ts",
                "requireAuth middleware 2 src/middleware/auth.ts",
            ]
        );
    }
}
