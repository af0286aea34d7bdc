//! What one file says that only the other files complete: the classes a model extends or
//! embeds (they lend it columns and constraints, see [`validated`]), key columns it puts on another model's table (see
//! [`inherit`]), join tables named from both sides' tables ([`join_naming`]), and a filter chain's request-matcher rules (they guard endpoints registered
//! anywhere, see [`matchers`]). Gathered file by file, applied once every file is read.

use super::hits::Hit;
use super::inherit::{self, Join, Lenders};
use super::join_naming::{self, ManyToMany};
use super::{matchers, validated};
use crate::bridge::facts::Facts;

/// The cross-file facts of the files read so far.
#[derive(Default)]
pub struct Links {
    lenders: Lenders,
    joins: Vec<Join>,
    /// Types bound with `@Valid` (`valid.type`).
    bound: Vec<String>,
    matchers: Vec<matchers::Rule>,
    /// Many-to-many relations whose join tables the framework names (`join_naming`).
    many: Vec<ManyToMany>,
}

impl Links {
    /// The links of one file's hits.
    pub fn of(path: &str, hits: &[Hit<'_>]) -> Links {
        let mut links = Links {
            many: join_naming::of(path, hits),
            ..Links::default()
        };
        for hit in hits {
            if let (Some(model), Some(parent)) = (hit.text("table.model"), hit.text("table.parent")) {
                links.lenders.parents.push((model.to_owned(), parent.to_owned()));
            }
            if let (Some(model), Some(embedded)) = (hit.text("embed.model"), hit.text("embed.type")) {
                links.lenders.embeds.push((model.to_owned(), embedded.to_owned()));
            }
            if let (Some(model), Some(column), Some(target)) =
                (hit.text("join.model"), hit.text("join.column"), hit.text("join.target"))
            {
                links.joins.push(Join {
                    target: target.to_owned(),
                    column: super::text::literal(column),
                    model: model.to_owned(),
                });
            }
            if let Some(bound) = hit.text("valid.type") {
                links.bound.push(bound.to_owned());
            }
            links.matchers.extend(matchers::Rule::of(path, hit));
        }
        links
    }

    pub fn append(&mut self, mut other: Links) {
        self.lenders.parents.append(&mut other.lenders.parents);
        self.lenders.embeds.append(&mut other.lenders.embeds);
        self.joins.append(&mut other.joins);
        self.bound.append(&mut other.bound);
        self.matchers.append(&mut other.matchers);
        self.many.append(&mut other.many);
    }

    /// Completes `facts` (every file's) with what the links say.
    pub fn apply(self, facts: &mut Facts) {
        validated::apply(facts, &self.lenders.parents, &self.bound);
        inherit::apply(&mut facts.tables, &self.lenders, &self.joins);
        join_naming::apply(&mut facts.tables, self.many);
        matchers::apply(facts, self.matchers);
    }
}
