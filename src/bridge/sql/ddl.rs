//! From sqlparser's syntax tree to schema [`Change`]s: CREATE TABLE (columns, types, keys,
//! inline and table-level REFERENCES, MySQL `KEY`s), ALTER TABLE (columns added, dropped,
//! renamed and retyped, constraints added and dropped, the table renamed), DROP TABLE /
//! INDEX / TYPE, CREATE INDEX, ALTER INDEX … RENAME, RENAME TABLE and `CREATE TYPE … AS
//! ENUM` with its `ALTER TYPE`s. Names are unquoted; qualifiers go to `schema`. The merge
//! replays the changes in migration order (`bridge::schema`).

use sqlparser::ast::{
    AlterColumnOperation, AlterIndexOperation, AlterTableOperation, AlterTypeOperation, ColumnDef, ColumnOption,
    CreateTable, DataType, Expr, ForeignKeyConstraint, Ident, IndexColumn, ObjectName, ObjectNamePart, ObjectType,
    RenameTableNameKind, Statement, TableConstraint, UserDefinedTypeRepresentation,
};

use crate::bridge::facts::{Change, ChangeKind, Name, TableOp};
use crate::bridge::facts::{Column, EnumType, Facts, ForeignKey, Index};
use crate::bridge::schema::created;

/// Adds what `statement` does to the schema to `facts`.
pub fn record(statement: &Statement, file: &str, facts: &mut Facts) {
    let mut push = |kind| {
        facts.schema_changes.push(Change {
            file: file.to_owned(),
            kind,
        })
    };
    match statement {
        Statement::CreateTable(create) => create_table(create, file, &mut push),
        Statement::AlterTable(alter) => {
            let target = split_name(&alter.name);
            let ops: Vec<TableOp> = alter
                .operations
                .iter()
                .flat_map(|op| table_op(op, &target, file))
                .collect();
            if !ops.is_empty() {
                push(ChangeKind::AlterTable { target, ops });
            }
        }
        Statement::CreateIndex(index) => push(ChangeKind::CreateIndex {
            index: Index {
                name: index.name.as_ref().map(qualified),
                table: qualified(&index.table_name),
                columns: index_columns(&index.columns),
                unique: index.unique,
                file: file.into(),
            },
            if_not_exists: index.if_not_exists,
        }),
        Statement::CreateType {
            name,
            representation: Some(UserDefinedTypeRepresentation::Enum { labels }),
        } => {
            let name = split_name(name);
            push(ChangeKind::CreateEnum(EnumType {
                name: name.name,
                schema: name.schema,
                values: labels.iter().map(|l| l.value.clone()).collect(),
                framework: "sql".into(),
                file: file.into(),
            }));
        }
        Statement::AlterType(alter) => {
            let target = split_name(&alter.name);
            push(match &alter.operation {
                AlterTypeOperation::AddValue(add) => ChangeKind::AddEnumValue {
                    target,
                    value: add.value.value.clone(),
                },
                AlterTypeOperation::RenameValue(rename) => ChangeKind::RenameEnumValue {
                    target,
                    from: rename.from.value.clone(),
                    to: rename.to.value.clone(),
                },
                AlterTypeOperation::Rename(rename) => ChangeKind::RenameType {
                    target,
                    to: rename.new_name.value.clone(),
                },
            });
        }
        Statement::Drop { object_type, names, .. } => {
            for name in names {
                match object_type {
                    ObjectType::Table => push(ChangeKind::DropTable(split_name(name))),
                    ObjectType::Index => push(ChangeKind::DropIndex(qualified(name))),
                    ObjectType::Type => push(ChangeKind::DropType(split_name(name))),
                    _ => {}
                }
            }
        }
        Statement::AlterIndex {
            name,
            operation: AlterIndexOperation::RenameIndex { index_name },
        } => push(ChangeKind::RenameIndex {
            from: qualified(name),
            to: split_name(index_name).name,
        }),
        Statement::RenameTable(renames) => {
            for rename in renames {
                push(ChangeKind::AlterTable {
                    target: split_name(&rename.old_name),
                    ops: vec![TableOp::Rename(split_name(&rename.new_name))],
                });
            }
        }
        _ => {}
    }
}

fn create_table(create: &CreateTable, file: &str, push: &mut impl FnMut(ChangeKind)) {
    let name = split_name(&create.name);
    let columns = create.columns.iter().map(add_column);
    let constraints = create.constraints.iter().flat_map(|c| constraint_ops(c, &name, file));
    let (table, indexes) = created(name.clone(), file, columns.chain(constraints));
    push(ChangeKind::CreateTable {
        table,
        if_not_exists: create.if_not_exists,
    });
    for index in indexes {
        push(ChangeKind::CreateIndex {
            index,
            if_not_exists: false,
        });
    }
}

