//! JPA's tables across files: an entity has the columns of the `@MappedSuperclass` classes it
//! extends (`Owner extends Person extends BaseEntity` has `id`, `first_name`, …, wherever
//! those are written), the mapped superclasses are no tables themselves, and a foreign key
//! named after a referenced entity's class points at that entity's table when `@Table` names
//! it otherwise (`Owner` → `owners`).

use std::collections::HashMap;

use super::naming;
use crate::bridge::facts::Table;

/// The origin the rules give a mapped superclass.
const MAPPED_SUPERCLASS: &str = "mapped-superclass";

/// Applies inheritance and references to `tables`; `parents` maps a class to the class it
/// extends.
pub fn apply(tables: &mut Vec<Table>, parents: &[(String, String)]) {
    let parent_of: HashMap<&str, &str> = parents.iter().map(|(c, p)| (c.as_str(), p.as_str())).collect();
    let bases: HashMap<String, Table> = tables
        .iter()
        .filter(|table| table.origin == MAPPED_SUPERCLASS)
        .filter_map(|table| Some((table.model.clone()?, table.clone())))
        .collect();
    tables.retain(|table| table.origin != MAPPED_SUPERCLASS);
    for table in tables.iter_mut() {
        let Some(model) = table.model.as_deref() else { continue };
        let mut chain = Vec::new();
        let mut at = parent_of.get(model).copied();
        while let Some(parent) = at.filter(|_| chain.len() < 16) {
            if let Some(base) = bases.get(parent) {
                chain.push(base);
            }
            at = parent_of.get(parent).copied();
        }
        let mut columns = Vec::new();
        let mut primary_key = Vec::new();
        for base in chain.iter().rev() {
            columns.extend(base.columns.iter().cloned());
            primary_key.extend(base.primary_key.iter().cloned());
            table.foreign_keys.extend(base.foreign_keys.iter().cloned());
        }
        columns.retain(|column| !table.columns.iter().any(|own| own.name == column.name));
        primary_key.retain(|key| !table.primary_key.contains(key));
        columns.append(&mut table.columns);
        primary_key.append(&mut table.primary_key);
        table.columns = columns;
        table.primary_key = primary_key;
    }
    retarget(tables);
}

/// Points the foreign keys JPA tables name by an entity's class (`owner`) at the entity's
/// table (`owners`) when no table has the conventional name.
fn retarget(tables: &mut [Table]) {
    let jpa = |table: &Table| table.framework.as_deref() == Some("jpa");
    let renamed: HashMap<String, String> = tables
        .iter()
        .filter(|table| jpa(table))
        .filter_map(|table| {
            let conventional = naming::snake_case(table.model.as_deref()?);
            (conventional != table.name).then(|| (conventional, table.name.clone()))
        })
        .filter(|(conventional, _)| !tables.iter().any(|table| table.name == *conventional))
        .collect();
    for table in tables.iter_mut().filter(|table| jpa(table)) {
        for key in &mut table.foreign_keys {
            if let Some(name) = renamed.get(&key.references_table) {
                key.references_table = name.clone();
            }
        }
    }
}
