//! JPA's tables across files: an entity has the columns of the `@MappedSuperclass` classes it
//! extends and of the `@Embeddable` classes it embeds (`Owner extends Person extends
//! BaseEntity` has `id`, `first_name`, …; `@Embedded Email email` brings `email`), wherever
//! those are written, and those lenders are no tables themselves. A `@OneToMany` with a
//! `@JoinColumn` puts its key column on the element's table. A foreign key named after a
//! referenced entity's class points at that entity's table when `@Table` names it otherwise
//! (`Owner` → `owners`; TypeORM's, Diesel's and SQLAlchemy's likewise), one naming a Rust module's entity (SeaORM's
//! `super::cake::Entity`) at the table that module's file declares, and a key naming no
//! column refers to the referenced table's primary key.

use std::collections::HashMap;

use super::{columns, naming};
use crate::bridge::code_model::lineage::ancestry;
use crate::bridge::code_model::modules::rust::{module_of, segments, target_module};
use crate::bridge::facts::{Column, ForeignKey, Index, Table, push_once};

/// The origins the rules give classes that lend columns instead of being tables.
const LENDERS: &[&str] = &["mapped-superclass", "embeddable"];

/// Deepest chain of lenders followed (a cycle stops there).
const MAX_DEPTH: usize = 16;

/// The classes each model extends and embeds, as `(model, lender)`.
#[derive(Default)]
pub struct Lenders {
    pub parents: Vec<(String, String)>,
    pub embeds: Vec<(String, String)>,
}

/// `@OneToMany @JoinColumn(name = column) List<Target>` written in `model`.
pub struct Join {
    pub target: String,
    pub column: String,
    pub model: String,
}

/// What a table holds: columns, key, foreign keys.
type Parts = (Vec<Column>, Vec<String>, Vec<ForeignKey>);

/// Applies inheritance, embedding, joins and references to `tables` (and `indexes`).
pub fn apply(tables: &mut Vec<Table>, indexes: &mut Vec<Index>, lenders: &Lenders, joins: &[Join]) {
    let lending = |table: &Table| LENDERS.contains(&table.origin.as_str());
    let bases: HashMap<String, Table> = tables
        .iter()
        .filter(|table| lending(table))
        .filter_map(|table| Some((table.model.clone()?, table.clone())))
        .collect();
    let embedders = embedders(tables, &bases, lenders);
    tables.retain(|table| !lending(table));
    lend_indexes(tables, indexes, &bases, lenders);
    for table in tables.iter_mut() {
        let Some(model) = table.model.clone() else { continue };
        let own = (
            std::mem::take(&mut table.columns),
            std::mem::take(&mut table.primary_key),
            std::mem::take(&mut table.foreign_keys),
        );
        (table.columns, table.primary_key, table.foreign_keys) = parts(&model, own, &bases, lenders, 0);
    }
    retarget(tables, &embedders);
    add_joins(tables, joins);
}

/// The indexes written on a lender (`index=True` on a mixin's column) are on the tables of
/// the models extending it.
fn lend_indexes(tables: &[Table], indexes: &mut Vec<Index>, bases: &HashMap<String, Table>, lenders: &Lenders) {
    let lender = |index: &Index| {
        let lender = bases
            .iter()
            .find(|(_, base)| base.name == index.table && base.file == index.file);
        lender.map(|(model, _)| model.as_str())
    };
    let (lent, kept): (Vec<Index>, Vec<Index>) = std::mem::take(indexes)
        .into_iter()
        .partition(|index| lender(index).is_some());
    *indexes = kept;
    if lent.is_empty() {
        return;
    }
    for table in tables {
        let Some(model) = &table.model else { continue };
        let ancestors = ancestry(model.as_str(), MAX_DEPTH, |model| {
            let parents = lenders.parents.iter().filter(|(m, _)| m == model);
            parents
                .map(|(_, p)| p.as_str())
                .filter(|p| bases.contains_key(*p))
                .collect()
        });
        let inherited = |index: &&Index| lender(index).is_some_and(|lender| ancestors[1..].contains(&lender));
        for index in lent.iter().filter(inherited) {
            indexes.push(Index {
                table: table.name.clone(),
                ..index.clone()
            });
        }
    }
}

/// An embeddable's conventional table name → the table of the entity that embeds it (a key
/// written in an embeddable refers to its entity).
fn embedders(tables: &[Table], bases: &HashMap<String, Table>, lenders: &Lenders) -> HashMap<String, String> {
    lenders
        .embeds
        .iter()
        .filter(|(_, embedded)| bases.contains_key(embedded))
        .filter_map(|(model, embedded)| {
            let entity = tables
                .iter()
                .find(|table| table.model.as_deref() == Some(model.as_str()))?;
            Some((naming::snake_case(embedded), entity.name.clone()))
        })
        .collect()
}