/// What one `ALTER TABLE` operation does (MySQL's `CHANGE` is a rename and a retype).
fn table_op(operation: &AlterTableOperation, table: &Name, file: &str) -> Vec<TableOp> {
    match operation {
        AlterTableOperation::AddColumn { column_def, .. } => vec![add_column(column_def)],
        AlterTableOperation::AddConstraint { constraint, .. } => constraint_ops(constraint, table, file),
        AlterTableOperation::DropColumn { column_names, .. } => column_names
            .iter()
            .map(|c| TableOp::DropColumn(c.value.clone()))
            .collect(),
        AlterTableOperation::RenameColumn {
            old_column_name,
            new_column_name,
        } => vec![TableOp::RenameColumn {
            from: old_column_name.value.clone(),
            to: new_column_name.value.clone(),
        }],
        AlterTableOperation::RenameTable { table_name } => {
            let (RenameTableNameKind::As(name) | RenameTableNameKind::To(name)) = table_name;
            vec![TableOp::Rename(split_name(name))]
        }
        AlterTableOperation::AlterColumn { column_name, op } => {
            let name = column_name.value.clone();
            let (data_type, nullable) = match op {
                AlterColumnOperation::SetNotNull => (None, Some(false)),
                AlterColumnOperation::DropNotNull => (None, Some(true)),
                AlterColumnOperation::SetDataType { data_type, .. } => (type_name(data_type), None),
                _ => return Vec::new(),
            };
            vec![TableOp::AlterColumn {
                name,
                data_type,
                nullable,
            }]
        }
        AlterTableOperation::ModifyColumn {
            col_name,
            data_type,
            options,
            ..
        } => vec![retyped(&col_name.value, data_type, options)],
        AlterTableOperation::ChangeColumn {
            old_name,
            new_name,
            data_type,
            options,
            ..
        } => {
            let mut ops = Vec::new();
            if old_name.value != new_name.value {
                ops.push(TableOp::RenameColumn {
                    from: old_name.value.clone(),
                    to: new_name.value.clone(),
                });
            }
            ops.push(retyped(&new_name.value, data_type, options));
            ops
        }
        AlterTableOperation::DropConstraint { name, .. } | AlterTableOperation::DropForeignKey { name, .. } => {
            vec![TableOp::DropConstraint(name.value.clone())]
        }
        AlterTableOperation::DropPrimaryKey { .. } => vec![TableOp::DropPrimaryKey],
        AlterTableOperation::DropIndex { name } => vec![TableOp::DropIndex(name.value.clone())],
        AlterTableOperation::RenameConstraint { old_name, new_name } => vec![TableOp::RenameConstraint {
            from: old_name.value.clone(),
            to: new_name.value.clone(),
        }],
        _ => Vec::new(),
    }
}

fn retyped(name: &str, data_type: &DataType, options: &[ColumnOption]) -> TableOp {
    TableOp::AlterColumn {
        name: name.to_owned(),
        data_type: type_name(data_type),
        nullable: Some(
            !options
                .iter()
                .any(|o| matches!(o, ColumnOption::NotNull | ColumnOption::PrimaryKey(_))),
        ),
    }
}

/// A column definition: the column, with the foreign key an inline `REFERENCES` makes.
fn add_column(def: &ColumnDef) -> TableOp {
    let mut column = Column {
        name: def.name.value.clone(),
        data_type: type_name(&def.data_type),
        ..Column::default()
    };
    let mut not_null = false;
    let mut foreign_key = None;
    for option in &def.options {
        match &option.option {
            ColumnOption::NotNull => not_null = true,
            ColumnOption::PrimaryKey(_) => {
                column.primary_key = true;
                not_null = true;
            }
            ColumnOption::Unique(_) => column.unique = true,
            ColumnOption::ForeignKey(fk) => {
                foreign_key = Some(foreign_key_of(fk, option.name.as_ref(), vec![column.name.clone()]))
            }
            _ => {}
        }
    }
    column.nullable = Some(!not_null);
    TableOp::AddColumn { column, foreign_key }
}

/// A `REFERENCES` (inline, or a table's `FOREIGN KEY`) named `name`, from `columns`.
fn foreign_key_of(fk: &ForeignKeyConstraint, name: Option<&Ident>, columns: Vec<String>) -> ForeignKey {
    ForeignKey {
        name: name.map(|n| n.value.clone()),
        columns,
        references_table: qualified(&fk.foreign_table),
        references_columns: idents(&fk.referred_columns),
    }
}

/// A table constraint as the operations it makes: a primary key, a foreign key, an index.
fn constraint_ops(constraint: &TableConstraint, table: &Name, file: &str) -> Vec<TableOp> {
    let index = |name: Option<&Ident>, columns: &[IndexColumn], unique: bool| {
        TableOp::AddIndex(Index {
            name: name.map(|n| n.value.clone()),
            table: table.qualified(),
            columns: index_columns(columns),
            unique,
            file: file.into(),
        })
    };
    match constraint {
        TableConstraint::PrimaryKey(pk) => vec![TableOp::AddPrimaryKey(index_columns(&pk.columns))],
        TableConstraint::ForeignKey(fk) => vec![TableOp::AddForeignKey(foreign_key_of(
            fk,
            fk.name.as_ref(),
            idents(&fk.columns),
        ))],
        TableConstraint::Unique(unique) => vec![index(
            unique.name.as_ref().or(unique.index_name.as_ref()),
            &unique.columns,
            true,
        )],
        TableConstraint::Index(found) => vec![index(found.name.as_ref(), &found.columns, false)],
        TableConstraint::FulltextOrSpatial(found) => vec![index(found.opt_index_name.as_ref(), &found.columns, false)],
        _ => Vec::new(),
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

/// A possibly qualified name: `"billing"."invoices"` → `invoices` in schema `billing`.
fn split_name(name: &ObjectName) -> Name {
    let mut parts = parts(name);
    let last = parts.pop().unwrap_or_default();
    Name {
        name: last,
        schema: (!parts.is_empty()).then(|| parts.join(".")),
    }
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
