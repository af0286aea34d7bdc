//! ORM models as tables: Django models (SQLAlchemy's and Alembic's migrations are read by
//! the rules, `rules/families/sqlalchemy` and `families/alembic`). A
//! file's scan names the model a foreign key points at; linking turns that into the model's
//! table (and its primary key), falls back on the ORM's naming rule when the model is not
//! among the run's files, and gives models their abstract parents' columns.

pub mod django;
pub mod django_apps;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use crate::bridge::extract::syntax::python::last_segment;
use crate::bridge::facts::{Column, Index, Table};

/// How many parents deep Django model inheritance is followed.
const MAX_INHERITANCE: usize = 8;

/// Bases that make a class a Django model.
const MODEL_ROOTS: &[&str] = &["models.Model", "Model", "AbstractUser", "AbstractBaseUser"];

/// A Django table as one file declares it, references to other models unresolved.
#[derive(Debug, Clone, Default)]
pub struct PendingTable {
    /// Its foreign keys' `references_table` names a model by its class until linking.
    pub table: Table,
    /// The table the ORM's naming rule gives each foreign key's model (by position) when the
    /// model is not among the run's.
    pub fallbacks: Vec<String>,
    pub indexes: Vec<Index>,
    /// The class's bases as written, and whether it is abstract (never a table itself).
    pub bases: Vec<String>,
    pub is_abstract: bool,
    /// The app label the file's path suggests, when it names the table (not `db_table`); the
    /// app's `AppConfig` may say another (see `django_apps`).
    pub app_label: Option<String>,
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
    let found = |name: &str| by_model.get(name).map(|at| &pending[*at].table);
    let mut tables = Vec::new();
    let mut indexes = Vec::new();
    for item in &pending {
        if item.is_abstract {
            continue;
        }
        let mut table = item.table.clone();
        for (foreign, fallback) in table.foreign_keys.iter_mut().zip(&item.fallbacks) {
            match found(&foreign.references_table) {
                Some(target) => {
                    foreign.references_table = target.name.clone();
                    if foreign.references_columns.is_empty() {
                        foreign.references_columns = target.primary_key.clone();
                    }
                }
                None => foreign.references_table = fallback.clone(),
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

/// Drops Django classes that are no models, and gives each model the columns (with their
/// keys and indexes) of its abstract parents (`abstract = True` models). Parents come first,
/// in the order the bases are written; a concrete parent (a
/// table of its own) gives nothing.
fn inherit(pending: Vec<PendingTable>) -> Vec<PendingTable> {
    let by_class: HashMap<&str, usize> = pending
        .iter()
        .enumerate()
        .filter_map(|(at, item)| Some((item.table.model.as_deref()?, at)))
        .collect();
    let parent_of = |base: &str| by_class.get(last_segment(base)).copied();
    let is_model = |mut at: usize| {
        for _ in 0..MAX_INHERITANCE {
            let bases = &pending[at].bases;
            let root = |base: &String| MODEL_ROOTS.contains(&base.as_str()) || base.ends_with(".AbstractUser");
            if bases.iter().any(root) {
                return true;
            }
            match bases.iter().find_map(|base| parent_of(base)) {
                Some(parent) => at = parent,
                None => return false,
            }
        }
        false
    };
    let mut out = Vec::new();
    for (at, item) in pending.iter().enumerate().filter(|(at, _)| is_model(*at)) {
        let mut item = item.clone();
        let mut parents = Vec::new();
        abstract_parents(&pending, at, &parent_of, 0, &mut parents);
        let mut at_column = usize::from(item.table.columns.first().is_some_and(django::is_implicit_id));
        for parent in parents {
            let base = &pending[parent];
            for column in &base.table.columns {
                if item.table.columns.iter().any(|have| have.name == column.name) {
                    continue;
                }
                if column.primary_key {
                    item.table.columns.retain(|have| !django::is_implicit_id(have));
                    at_column = at_column.min(item.table.columns.len());
                    item.table.primary_key.retain(|key| key != "id");
                    item.table.primary_key.push(column.name.clone());
                }
                item.table.columns.insert(at_column, column.clone());
                at_column += 1;
                let keys = base.table.foreign_keys.iter().zip(&base.fallbacks);
                for (foreign, fallback) in keys.filter(|(foreign, _)| foreign.columns.contains(&column.name)) {
                    item.table.foreign_keys.push(foreign.clone());
                    item.fallbacks.push(fallback.clone());
                }
            }
            for index in &base.indexes {
                let mut index = index.clone();
                index.table = item.table.name.clone();
                item.indexes.push(index);
            }
        }
        out.push(item);
    }
    out
}

/// The abstract parents of `pending[at]`, the deepest first, each once.
fn abstract_parents(
    pending: &[PendingTable],
    at: usize,
    parent_of: &impl Fn(&str) -> Option<usize>,
    depth: usize,
    out: &mut Vec<usize>,
) {
    if depth >= MAX_INHERITANCE {
        return;
    }
    let item = &pending[at];
    for base in &item.bases {
        let Some(parent) = parent_of(base).filter(|p| *p != at && pending[*p].is_abstract) else {
            continue;
        };
        abstract_parents(pending, parent, parent_of, depth + 1, out);
        if !out.contains(&parent) {
            out.push(parent);
        }
    }
}

/// A column with its name and type; the rest unset.
pub fn column(name: &str, data_type: Option<String>) -> Column {
    Column {
        name: name.to_owned(),
        data_type,
        ..Column::default()
    }
}
