//! Applies one [`Change`] at a time to the schema as the migrations so far left it. A table
//! the run only alters (created before the run) is kept as what the run did to it: the
//! columns it added or changed, with `origin: alter`; what the run drops that it did not
//! create is listed in `dropped`. Renames follow through: indexes move with their table,
//! foreign keys of other tables point at the new name, a renamed column is renamed in the
//! keys and indexes that name it.

use std::collections::HashMap;

use super::{Change, ChangeKind, Name, TableOp};
use crate::bridge::facts::key as table_key;
use crate::bridge::facts::{Dropped, DroppedKind, EnumType, ForeignKey, Index, Table, push_once};

/// The schema as the changes applied so far left it, with its tables and named indexes
/// looked up by name in a map (a repository's thousands of migrations make a scan per
/// statement quadratic); the maps are rebuilt when something is removed.
#[derive(Debug, Default)]
pub struct Replayed {
    pub tables: Vec<Table>,
    pub indexes: Vec<Index>,
    pub enums: Vec<EnumType>,
    pub dropped: Vec<Dropped>,
    table_at: HashMap<(String, String), usize>,
    index_at: HashMap<String, usize>,
}

/// An index's key: its name without a schema, in lower case.
fn index_key(name: &str) -> String {
    name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase()
}

impl Replayed {
    /// Applies `change`.
    pub fn apply(&mut self, change: Change) {
        let file = change.file;
        match change.kind {
            ChangeKind::CreateTable { table, if_not_exists } => self.create_table(table, if_not_exists, &file),
            ChangeKind::AlterTable { target, ops } => {
                let at = self.table_to_alter(&target, &file);
                for op in ops {
                    self.alter(at, op, &file);
                }
            }
            ChangeKind::DropTable(target) => self.drop_table(&target, &file),
            ChangeKind::CreateIndex { index, if_not_exists } => {
                let same = index.name.as_deref().and_then(|n| self.index_named(n));
                match same {
                    Some(_) if if_not_exists => {}
                    Some(at) => self.indexes[at] = index,
                    None => self.push_index(index),
                }
            }
            ChangeKind::DropIndex(name) => match self.index_named(&name) {
                Some(at) => self.remove_index(at),
                None => self.drop_unknown(DroppedKind::Index, &name, &file),
            },
            ChangeKind::RenameIndex { from, to } => self.rename_index(&from, to),
            ChangeKind::CreateEnum(new) => match self.enum_named(&Name::of(&new.name, &new.schema)) {
                Some(at) => self.enums[at] = new,
                None => {
                    self.dropped
                        .retain(|d| !(d.kind == DroppedKind::Type && d.name == new.name));
                    self.enums.push(new);
                }
            },
            ChangeKind::AddEnumValue { target, value } => {
                if let Some(at) = self.enum_named(&target) {
                    push_once(&mut self.enums[at].values, value);
                }
            }
            ChangeKind::RenameEnumValue { target, from, to } => {
                if let Some(at) = self.enum_named(&target) {
                    for value in self.enums[at].values.iter_mut().filter(|v| **v == from) {
                        *value = to.clone();
                    }
                }
            }
            ChangeKind::RenameType { target, to } => {
                if let Some(at) = self.enum_named(&target) {
                    let old = target.qualified();
                    let new = Name::of(&to, &self.enums[at].schema);
                    self.enums[at].name = to;
                    for column in self.tables.iter_mut().flat_map(|t| t.columns.iter_mut()) {
                        if column
                            .data_type
                            .as_deref()
                            .is_some_and(|t| t.eq_ignore_ascii_case(&old))
                        {
                            column.data_type = Some(new.qualified());
                        }
                    }
                }
            }
            ChangeKind::DropType(target) => match self.enum_named(&target) {
                Some(at) => {
                    self.enums.remove(at);
                }
                None => self.drop_unknown(DroppedKind::Type, &target.qualified(), &file),
            },
        }
    }

    fn table_named(&self, target: &Name) -> Option<usize> {
        self.table_at.get(&table_key(&target.name, &target.schema)).copied()
    }

    fn index_named(&self, name: &str) -> Option<usize> {
        self.index_at.get(&index_key(name)).copied()
    }

