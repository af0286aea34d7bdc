//! The database facts: tables with their columns and keys, indexes, enumerated types, and
//! what the run's migrations drop; and how a schema-qualified name is written.

use serde::{Deserialize, Serialize};

/// A table (SQL DDL or an ORM model) with its columns and keys.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Table {
    /// Unquoted name; `schema` holds the qualifier (`billing.invoices` → schema `billing`).
    pub name: String,
    pub schema: Option<String>,
    /// The ORM's model name when it differs from the table's (`@@map`, `@Entity('users')`).
    pub model: Option<String>,
    pub columns: Vec<Column>,
    pub primary_key: Vec<String>,
    pub foreign_keys: Vec<ForeignKey>,
    /// `create`, `alter` (columns added by ALTER TABLE) or `model` (ORM).
    pub origin: String,
    /// Framework for ORM models (`prisma`, `typeorm`, `sqlalchemy`, `django`, `diesel`, `seaorm`).
    pub framework: Option<String>,
    pub file: String,
    /// Every file that declares or changes the table (migrations in order, then ORM models).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<String>,
    /// The name the table had before the run renamed it (for a table the run did not create).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renamed_from: Option<String>,
}

impl Table {
    /// The column named `name` (case-insensitive), if any.
    pub fn column_named(&mut self, name: &str) -> Option<&mut Column> {
        self.columns.iter_mut().find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// The column named `name` (case-insensitive), added at the end when there is none.
    pub fn column(&mut self, name: &str) -> &mut Column {
        let at = match self.columns.iter().position(|c| c.name.eq_ignore_ascii_case(name)) {
            Some(at) => at,
            None => {
                self.columns.push(Column {
                    name: name.to_owned(),
                    ..Column::default()
                });
                self.columns.len() - 1
            }
        };
        &mut self.columns[at]
    }
}

/// One column: its name and type as written (`varchar(255)`, `String`, `models.CharField`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Column {
    pub name: String,
    /// The ORM's field name when it differs from the column's (`@map`, `db_column`).
    pub field: Option<String>,
    pub data_type: Option<String>,
    pub nullable: Option<bool>,
    pub primary_key: bool,
    pub unique: bool,
}

impl Column {
    /// Fills in what this column leaves out from another declaration of it (a model's field
    /// beside a migration's column, two matches of one column).
    pub fn absorb(&mut self, other: Column) {
        self.field = self.field.take().or(other.field);
        self.data_type = self.data_type.take().or(other.data_type);
        self.nullable = self.nullable.or(other.nullable);
        self.unique |= other.unique;
        self.primary_key |= other.primary_key;
    }
}

/// `columns` reference `table(referenced)`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ForeignKey {
    /// The constraint's name when the file gives one (`DROP CONSTRAINT` finds it by it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub columns: Vec<String>,
    pub references_table: String,
    pub references_columns: Vec<String>,
}

/// `CREATE [UNIQUE] INDEX name ON table (columns)` or an ORM index.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Index {
    pub name: Option<String>,
    pub table: String,
    pub columns: Vec<String>,
    pub unique: bool,
    pub file: String,
}

/// An enumerated type and its values, in declaration order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EnumType {
    /// Unquoted name; `schema` holds the qualifier.
    pub name: String,
    pub schema: Option<String>,
    pub values: Vec<String>,
    /// `sql` or the ORM (`prisma`, …).
    pub framework: String,
    pub file: String,
}

/// Something the run's migrations drop that the run did not create.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Dropped {
    pub kind: DroppedKind,
    /// `table.column` for a column or a constraint.
    pub name: String,
    pub file: String,
}

/// What a migration drops, named in the JSON and the rendered text as written here.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DroppedKind {
    #[default]
    Table,
    Column,
    Index,
    Type,
    Constraint,
}

impl DroppedKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DroppedKind::Table => "table",
            DroppedKind::Column => "column",
            DroppedKind::Index => "index",
            DroppedKind::Type => "type",
            DroppedKind::Constraint => "constraint",
        }
    }
}

impl std::fmt::Display for DroppedKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `schema.name`, or `name`.
pub fn qualified(schema: &Option<String>, name: &str) -> String {
    match schema {
        Some(s) => format!("{s}.{name}"),
        None => name.to_owned(),
    }
}
