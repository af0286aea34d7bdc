//! What a migration does, kept per file as a list of changes (created, altered, dropped
//! tables, indexes and types) and of Alembic revisions, for the schema replay to apply in
//! migration order.

use super::db::{Column, EnumType, ForeignKey, Index, Table};

/// One thing a migration file does to the schema, in the file's order.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The file that does it (relative to the work tree's top).
    pub file: String,
    pub kind: ChangeKind,
}

/// What a migration statement does.
#[derive(Debug, Clone, PartialEq)]
pub enum ChangeKind {
    /// `CREATE TABLE`: replaces a table of the same name unless `if_not_exists`.
    CreateTable {
        table: Table,
        if_not_exists: bool,
    },
    /// `ALTER TABLE target …`, its operations in order.
    AlterTable {
        target: Name,
        ops: Vec<TableOp>,
    },
    DropTable(Name),
    /// `CREATE INDEX` (and the indexes a table's constraints make).
    CreateIndex {
        index: Index,
        if_not_exists: bool,
    },
    /// `DROP INDEX name`; MySQL names the table.
    DropIndex(String),
    RenameIndex {
        from: String,
        to: String,
    },
    /// `CREATE TYPE … AS ENUM`.
    CreateEnum(EnumType),
    /// `ALTER TYPE … ADD VALUE`.
    AddEnumValue {
        target: Name,
        value: String,
    },
    /// `ALTER TYPE … RENAME VALUE`.
    RenameEnumValue {
        target: Name,
        from: String,
        to: String,
    },
    /// `ALTER TYPE … RENAME TO`.
    RenameType {
        target: Name,
        to: String,
    },
    DropType(Name),
}

/// One operation of an `ALTER TABLE`.
#[derive(Debug, Clone, PartialEq)]
pub enum TableOp {
    /// A column and the keys its definition carries (`REFERENCES`, `PRIMARY KEY`).
    AddColumn {
        column: Column,
        foreign_key: Option<ForeignKey>,
    },
    DropColumn(String),
    RenameColumn {
        from: String,
        to: String,
    },
    /// A new type and/or nullability (`ALTER COLUMN … TYPE`, `SET NOT NULL`, MySQL `MODIFY`).
    AlterColumn {
        name: String,
        data_type: Option<String>,
        nullable: Option<bool>,
    },
    /// `RENAME TO`.
    Rename(Name),
    AddPrimaryKey(Vec<String>),
    AddForeignKey(ForeignKey),
    /// A unique constraint or an index added with the table's `ALTER` (MySQL `ADD KEY`).
    AddIndex(Index),
    /// `DROP CONSTRAINT name`: a foreign key, unique constraint or primary key by its name
    /// (or the name PostgreSQL or MySQL gives an unnamed one).
    DropConstraint(String),
    DropPrimaryKey,
    /// MySQL `ALTER TABLE … DROP INDEX name`.
    DropIndex(String),
    RenameConstraint {
        from: String,
        to: String,
    },
}

/// A possibly schema-qualified name, unquoted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Name {
    pub name: String,
    pub schema: Option<String>,
}

impl Name {
    pub fn of(name: &str, schema: &Option<String>) -> Name {
        Name {
            name: name.to_owned(),
            schema: schema.clone(),
        }
    }

    /// `schema.name`, or `name`.
    pub fn qualified(&self) -> String {
        super::db::qualified(&self.schema, &self.name)
    }

    /// `a.b.c` → name `c`, schema `a.b`.
    pub fn parse(text: &str) -> Name {
        match text.rsplit_once('.') {
            Some((schema, name)) => Name::of(name, &Some(schema.to_owned())),
            None => Name::of(text, &None),
        }
    }

    /// Whether `table` has this name: unquoted names are case-insensitive in the common
    /// databases, and `public` is PostgreSQL's default schema.
    pub fn is(&self, name: &str, schema: &Option<String>) -> bool {
        key(&self.name, &self.schema) == key(name, schema)
    }

    /// Whether the (possibly qualified) name `text` is this name.
    pub fn is_written(&self, text: &str) -> bool {
        let written = Name::parse(text);
        self.is(&written.name, &written.schema)
    }
}

/// A table's key for lookups: its schema (`public`, PostgreSQL's default, as none) and name,
/// in lower case.
pub fn key(name: &str, schema: &Option<String>) -> (String, String) {
    let schema = schema
        .as_deref()
        .filter(|s| !s.eq_ignore_ascii_case("public"))
        .unwrap_or("");
    (schema.to_ascii_lowercase(), name.to_ascii_lowercase())
}

/// An Alembic migration's place in its chain: its `revision` and the `down_revision`s it
/// follows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Revision {
    pub file: String,
    pub id: String,
    pub down: Vec<String>,
}
