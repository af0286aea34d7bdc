//! From sqlparser's syntax tree to [`Facts`]: CREATE TABLE (columns, types, keys, inline
//! and table-level REFERENCES, MySQL `KEY`s), ALTER TABLE (added columns and constraints),
//! CREATE INDEX and `CREATE TYPE … AS ENUM`. Names are unquoted; qualifiers go to `schema`.

use sqlparser::ast::{
    AlterTableOperation, ColumnDef, ColumnOption, CreateIndex, CreateTable, DataType, Expr, Ident, IndexColumn,
    ObjectName, ObjectNamePart, Statement, TableConstraint, UserDefinedTypeRepresentation,
};

use crate::bridge::facts::{Column, EnumType, Facts, ForeignKey, Index, Table};

/// Adds what `statement` declares to `facts`.
pub fn record(statement: &Statement, file: &str, facts: &mut Facts) {
    match statement {
        Statement::CreateTable(create) => create_table(create, file, facts),
        Statement::AlterTable(alter) => {
            let (name, schema) = split_name(&alter.name);
            let mut table = Table {
                name,
                schema,
                origin: "alter".into(),
                file: file.into(),
                ..Table::default()
            };
            for operation in &alter.operations {
                match operation {
                    AlterTableOperation::AddColumn { column_def, .. } => add_column(&mut table, column_def),
                    AlterTableOperation::AddConstraint { constraint, .. } => {
                        add_constraint(&mut table, constraint, file, facts)
                    }
                    _ => {}
                }
            }
            if !(table.columns.is_empty() && table.primary_key.is_empty() && table.foreign_keys.is_empty()) {
                facts.tables.push(table);
            }
        }
        Statement::CreateIndex(index) => facts.indexes.push(create_index(index, file)),
        Statement::CreateType {
            name,
            representation: Some(UserDefinedTypeRepresentation::Enum { labels }),
        } => {
            let (name, schema) = split_name(name);
            facts.enums.push(EnumType {
                name,
                schema,
                values: labels.iter().map(|l| l.value.clone()).collect(),
                framework: "sql".into(),
                file: file.into(),
            });
        }
        _ => {}
    }
}

fn create_table(create: &CreateTable, file: &str, facts: &mut Facts) {
    let (name, schema) = split_name(&create.name);
    let mut table = Table {
        name,
        schema,
        origin: "create".into(),
        file: file.into(),
        ..Table::default()
    };
    for column in &create.columns {
        add_column(&mut table, column);
    }
    for constraint in &create.constraints {
        add_constraint(&mut table, constraint, file, facts);
    }
    facts.tables.push(table);
}

fn add_column(table: &mut Table, def: &ColumnDef) {
    let mut column = Column {
        name: def.name.value.clone(),
        data_type: type_name(&def.data_type),
        ..Column::default()
    };
    let mut not_null = false;
    for option in &def.options {
        match &option.option {
            ColumnOption::NotNull => not_null = true,
            ColumnOption::PrimaryKey(_) => {
                column.primary_key = true;
                not_null = true;
                if !table.primary_key.contains(&column.name) {
                    table.primary_key.push(column.name.clone());
                }
            }
            ColumnOption::Unique(_) => column.unique = true,
            ColumnOption::ForeignKey(fk) => table.foreign_keys.push(ForeignKey {
                columns: vec![column.name.clone()],
                references_table: qualified(&fk.foreign_table),
                references_columns: idents(&fk.referred_columns),
            }),
            _ => {}
        }
    }
    column.nullable = Some(!not_null);
    table.columns.push(column);
}

fn add_constraint(table: &mut Table, constraint: &TableConstraint, file: &str, facts: &mut Facts) {
    let qualified_table = match &table.schema {
        Some(schema) => format!("{schema}.{}", table.name),
        None => table.name.clone(),
    };
    match constraint {
        TableConstraint::PrimaryKey(pk) => {
            let names = index_columns(&pk.columns);
            for column in table.columns.iter_mut().filter(|c| names.contains(&c.name)) {
                column.primary_key = true;
                column.nullable = Some(false);
            }
            for name in names {
                if !table.primary_key.contains(&name) {
                    table.primary_key.push(name);
                }
            }
        }
        TableConstraint::ForeignKey(fk) => table.foreign_keys.push(ForeignKey {
            columns: idents(&fk.columns),
            references_table: qualified(&fk.foreign_table),
            references_columns: idents(&fk.referred_columns),
        }),
        TableConstraint::Unique(unique) => {
            let columns = index_columns(&unique.columns);
            if let [only] = columns.as_slice()
                && let Some(column) = table.columns.iter_mut().find(|c| &c.name == only)
            {
                column.unique = true;
            }
            facts.indexes.push(Index {
                name: unique
                    .name
                    .as_ref()
                    .or(unique.index_name.as_ref())
                    .map(|n| n.value.clone()),
                table: qualified_table,
                columns,
                unique: true,
                file: file.into(),
            });
        }
        TableConstraint::Index(index) => facts.indexes.push(Index {
            name: index.name.as_ref().map(|n| n.value.clone()),
            table: qualified_table,
            columns: index_columns(&index.columns),
            unique: false,
            file: file.into(),
        }),
        TableConstraint::FulltextOrSpatial(index) => facts.indexes.push(Index {
            name: index.opt_index_name.as_ref().map(|n| n.value.clone()),
            table: qualified_table,
            columns: index_columns(&index.columns),
            unique: false,
            file: file.into(),
        }),
        _ => {}
    }
}

fn create_index(index: &CreateIndex, file: &str) -> Index {
    Index {
        name: index.name.as_ref().map(qualified),
        table: qualified(&index.table_name),
        columns: index_columns(&index.columns),
        unique: index.unique,
        file: file.into(),
    }
}

/// The type as written, a user-defined one unquoted (`"Role"` → `Role`); `None` when the
/// column has no type (SQLite).
fn type_name(data_type: &DataType) -> Option<String> {
    match data_type {
        DataType::Unspecified => None,
        DataType::Custom(name, modifiers) if modifiers.is_empty() => Some(qualified(name)),
        other => Some(other.to_string()),
    }
}

/// `(name, schema)` of a possibly qualified name: `"billing"."invoices"` → (`invoices`, `billing`).
fn split_name(name: &ObjectName) -> (String, Option<String>) {
    let mut parts = parts(name);
    let last = parts.pop().unwrap_or_default();
    let schema = (!parts.is_empty()).then(|| parts.join("."));
    (last, schema)
}

/// The name with its qualifiers, unquoted: `billing.invoices`.
fn qualified(name: &ObjectName) -> String {
    parts(name).join(".")
}

fn parts(name: &ObjectName) -> Vec<String> {
    name.0
        .iter()
        .map(|part| match part {
            ObjectNamePart::Identifier(ident) => ident.value.clone(),
            other => other.to_string(),
        })
        .collect()
}

fn idents(idents: &[Ident]) -> Vec<String> {
    idents.iter().map(|i| i.value.clone()).collect()
}

/// Column names of an index; an expression (`lower(email)`) as written.
fn index_columns(columns: &[IndexColumn]) -> Vec<String> {
    columns
        .iter()
        .map(|c| match &c.column.expr {
            Expr::Identifier(ident) => ident.value.clone(),
            other => other.to_string(),
        })
        .collect()
}
