//! Columns and indexes declared over several matches. A `column.scope` (a decorated field) is
//! one column whatever order its options are written in: the matches inside it name it
//! (`column.name`, else `column.field` by the naming convention), type it (`column.type`, else
//! the language's `column.annotation`; `column.length` appended), constrain it
//! (`column.nullable`, `column.unique`, `column.primary`: `true`/`True` or not) and key it
//! (`fk.model`/`fk.table` with `fk.references`, or a dotted `fk.table` naming both with
//! `#set! fk-table "dotted"`; `#set! type-text "python"` reads Python type texts, see
//! `python_types`). `index.column`s (fields or columns) with
//! `index.name`, `index.unique` (or `#set! unique`) are an index on the table holding them;
//! the matches of one `index.scope` are one index.

use std::ops::Range;

use super::hits::Hit;
use super::scopes;
use super::text::literal;
use super::{naming, python_types};
use crate::bridge::facts::{Column, ForeignKey, Index, Table};

/// One `column.scope`: the column its matches declare, in the table at `table`.
#[derive(Default)]
pub struct Slot {
    scope: Range<usize>,
    table: usize,
    name: Option<String>,
    derived: Option<String>,
    field: Option<String>,
    data_type: Option<String>,
    annotation: Option<String>,
    length: Option<String>,
    length_type: Option<&'static str>,
    nullable: Option<bool>,
    nullable_default: Option<bool>,
    primary: bool,
    unique: bool,
    /// The referenced table and columns (`None`: resolved at linking to its primary key).
    key: Option<(String, Vec<String>)>,
}

fn truthy(text: &str) -> bool {
    matches!(text, "true" | "True")
}

/// The column slots of a file's hits, each in the innermost table (of `tables`' scopes) holding it.
pub fn slots(hits: &[Hit<'_>], tables: &[Range<usize>]) -> Vec<Slot> {
    let mut slots: Vec<Slot> = Vec::new();
    for hit in hits {
        let Some(scope) = hit.get("column.scope") else { continue };
        if let Some(table) = scopes::around(tables.iter().zip(0..), &scope.range)
            && !slots.iter().any(|slot| slot.scope == scope.range)
        {
            slots.push(Slot {
                scope: scope.range.clone(),
                table,
                ..Slot::default()
            });
        }
    }
    slots.sort_by_key(|slot| slot.scope.start);
    slots
}

/// The innermost slot holding `range` (or being it).
pub fn slot_at<'s>(slots: &'s mut [Slot], range: &Range<usize>) -> Option<&'s mut Slot> {
    let at = scopes::innermost(slots.iter().map(|slot| &slot.scope).zip(0..), range)?;
    slots.get_mut(at)
}

impl Slot {
    /// Where the slot's scope starts.
    pub fn start(&self) -> usize {
        self.scope.start
    }

    /// What one match inside the slot says of its column.
    pub fn take(&mut self, hit: &Hit<'_>) {
        let text = |name: &str| hit.text(name).map(literal);
        if let Some(name) = text("column.name") {
            self.name = Some(name);
        }
        if let Some(field) = text("column.field") {
            self.derived = Some(naming::column_of(&field, hit.prop("naming").unwrap_or("")));
            self.field = Some(field);
        }
        // A type written in tokens (a macro's) is those up to the comma; `#set! nullable-type
        // "Nullable"`: `Nullable<Date>` is a `Date` that may be null.
        let written: String = hit
            .all("column.type")
            .map(|token| token.text)
            .take_while(|token| ![",", "}", ")", "]"].contains(token))
            .collect();
        let python = hit.prop("type-text") == Some("python");
        if !written.is_empty() {
            let mut data_type = literal(&written);
            if python {
                data_type = python_types::unqualified(&data_type);
            }
            let wrapped = hit.prop("nullable-type").and_then(|wrapper| {
                let inner = data_type.strip_prefix(wrapper)?.strip_prefix('<')?.strip_suffix('>')?;
                Some(inner.to_owned())
            });
            if let Some(inner) = wrapped {
                self.nullable = Some(true);
                data_type = inner;
            }
            self.data_type = Some(data_type);
        }
        if let Some(annotation) = text("column.annotation") {
            if python && python_types::optional(&annotation) {
                self.nullable_default = Some(true);
            }
            self.annotation = Some(if python {
                python_types::annotated(&annotation)
            } else {
                annotation
            });
        }
        if let Some(length) = text("column.length") {
            self.length = Some(length);
            self.length_type = hit.prop("length-type");
        }
        if let Some(nullable) = text("column.nullable") {
            self.nullable = Some(truthy(&nullable));
        }
        if let Some(nullable) = hit.prop("nullable") {
            self.nullable_default = Some(self.nullable_default == Some(true) || truthy(nullable));
        }
        self.primary |= hit.prop("primary") == Some("true") || text("column.primary").is_some_and(|p| truthy(&p));
        self.unique |= hit.prop("unique") == Some("true") || text("column.unique").is_some_and(|u| truthy(&u));
        let mut referenced = hit.text("fk.table").map(literal).or_else(|| {
            let model = literal(hit.text("fk.model")?);
            Some(naming::table_of(&model, hit.prop("fk-naming").unwrap_or("")))
        });
        // `#set! fk-table "dotted"`: `"billing.users.id"` is the table and, after its last
        // dot, the column.
        let mut dotted = None;
        if hit.prop("fk-table") == Some("dotted")
            && hit.get("fk.table").is_some()
            && let Some((table, column)) = referenced.as_deref().and_then(|t| t.rsplit_once('.'))
        {
            dotted = Some(column.to_owned());
            referenced = Some(table.to_owned());
        }
        if let Some(table) = referenced {
            let columns = match (dotted, hit.prop("fk-references")) {
                (Some(column), _) => vec![column],
                (None, Some("primary")) => Vec::new(),
                (None, other) => vec![other.unwrap_or("id").to_owned()],
            };
            let columns = self.key.take().map_or(columns, |(_, have)| have);
            self.key = Some((table, columns));
        }
        if let Some(references) = text("fk.references") {
            let table = self.key.take().map(|(table, _)| table).unwrap_or_default();
            self.key = Some((table, vec![references]));
        }
    }

