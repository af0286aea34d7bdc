//! What one file says that only the other files complete: the classes a model extends or
//! embeds (they lend it columns and constraints, see [`validated`]), key columns it puts on another model's table (see
//! [`inherit`]), join tables named from both sides' tables ([`join_naming`]), a filter chain's
//! request-matcher rules (they guard endpoints registered anywhere, see [`matchers`]),
//! components re-exported from other files and Next.js middleware (it guards the file routes
//! its matchers cover). Gathered file by file, applied once every file is read.

use super::components::{self, ReExport};
use super::django_models::{self, Notes};
use super::hits::Hit;
use super::inherit::{self, Join, Lenders};
use super::join_naming::{self, ManyToMany};
use super::text::literal;
use super::{matchers, validated};
use crate::bridge::code_model::guards::is_auth_name;
use crate::bridge::facts::{Facts, Guard, push_once};

/// The cross-file facts of the files read so far.
#[derive(Default)]
pub struct Links {
    lenders: Lenders,
    joins: Vec<Join>,
    /// Types bound with `@Valid` (`valid.type`).
    bound: Vec<String>,
    matchers: Vec<matchers::Rule>,
    middleware: Vec<Middleware>,
    re_exports: Vec<ReExport>,
    /// Many-to-many relations whose join tables the framework names (`join_naming`).
    many: Vec<ManyToMany>,
    /// What Django's models need of other files (`django_models`).
    django: Notes,
}

/// Next.js middleware (`middleware.ts` at the top or in `src/`) that checks auth, with the
/// paths its `config.matcher` names (none: every path).
struct Middleware {
    guard: String,
    matchers: Vec<String>,
    file: String,
    framework: &'static str,
}

impl Middleware {
    fn of(path: &str, hits: &[Hit<'_>]) -> Option<Middleware> {
        let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        let hit = hits.iter().find(|hit| hit.get("middleware.guard").is_some())?;
        let guard = literal(hit.text("middleware.guard")?);
        (matches!(dir, "" | "src") && (is_auth_name(&guard) || guard.contains("auth"))).then(|| Middleware {
            guard,
            matchers: hits
                .iter()
                .filter_map(|hit| hit.text("middleware.matcher"))
                .map(literal)
                .collect(),
            file: path.to_owned(),
            framework: hit.framework(),
        })
    }

    /// True if a matcher covers `path` (`/api/:path*`, `/((?!_next|static).*)`): the literal
    /// part before its first parameter or group is a prefix of the path.
    fn covers(&self, path: &str) -> bool {
        self.matchers.is_empty()
            || self.matchers.iter().any(|matcher| {
                let literal = matcher
                    .split([':', '('])
                    .next()
                    .unwrap_or(matcher)
                    .trim_end_matches('/');
                literal.is_empty() || path == literal || path.starts_with(&format!("{literal}/"))
            })
    }
}

impl Links {
    /// The links of one file's hits.
    pub fn of(path: &str, hits: &[Hit<'_>]) -> Links {
        let mut links = Links {
            many: join_naming::of(path, hits),
            django: Notes::of(path, hits),
            ..Links::default()
        };
        for hit in hits {
            if let (Some(model), Some(parent)) = (hit.text("table.model"), hit.text("table.parent")) {
                // Two rules may see the class (SQLAlchemy's and Django's).
                push_once(&mut links.lenders.parents, (model.to_owned(), parent.to_owned()));
            }
            if let (Some(model), Some(embedded)) = (hit.text("embed.model"), hit.text("embed.type")) {
                links.lenders.embeds.push((model.to_owned(), embedded.to_owned()));
            }
            if let (Some(model), Some(column), Some(target)) =
                (hit.text("join.model"), hit.text("join.column"), hit.text("join.target"))
            {
                links.joins.push(Join {
                    target: target.to_owned(),
                    column: literal(column),
                    model: model.to_owned(),
                });
            }
            if let Some(bound) = hit.text("valid.type") {
                links.bound.push(bound.to_owned());
            }
            links.matchers.extend(matchers::Rule::of(path, hit));
            links.re_exports.extend(ReExport::of(path, hit));
        }
        links.middleware.extend(Middleware::of(path, hits));
        links
    }

    /// Only what Django's models need (a test file's models are tables too).
    pub fn django_only(self) -> Links {
        let mut lenders = self.lenders;
        lenders.parents.retain(|(model, _)| self.django.has_class(model));
        lenders.embeds.clear();
        Links {
            lenders,
            many: self
                .many
                .into_iter()
                .filter(|join| join.framework == "django")
                .collect(),
            django: self.django,
            ..Links::default()
        }
    }

    pub fn append(&mut self, mut other: Links) {
        self.lenders.parents.append(&mut other.lenders.parents);
        self.lenders.embeds.append(&mut other.lenders.embeds);
        self.joins.append(&mut other.joins);
        self.bound.append(&mut other.bound);
        self.matchers.append(&mut other.matchers);
        self.middleware.append(&mut other.middleware);
        self.re_exports.append(&mut other.re_exports);
        self.many.append(&mut other.many);
        self.django.append(other.django);
    }

    /// Completes `facts` (every file's, of the files at `paths`) with what the links say.
    pub fn apply(self, facts: &mut Facts, paths: &[&str]) {
        components::re_exports(&mut facts.components, &self.re_exports, paths);
        validated::apply(facts, &self.lenders.parents, &self.bound);
        let (django, many) = self.many.into_iter().partition(|join| join.framework == "django");
        self.django.link(&mut facts.tables, &mut facts.indexes, django);
        inherit::apply(&mut facts.tables, &mut facts.indexes, &self.lenders, &self.joins);
        django_models::add_ids(&mut facts.tables);
        join_naming::apply(&mut facts.tables, many);
        matchers::apply(facts, self.matchers);
        for middleware in &self.middleware {
            facts.guards.push(Guard {
                name: middleware.guard.clone(),
                kind: "middleware".into(),
                framework: Some(middleware.framework.to_owned()),
                file: middleware.file.clone(),
                ..Guard::default()
            });
            let covered = facts
                .endpoints
                .iter_mut()
                .filter(|e| e.framework == middleware.framework);
            for endpoint in covered.filter(|e| middleware.covers(&e.path)) {
                if !endpoint.guards.contains(&middleware.guard) {
                    endpoint.guards.insert(0, middleware.guard.clone());
                }
            }
        }
    }
}