    fn rename_index(&mut self, from: &str, to: String) {
        if let Some(at) = self.index_named(from) {
            self.index_at.remove(&index_key(from));
            self.index_at.insert(index_key(&to), at);
            self.indexes[at].name = Some(to);
        }
    }

    fn push_table(&mut self, table: Table) -> usize {
        let at = self.tables.len();
        self.table_at.insert(table_key(&table.name, &table.schema), at);
        self.tables.push(table);
        at
    }

    fn push_index(&mut self, index: Index) {
        if let Some(name) = &index.name {
            self.index_at.entry(index_key(name)).or_insert(self.indexes.len());
        }
        self.indexes.push(index);
    }

    fn remove_index(&mut self, at: usize) {
        self.indexes.remove(at);
        self.reindex();
    }

    /// The lookups again, after tables or indexes were removed.
    fn reindex(&mut self) {
        let (tables, indexes) = (std::mem::take(&mut self.tables), std::mem::take(&mut self.indexes));
        self.table_at.clear();
        self.index_at.clear();
        for table in tables {
            self.push_table(table);
        }
        indexes.into_iter().for_each(|index| self.push_index(index));
    }

    fn enum_named(&self, target: &Name) -> Option<usize> {
        self.enums.iter().position(|e| target.is(&e.name, &e.schema))
    }

    fn drop_unknown(&mut self, kind: DroppedKind, name: &str, file: &str) {
        let dropped = Dropped {
            kind,
            name: name.into(),
            file: file.into(),
        };
        push_once(&mut self.dropped, dropped);
    }

    fn create_table(&mut self, mut table: Table, if_not_exists: bool, file: &str) {
        let name = Name::of(&table.name, &table.schema);
        match self.table_named(&name) {
            Some(at) if if_not_exists => touch(&mut self.tables[at], file),
            Some(at) => {
                table.sources = std::mem::take(&mut self.tables[at].sources);
                touch(&mut table, file);
                self.tables[at] = table;
            }
            None => {
                self.dropped
                    .retain(|d| !(d.kind == DroppedKind::Table && name.is_written(&d.name)));
                table.sources = vec![file.to_owned()];
                self.push_table(table);
            }
        }
    }

    /// The table an `ALTER TABLE` changes; one the run did not create is started empty.
    fn table_to_alter(&mut self, target: &Name, file: &str) -> usize {
        if let Some(at) = self.table_named(target) {
            touch(&mut self.tables[at], file);
            return at;
        }
        self.push_table(Table {
            name: target.name.clone(),
            schema: target.schema.clone(),
            origin: "alter".into(),
            file: file.to_owned(),
            sources: vec![file.to_owned()],
            ..Table::default()
        })
    }

    fn drop_table(&mut self, target: &Name, file: &str) {
        let Some(at) = self.table_named(target) else {
            self.drop_unknown(DroppedKind::Table, &target.qualified(), file);
            return;
        };
        let table = self.tables.remove(at);
        self.forget(&Name::of(&table.name, &table.schema), |_| true);
    }

    /// Removes the indexes on the table `here` and the foreign keys to it whose columns
    /// `gone` says are gone.
    fn forget(&mut self, here: &Name, gone: impl Fn(&[String]) -> bool) {
        self.indexes
            .retain(|i| !(here.is_written(&i.table) && gone(&i.columns)));
        for keys in self.tables.iter_mut().map(|t| &mut t.foreign_keys) {
            keys.retain(|fk| !(here.is_written(&fk.references_table) && gone(&fk.references_columns)));
        }
        self.reindex();
    }