    /// The slot's table (by position) and column, with its foreign key.
    pub fn column(self) -> Option<(usize, Column, Option<ForeignKey>)> {
        let name = self.name.or(self.derived)?;
        let data_type = match (self.data_type, self.length) {
            (Some(kind), Some(length)) => Some(format!("{kind}({length})")),
            (None, Some(length)) if self.length_type.is_some() => {
                Some(format!("{}({length})", self.length_type.unwrap_or_default()))
            }
            (kind, _) => kind.or(self.annotation),
        };
        let key = self
            .key
            .filter(|(table, _)| !table.is_empty())
            .map(|(table, columns)| key(name.clone(), table, columns));
        let column = Column {
            field: self.field.filter(|field| *field != name),
            data_type,
            nullable: if self.primary {
                Some(false)
            } else {
                self.nullable.or(self.nullable_default)
            },
            primary_key: self.primary,
            unique: self.unique,
            name,
        };
        Some((self.table, column, key))
    }
}

/// An index being read: its table (by position), the place of the decorator or call that
/// declares it (matches of one are one index), its columns where they are written.
pub struct PendingIndex {
    table: usize,
    scope: Option<Range<usize>>,
    columns: Vec<(usize, String)>,
    index: Index,
}

/// Adds the index a hit declares (`index.scope` joins hits of one declaration).
pub fn index(pending: &mut Vec<PendingIndex>, hit: &Hit<'_>, table: usize, path: &str) {
    let columns = hit.all("index.column").map(|c| (c.range.start, literal(c.text)));
    let scope = hit.get("index.scope").map(|scope| scope.range.clone());
    let unique = hit.prop("unique") == Some("true") || hit.text("index.unique").is_some_and(truthy);
    if let Some(have) = pending.iter_mut().find(|have| scope.is_some() && have.scope == scope) {
        have.columns.extend(columns);
        have.index.unique |= unique;
        if have.index.name.is_none() {
            have.index.name = hit.text("index.name").map(literal);
        }
        return;
    }
    pending.push(PendingIndex {
        table,
        scope,
        columns: columns.collect(),
        index: Index {
            name: hit.text("index.name").map(literal),
            table: String::new(),
            columns: Vec::new(),
            unique,
            file: path.to_owned(),
        },
    });
}

/// The indexes on their tables: a field named stands for its column; in the order of their
/// first columns in the table.
pub fn place_indexes(pending: Vec<PendingIndex>, tables: &[Table]) -> Vec<Index> {
    let mut placed: Vec<(usize, usize, Index)> = pending
        .into_iter()
        .filter_map(|mut pending| {
            let at = pending.table;
            let table = tables.get(at)?;
            pending.columns.sort();
            pending.columns.dedup();
            let mut index = pending.index;
            index.columns = pending.columns.into_iter().map(|(_, column)| column).collect();
            for column in &mut index.columns {
                if let Some(found) = table
                    .columns
                    .iter()
                    .find(|c| c.field.as_deref() == Some(column.as_str()))
                {
                    *column = found.name.clone();
                }
            }
            // A field and the column name it is written with name one column.
            index.columns.dedup();
            let first = index
                .columns
                .first()
                .and_then(|first| table.columns.iter().position(|c| c.name == *first))
                .unwrap_or(usize::MAX);
            index.table = table.name.clone();
            Some((at, first, index))
        })
        .collect();
    placed.sort_by_key(|(at, first, _)| (*at, *first));
    placed.into_iter().map(|(_, _, index)| index).collect()
}

/// A foreign key on `column` to `table`'s `references` (none: its primary key, at linking).
pub fn key(column: String, table: String, references: Vec<String>) -> ForeignKey {
    ForeignKey {
        columns: vec![column],
        references_table: table,
        references_columns: references,
        ..ForeignKey::default()
    }
}

/// Adds a slot's column to its table, or fills in the one of that name (a relation's key
/// column that a `@Column` also declares).
pub fn add(table: &mut Table, column: Column) {
    if column.primary_key && !table.primary_key.contains(&column.name) {
        table.primary_key.push(column.name.clone());
    }
    match table.columns.iter_mut().find(|have| have.name == column.name) {
        Some(have) => have.absorb(column),
        None => table.columns.push(column),
    }
}
