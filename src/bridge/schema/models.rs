//! One table seen in the migrations and in an ORM model (or in two models) is one table: the
//! model's name, framework and field names join the migrations' columns, columns only the
//! model declares are added (a model changed before its migration was written), and every
//! file is named in `sources`. Indexes and enums declared twice the same way are kept once.

use std::collections::HashMap;

use super::Name;
use crate::bridge::facts::key;
use crate::bridge::facts::{EnumType, Index, Table, push_once};

/// `tables` (the migrations' schema, in order) with `models` merged into the tables of the
/// same name; models without a table of their name follow.
pub fn merge(mut tables: Vec<Table>, models: Vec<Table>) -> Vec<Table> {
    let mut at: HashMap<(String, String), usize> = tables
        .iter()
        .enumerate()
        .map(|(i, t)| (key(&t.name, &t.schema), i))
        .collect();
    for mut model in models {
        if model.sources.is_empty() {
            model.sources = vec![model.file.clone()];
        }
        match at.get(&key(&model.name, &model.schema)) {
            Some(&i) => join(&mut tables[i], model),
            None => {
                at.insert(key(&model.name, &model.schema), tables.len());
                tables.push(model);
            }
        }
    }
    tables
}

/// Adds what `model` says about `table` to it.
fn join(table: &mut Table, model: Table) {
    for source in model.sources {
        push_once(&mut table.sources, source);
    }
    if table.origin == "alter" {
        // The run only altered the table; the model has all of it.
        table.origin = model.origin.clone();
        table.file = model.file.clone();
    }
    table.model = table.model.take().or(model.model);
    table.framework = table.framework.take().or(model.framework);
    for column in model.columns {
        let name = column.name.clone();
        table.column(&name).absorb(column);
    }
    if table.primary_key.is_empty() {
        table.primary_key = model.primary_key;
    }
    for fk in model.foreign_keys {
        let same_columns = |have: &Vec<String>| {
            have.len() == fk.columns.len() && have.iter().zip(&fk.columns).all(|(a, b)| a.eq_ignore_ascii_case(b))
        };
        if !table.foreign_keys.iter().any(|have| same_columns(&have.columns)) {
            table.foreign_keys.push(fk);
        }
    }
}

/// The indexes once each: a second one on the same table and columns with the same
/// uniqueness goes (its name is kept when the first had none).
pub fn dedupe_indexes(indexes: Vec<Index>) -> Vec<Index> {
    let mut out: Vec<Index> = Vec::with_capacity(indexes.len());
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(indexes.len());
    for index in indexes {
        let table = Name::parse(&index.table);
        let (schema, name) = key(&table.name, &table.schema);
        let columns = index.columns.join("\0").to_ascii_lowercase();
        let same = format!("{schema}\0{name}\0{columns}\0{}", index.unique);
        match seen.get(&same) {
            Some(&at) => {
                if out[at].name.is_none() {
                    out[at].name = index.name;
                }
            }
            None => {
                seen.insert(same, out.len());
                out.push(index);
            }
        }
    }
    out
}

/// The enums once each: one declared again with the same values (a Prisma enum and its
/// migration's `CREATE TYPE`) goes.
pub fn dedupe_enums(enums: Vec<EnumType>) -> Vec<EnumType> {
    let mut out: Vec<EnumType> = Vec::with_capacity(enums.len());
    for e in enums {
        let name = Name::of(&e.name, &e.schema);
        if !out
            .iter()
            .any(|have| name.is(&have.name, &have.schema) && have.values == e.values)
        {
            out.push(e);
        }
    }
    out
}