    fn alter(&mut self, at: usize, op: TableOp, file: &str) {
        let partial = self.tables[at].origin == "alter";
        let here = Name::of(&self.tables[at].name, &self.tables[at].schema);
        match op {
            op @ (TableOp::AddColumn { .. }
            | TableOp::AddPrimaryKey(_)
            | TableOp::AddForeignKey(_)
            | TableOp::AddIndex(_)) => {
                if let Some(mut index) = extend(&mut self.tables[at], op) {
                    index.table = here.qualified();
                    self.push_index(index);
                }
            }
            TableOp::DropColumn(name) => {
                let table = &mut self.tables[at];
                let before = table.columns.len();
                table.columns.retain(|c| !c.name.eq_ignore_ascii_case(&name));
                let unknown = table.columns.len() == before;
                table.primary_key.retain(|c| !c.eq_ignore_ascii_case(&name));
                table
                    .foreign_keys
                    .retain(|fk| !fk.columns.iter().any(|c| c.eq_ignore_ascii_case(&name)));
                self.forget(&here, |columns| columns.iter().any(|c| c.eq_ignore_ascii_case(&name)));
                if unknown && partial {
                    self.drop_unknown(DroppedKind::Column, &format!("{}.{name}", here.qualified()), file);
                }
            }
            TableOp::RenameColumn { from, to } => self.rename_column(at, &here, &from, &to),
            TableOp::AlterColumn {
                name,
                data_type,
                nullable,
            } => {
                let column = self.tables[at].column(&name);
                if data_type.is_some() {
                    column.data_type = data_type;
                }
                if nullable.is_some() {
                    column.nullable = nullable;
                }
            }
            TableOp::Rename(new) => {
                let new = Name::of(&new.name, &new.schema.or_else(|| here.schema.clone()));
                self.table_at.remove(&table_key(&here.name, &here.schema));
                self.table_at.insert(table_key(&new.name, &new.schema), at);
                let table = &mut self.tables[at];
                if partial && table.renamed_from.is_none() {
                    table.renamed_from = Some(here.qualified());
                }
                let to = new.qualified();
                (table.name, table.schema) = (new.name, new.schema);
                self.follow(&here, |i| i.table = to.clone(), |fk| fk.references_table = to.clone());
            }
            TableOp::DropConstraint(name) => {
                if !self.drop_constraint(at, &here, &name, true) && partial {
                    self.drop_unknown(DroppedKind::Constraint, &format!("{}.{name}", here.qualified()), file);
                }
            }
            TableOp::DropPrimaryKey => drop_primary_key(&mut self.tables[at]),
            TableOp::DropIndex(name) => match self.index_named(&name) {
                Some(found) => self.remove_index(found),
                None if !self.drop_constraint(at, &here, &name, false) => {
                    self.drop_unknown(DroppedKind::Index, &name, file)
                }
                None => {}
            },
            TableOp::RenameConstraint { from, to } => {
                let table = &mut self.tables[at];
                let defaults = default_key_names(table);
                for (fk, default) in table.foreign_keys.iter_mut().zip(defaults) {
                    if key_named(fk, &default, &from) {
                        fk.name = Some(to.clone());
                    }
                }
                self.rename_index(&from, to);
            }
        }
    }

    fn rename_column(&mut self, at: usize, here: &Name, from: &str, to: &str) {
        let rename = |c: &mut String| {
            if c.eq_ignore_ascii_case(from) {
                *c = to.to_owned();
            }
        };
        let table = &mut self.tables[at];
        table.column(from).name = to.to_owned();
        table.primary_key.iter_mut().for_each(rename);
        for fk in &mut table.foreign_keys {
            fk.columns.iter_mut().for_each(rename);
        }
        self.follow(
            here,
            |i| i.columns.iter_mut().for_each(rename),
            |fk| fk.references_columns.iter_mut().for_each(rename),
        );
    }

    /// Changes the indexes on the table `here` and the foreign keys (of every table) to it.
    fn follow(&mut self, here: &Name, index: impl FnMut(&mut Index), key: impl FnMut(&mut ForeignKey)) {
        let indexes = self.indexes.iter_mut().filter(|i| here.is_written(&i.table));
        indexes.for_each(index);
        let keys = self.tables.iter_mut().flat_map(|t| t.foreign_keys.iter_mut());
        keys.filter(|fk| here.is_written(&fk.references_table)).for_each(key);
    }

