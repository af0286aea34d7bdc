//! ORM models as tables: TypeORM entities, SQLAlchemy and Django models, Diesel `table!`
//! and SeaORM entities. A file's scan names the model a foreign key points at; linking turns
//! that into the model's table (and its primary key), falls back on the ORM's naming rule
//! when the model is not among the run's files, and gives Django models their abstract
//! parents' fields.

pub mod diesel;
pub mod django;
pub mod seaorm;
pub mod sqlalchemy;
#[cfg(test)]
mod tests;
pub mod typeorm;

use std::collections::HashMap;

use super::modules::rust::module_of;
use crate::bridge::facts::{Column, ForeignKey, Index, Table};

/// How many parents deep Django model inheritance is followed.
const MAX_INHERITANCE: usize = 8;

/// A table as one file declares it, references to other models unresolved.
#[derive(Debug, Clone, Default)]
pub struct PendingTable {
    pub table: Table,
    /// Foreign keys whose `references_table` is a model to look up.
    pub targets: Vec<PendingKey>,
    pub indexes: Vec<Index>,
    /// Django: the class's bases as written, and whether it is abstract (never a table itself).
    pub bases: Vec<String>,
    pub is_abstract: bool,
}

/// A foreign key (by its position in `table.foreign_keys`) that names a model.
#[derive(Debug, Clone)]
pub struct PendingKey {
    pub at: usize,
    pub target: ModelRef,
    /// The table the ORM's naming rule gives when the model is not found.
    pub fallback: String,
}

/// How a model is named: by class (TypeORM, Django) or by Rust module path (SeaORM).
#[derive(Debug, Clone, PartialEq)]
pub enum ModelRef {
    Class(String),
    Module(Vec<String>),
}

/// The run's tables with foreign keys pointing at tables, and the ORM indexes.
pub fn link(pending: Vec<PendingTable>) -> (Vec<Table>, Vec<Index>) {
    let pending = inherit(pending);
    let mut by_model: HashMap<&str, usize> = HashMap::new();
    for (at, item) in pending.iter().enumerate() {
        by_model
            .entry(item.table.model.as_deref().unwrap_or(&item.table.name))
            .or_insert(at);
    }
    let found = |target: &ModelRef, framework: &Option<String>| -> Option<&Table> {
        match target {
            ModelRef::Class(name) => by_model.get(name.as_str()).map(|at| &pending[*at].table),
            ModelRef::Module(path) => pending
                .iter()
                .map(|item| &item.table)
                .find(|table| table.framework == *framework && module_of(&table.file) == *path),
        }
    };
    let mut tables = Vec::new();
    let mut indexes = Vec::new();
    for item in &pending {
        if item.is_abstract {
            continue;
        }
        let mut table = item.table.clone();
        for key in &item.targets {
            let Some(foreign) = table.foreign_keys.get_mut(key.at) else {
                continue;
            };
            match found(&key.target, &table.framework) {
                Some(target) => {
                    foreign.references_table = target.name.clone();
                    if foreign.references_columns.is_empty() {
                        foreign.references_columns = target.primary_key.clone();
                    }
                }
                None => foreign.references_table = key.fallback.clone(),
            }
            if foreign.references_columns.is_empty() {
                foreign.references_columns = vec!["id".into()];
            }
        }
        indexes.extend(item.indexes.iter().cloned());
        tables.push(table);
    }
    (tables, indexes)
}

/// Django: drops classes that are no models and gives each model its abstract parents' fields.
fn inherit(pending: Vec<PendingTable>) -> Vec<PendingTable> {
    let by_class: HashMap<String, usize> = pending
        .iter()
        .enumerate()
        .filter(|(_, item)| item.table.framework.as_deref() == Some("django"))
        .filter_map(|(at, item)| Some((item.table.model.clone()?, at)))
        .collect();
    let is_model = |at: usize| -> bool {
        let mut current = at;
        for _ in 0..MAX_INHERITANCE {
            let item: &PendingTable = &pending[current];
            if item.bases.iter().any(|base| base == "models.Model" || base == "Model") {
                return true;
            }
            match item.bases.iter().find_map(|base| by_class.get(base.as_str())) {
                Some(parent) => current = *parent,
                None => return false,
            }
        }
        false
    };
    let keep: Vec<bool> = pending
        .iter()
        .enumerate()
        .map(|(at, item)| item.table.framework.as_deref() != Some("django") || is_model(at))
        .collect();
    let mut out = Vec::new();
    for (at, item) in pending.iter().enumerate() {
        if !keep[at] {
            continue;
        }
        let mut item = item.clone();
        let mut parent = item.bases.iter().find_map(|base| by_class.get(base.as_str()).copied());
        let mut inherited: Vec<(Column, Vec<(ForeignKey, PendingKey)>)> = Vec::new();
        for _ in 0..MAX_INHERITANCE {
            let Some(at) = parent.filter(|at| pending[*at].is_abstract) else {
                break;
            };
            let base = &pending[at];
            for column in base.table.columns.iter().rev() {
                let keys = base
                    .targets
                    .iter()
                    .filter(|key| base.table.foreign_keys[key.at].columns.contains(&column.name))
                    .map(|key| (base.table.foreign_keys[key.at].clone(), key.clone()))
                    .collect();
                inherited.push((column.clone(), keys));
            }
            parent = base.bases.iter().find_map(|b| by_class.get(b.as_str()).copied());
        }
        for (column, keys) in inherited.into_iter() {
            if item.table.columns.iter().any(|have| have.name == column.name) {
                continue;
            }
            if column.primary_key {
                item.table.columns.retain(|have| !django::is_implicit_id(have));
                item.table.primary_key = vec![column.name.clone()];
            }
            // Django's own `id` stays first; a parent's fields come before the child's.
            let at = usize::from(item.table.columns.first().is_some_and(django::is_implicit_id));
            item.table.columns.insert(at, column);
            for (foreign, mut key) in keys {
                key.at = item.table.foreign_keys.len();
                item.table.foreign_keys.push(foreign);
                item.targets.push(key);
            }
        }
        out.push(item);
    }
    out
}

/// `UserProfile` → `user_profile` (TypeORM's and SeaORM's rule).
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (at, c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && at > 0 {
            let previous = chars[at - 1];
            let next_lower = chars.get(at + 1).is_some_and(|n| n.is_ascii_lowercase());
            if previous.is_ascii_lowercase()
                || previous.is_ascii_digit()
                || (previous.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// `author_id` → `authorId` (TypeORM's join column rule).
pub fn camel_case(name: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = !out.is_empty();
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// A column with its name and type; the rest unset.
pub fn column(name: &str, data_type: Option<String>) -> Column {
    Column {
        name: name.to_owned(),
        data_type,
        ..Column::default()
    }
}

#[cfg(test)]
mod naming_tests {
    use super::*;

    #[test]
    fn names_follow_the_orm_rules() {
        assert_eq!(snake_case("UserProfile"), "user_profile");
        assert_eq!(snake_case("APIKey"), "api_key");
        assert_eq!(snake_case("Order2Item"), "order2_item");
        assert_eq!(camel_case("author_id"), "authorId");
        assert_eq!(camel_case("billingAddress_id"), "billingAddressId");
    }
}