/// A model's parts: its parents' first, then its own, then its embeddables'.
fn parts(model: &str, own: Parts, bases: &HashMap<String, Table>, lenders: &Lenders, depth: usize) -> Parts {
    let lent = |lender: &str| -> Option<Parts> {
        let base = bases.get(lender).filter(|_| depth < MAX_DEPTH)?;
        let own = (
            base.columns.clone(),
            base.primary_key.clone(),
            base.foreign_keys.clone(),
        );
        Some(parts(lender, own, bases, lenders, depth + 1))
    };
    let mut all: Parts = Default::default();
    let parents = lenders.parents.iter().filter(|(m, _)| m == model);
    for (_, parent) in parents {
        add(&mut all, lent(parent));
    }
    add(&mut all, Some(own));
    for (_, embedded) in lenders.embeds.iter().filter(|(m, _)| m == model) {
        add(&mut all, lent(embedded));
    }
    all
}

fn add(all: &mut Parts, parts: Option<Parts>) {
    let Some((columns, primary_key, foreign_keys)) = parts else {
        return;
    };
    for column in columns {
        if !all.0.iter().any(|have| have.name == column.name) {
            all.0.push(column);
        }
    }
    for key in primary_key {
        push_once(&mut all.1, key);
    }
    all.2.extend(foreign_keys);
}

/// Points the foreign keys JPA tables name by an entity's class (`owner`) at the entity's
/// table (`owners`) when no table has the conventional name, and those naming an embeddable
/// at its entity's table.
fn retarget(tables: &mut [Table], embedders: &HashMap<String, String>) {
    let jpa = |table: &Table| {
        matches!(
            table.framework.as_deref(),
            Some("jpa" | "typeorm" | "diesel" | "sqlalchemy" | "sqlmodel")
        )
    };
    let mut renamed: HashMap<String, String> = tables
        .iter()
        .filter(|table| jpa(table))
        .filter_map(|table| {
            let conventional = naming::snake_case(table.model.as_deref()?);
            (conventional != table.name).then(|| (conventional, table.name.clone()))
        })
        .filter(|(conventional, _)| !tables.iter().any(|table| table.name == *conventional))
        .collect();
    for (embeddable, entity) in embedders {
        renamed.entry(embeddable.clone()).or_insert_with(|| entity.clone());
    }
    for table in tables.iter_mut().filter(|table| jpa(table)) {
        for key in &mut table.foreign_keys {
            if let Some(name) = renamed.get(&key.references_table) {
                key.references_table = name.clone();
            }
        }
    }
    // A key naming a Rust module's entity (`super::cake::Entity`) refers to the table written
    // in that module's file.
    let modules: Vec<(Vec<String>, String)> = tables
        .iter()
        .map(|table| (module_of(&table.file), table.name.clone()))
        .collect();
    for table in tables.iter_mut() {
        let here = module_of(&table.file);
        for key in table
            .foreign_keys
            .iter_mut()
            .filter(|key| key.references_table.contains("::"))
        {
            let module = target_module(&here, &segments(&key.references_table)).unwrap_or_default();
            key.references_table = match modules.iter().find(|(have, _)| *have == module) {
                Some((_, name)) => name.clone(),
                None => module.last().cloned().unwrap_or_default(),
            };
        }
    }
    // A key naming no column refers to its table's primary key.
    let primary: HashMap<String, Vec<String>> = tables
        .iter()
        .map(|table| (table.name.clone(), table.primary_key.clone()))
        .collect();
    for key in tables.iter_mut().flat_map(|table| &mut table.foreign_keys) {
        if key.references_columns.is_empty() {
            key.references_columns = primary
                .get(&key.references_table)
                .filter(|columns| !columns.is_empty())
                .cloned()
                .unwrap_or_else(|| vec!["id".to_owned()]);
        }
    }
}

/// Adds each join's key column, and its foreign key, to the target model's table.
fn add_joins(tables: &mut [Table], joins: &[Join]) {
    for join in joins {
        let Some(referenced) = tables
            .iter()
            .find(|table| table.model.as_deref() == Some(join.model.as_str()))
            .map(|table| table.name.clone())
        else {
            continue;
        };
        let Some(target) = tables
            .iter_mut()
            .find(|table| table.model.as_deref() == Some(join.target.as_str()))
        else {
            continue;
        };
        let column = Column {
            name: join.column.clone(),
            ..Column::default()
        };
        columns::add(target, column);
        if !target
            .foreign_keys
            .iter()
            .any(|key| key.columns == [join.column.clone()])
        {
            let key = columns::key(join.column.clone(), referenced, vec!["id".to_owned()]);
            target.foreign_keys.push(key);
        }
    }
}
