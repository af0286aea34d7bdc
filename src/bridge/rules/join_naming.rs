//! Join tables a framework names from both sides' tables, which may be written in other files:
//! TypeORM's `@ManyToMany(() => Topic) @JoinTable() topics` on `Course` (table `courses`, key
//! `id`) makes `courses_topics_topic` with `coursesId` and `topicSlug` (its default naming
//! strategy), unless `@JoinTable` names the table or its columns; both columns are the key,
//! each a foreign key to its side.

use std::ops::Range;

use super::hits::{Hit, inside};
use super::naming::{renamed, snake_case};
use super::text::literal;
use super::{columns, scopes};
use crate::bridge::facts::{Column, Table};

/// A many-to-many relation written on `owner`'s `property`, to `other`.
#[derive(Default)]
pub struct ManyToMany {
    pub scope: Range<usize>,
    pub owner: String,
    pub property: String,
    pub other: String,
    pub table: Option<String>,
    pub own_column: Option<String>,
    pub other_column: Option<String>,
    pub framework: String,
    pub file: String,
}

/// The relations of one file's hits (`join.scope`, with the options inside it).
pub fn of(path: &str, hits: &[Hit<'_>]) -> Vec<ManyToMany> {
    let owners: Vec<(&Range<usize>, &str)> = hits
        .iter()
        .filter_map(|hit| Some((&hit.get("table.scope")?.range, hit.text("table.model")?)))
        .collect();
    let mut joins: Vec<ManyToMany> = Vec::new();
    for hit in hits {
        let (Some(scope), Some(other), Some(property)) =
            (hit.get("join.scope"), hit.text("join.other"), hit.text("join.property"))
        else {
            continue;
        };
        if let Some(owner) = scopes::around(owners.iter().copied(), &scope.range) {
            joins.push(ManyToMany {
                scope: scope.range.clone(),
                owner: owner.to_owned(),
                property: property.to_owned(),
                other: literal(other),
                framework: hit.framework().to_owned(),
                file: path.to_owned(),
                ..ManyToMany::default()
            });
        }
    }
    for hit in hits.iter().filter(|hit| hit.get("join.scope").is_none()) {
        let Some(first) = hit.captures.first() else { continue };
        let Some(join) = joins.iter_mut().find(|join| inside(&first.range, &join.scope)) else {
            continue;
        };
        let text = |name: &str| hit.text(name).map(literal);
        join.table = text("join.table").or(join.table.take());
        join.own_column = text("join.own_column").or(join.own_column.take());
        join.other_column = text("join.other_column").or(join.other_column.take());
    }
    joins
}

/// Adds the join tables of `joins` to `tables` (after the entities' inherited keys are known).
pub fn apply(tables: &mut Vec<Table>, joins: Vec<ManyToMany>) {
    for join in joins {
        // A side's table and first key column; by the naming rule when not among the tables.
        let side = |model: &str| {
            tables
                .iter()
                .find(|table| table.model.as_deref() == Some(model))
                .map(|table| {
                    let key = table.primary_key.first().cloned().unwrap_or_else(|| "id".into());
                    (table.name.clone(), key)
                })
                .unwrap_or_else(|| (snake_case(model), "id".to_owned()))
        };
        let (owner_table, owner_key) = side(&join.owner);
        let (other_table, other_key) = side(&join.other);
        let name = join.table.unwrap_or_else(|| {
            snake_case(&format!(
                "{owner_table}_{}_{other_table}",
                join.property.replace('.', "_")
            ))
        });
        let own = join
            .own_column
            .unwrap_or_else(|| renamed(&format!("{owner_table}_{owner_key}"), Some("camelCase")));
        let other = join
            .other_column
            .unwrap_or_else(|| renamed(&format!("{other_table}_{other_key}"), Some("camelCase")));
        let mut table = Table {
            name,
            origin: "model".into(),
            framework: Some(join.framework),
            file: join.file,
            ..Table::default()
        };
        for (column, references, key) in [(own, owner_table, owner_key), (other, other_table, other_key)] {
            table.columns.push(Column {
                name: column.clone(),
                primary_key: true,
                nullable: Some(false),
                ..Column::default()
            });
            table.primary_key.push(column.clone());
            table.foreign_keys.push(columns::key(column, references, vec![key]));
        }
        tables.push(table);
    }
}