    /// Drops the foreign key, primary key or (when `indexes`) unique constraint named `name`
    /// from table `at`: by its own name or the one PostgreSQL or MySQL gives an unnamed one.
    fn drop_constraint(&mut self, at: usize, here: &Name, name: &str, indexes: bool) -> bool {
        let table = &mut self.tables[at];
        let defaults = default_key_names(table);
        let before = table.foreign_keys.len();
        let mut defaults = defaults.iter();
        table
            .foreign_keys
            .retain(|fk| defaults.next().is_none_or(|default| !key_named(fk, default, name)));
        if table.foreign_keys.len() < before {
            return true;
        }
        let pk_names = [format!("{}_pkey", table.name), "PRIMARY".to_owned()];
        if !table.primary_key.is_empty() && pk_names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
            drop_primary_key(table);
            return true;
        }
        let table_name = table.name.clone();
        if !indexes {
            return false;
        }
        if let Some(found) = self.index_named(name) {
            self.remove_index(found);
            return true;
        }
        let unnamed = self.indexes.iter().position(|i| {
            i.name.is_none()
                && here.is_written(&i.table)
                && format!("{table_name}_{}_key", i.columns.join("_")).eq_ignore_ascii_case(name)
        });
        let Some(found) = unnamed else {
            return false;
        };
        let index = self.indexes.remove(found);
        self.reindex();
        mark_unique(&mut self.tables[at], &index, false);
        true
    }
}

/// The table a `CREATE TABLE` (or `op.create_table`) in `file` makes of its columns and
/// constraints, and the indexes these make, for the caller to keep.
pub fn created(name: Name, file: &str, ops: impl IntoIterator<Item = TableOp>) -> (Table, Vec<Index>) {
    let mut table = Table {
        name: name.name,
        schema: name.schema,
        origin: "create".into(),
        file: file.to_owned(),
        ..Table::default()
    };
    let indexes = ops.into_iter().filter_map(|op| extend(&mut table, op)).collect();
    (table, indexes)
}

/// Adds a column (with the keys its definition carries), a primary key, a foreign key or an
/// index (a unique one makes its one column unique) to `table`; the index is returned for the
/// caller to keep. CREATE TABLE builds its table with these, as ALTER TABLE changes one.
fn extend(table: &mut Table, op: TableOp) -> Option<Index> {
    match op {
        TableOp::AddColumn { column, foreign_key } => {
            if column.primary_key && !table.primary_key.contains(&column.name) {
                table.primary_key.push(column.name.clone());
            }
            let name = column.name.clone();
            *table.column(&name) = column;
            if let Some(fk) = foreign_key {
                push_once(&mut table.foreign_keys, fk);
            }
        }
        TableOp::AddPrimaryKey(columns) => {
            for column in table.columns.iter_mut() {
                if columns.iter().any(|c| c.eq_ignore_ascii_case(&column.name)) {
                    column.primary_key = true;
                    column.nullable = Some(false);
                }
            }
            table.primary_key = columns;
        }
        TableOp::AddForeignKey(fk) => push_once(&mut table.foreign_keys, fk),
        TableOp::AddIndex(index) => {
            mark_unique(table, &index, true);
            return Some(index);
        }
        _ => {}
    }
    None
}

/// The names PostgreSQL (`orders_user_id_fkey`) and MySQL (`orders_ibfk_1`) give each of the
/// table's foreign keys when it has none of its own.
fn default_key_names(table: &Table) -> Vec<[String; 2]> {
    let mut unnamed = 0;
    table
        .foreign_keys
        .iter()
        .map(|fk| {
            if fk.name.is_none() {
                unnamed += 1;
            }
            [
                format!("{}_{}_fkey", table.name, fk.columns.join("_")),
                format!("{}_ibfk_{unnamed}", table.name),
            ]
        })
        .collect()
}

fn drop_primary_key(table: &mut Table) {
    table.primary_key.clear();
    table.columns.iter_mut().for_each(|c| c.primary_key = false);
}

/// Whether `fk` is named `name`: by its own name, or by a default name when it has none.
fn key_named(fk: &ForeignKey, default: &[String; 2], name: &str) -> bool {
    let own = fk.name.as_deref().unwrap_or(&default[0]);
    own.eq_ignore_ascii_case(name) || (fk.name.is_none() && default[1].eq_ignore_ascii_case(name))
}

/// A unique index on one column makes (or, dropped, leaves) that column unique.
fn mark_unique(table: &mut Table, index: &Index, unique: bool) {
    if let ([only], true) = (index.columns.as_slice(), index.unique || !unique)
        && let Some(column) = table.column_named(only)
    {
        column.unique = unique;
    }
}

/// Adds `file` to the table's sources.
fn touch(table: &mut Table, file: &str) {
    push_once(&mut table.sources, file.to_owned());
}
