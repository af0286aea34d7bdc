//! Alembic migrations as the rules read them (`families/alembic`): the revision and
//! `down_revision` that order a file among the others, and what `upgrade()` does, in order,
//! as schema changes for the replay (`bridge::schema`): its operations, those of the file's
//! own functions it calls (a few calls deep, each once), a `batch_alter_table` block's on its
//! table, the columns a `*helper()` returns among a table's, `op.execute` SQL.

use std::collections::BTreeMap;
use std::ops::Range;

use super::hits::{Hit, inside};
use super::shapes::names;
use super::text::literal;
use super::{columns, scopes};
use crate::bridge::facts::{Change, ChangeKind, Column, Facts, ForeignKey, Index, Name, Revision, TableOp};
use crate::bridge::schema::created;
use crate::bridge::sql;

/// How many helper calls deep `upgrade()` is followed.
const MAX_HELPER_DEPTH: usize = 4;

/// One `op.<method>(…)` call, or a `PrimaryKeyConstraint`/`ForeignKeyConstraint`/
/// `UniqueConstraint` among a table's columns: its positional arguments as written, its
/// keywords; or a call to a function of the file, in the order of the calls.
#[derive(Default)]
struct Op<'t> {
    range: Range<usize>,
    method: &'t str,
    receiver: &'t str,
    /// A call to one of the file's functions (`create_tables()`), not an operation: followed.
    helper: Option<&'t str>,
    /// The positional arguments by where each starts (their order is their place).
    args: BTreeMap<usize, &'t str>,
    keys: Vec<(&'t str, &'t str)>,
    sql: Option<&'t str>,
}

/// A `with op.batch_alter_table("t") as alias:` block.
struct Batch<'t> {
    scope: Range<usize>,
    alias: &'t str,
    table: String,
}

/// What a migration file's hits say.
#[derive(Default)]
struct Migration<'t> {
    functions: Vec<(&'t str, Range<usize>)>,
    splats: Vec<(Range<usize>, &'t str)>,
    ops: BTreeMap<usize, Op<'t>>,
    batches: Vec<Batch<'t>>,
    /// The columns in each operation's and function's scope, and where each is written.
    columns: Vec<(Range<usize>, usize, Column, Option<ForeignKey>)>,
}

/// Adds the migration's revision and what its `upgrade()` does to `facts`.
pub fn read(path: &str, hits: &[Hit<'_>], facts: &mut Facts) {
    let mut revision = Revision {
        file: path.to_owned(),
        ..Revision::default()
    };
    let mut migration = Migration::default();
    for hit in hits {
        if let Some(id) = hit.text("revision.id") {
            revision.id = literal(id);
        }
        revision
            .down
            .extend(hit.all("revision.down").map(|down| literal(down.text)));
        if let (Some(name), Some(body)) = (hit.text("migration.function"), hit.get("migration.body")) {
            migration.functions.push((name, body.range.clone()));
        }
        if let Some(helper) = hit.get("migration.helper") {
            let call = migration.ops.entry(helper.range.start).or_default();
            (call.range, call.helper) = (helper.range.clone(), Some(helper.text));
        }
        if let Some(splat) = hit.get("migration.splat") {
            migration.splats.push((splat.range.clone(), splat.text));
        }
        if let Some(call) = hit.get("change.call") {
            migration
                .ops
                .entry(call.range.start)
                .or_default()
                .take(call.range.clone(), hit);
        }
        if let (Some(scope), Some(alias), Some(table)) =
            (hit.get("batch.scope"), hit.text("batch.alias"), hit.text("batch.table"))
        {
            migration.batches.push(Batch {
                scope: scope.range.clone(),
                alias,
                table: literal(table),
            });
        }
    }
    let Some((_, upgrade)) = migration.functions.iter().find(|(name, _)| *name == "upgrade").cloned() else {
        return;
    };
    revision.down.dedup();
    if !revision.id.is_empty() {
        facts.revisions.push(revision);
    }
    // Columns belong to the innermost operation or function holding them.
    let ops = migration
        .ops
        .values()
        .filter(|op| op.helper.is_none())
        .map(|op| op.range.clone());
    let scopes: Vec<Range<usize>> = ops
        .chain(migration.functions.iter().map(|(_, body)| body.clone()))
        .collect();
    let mut slots = columns::slots(hits, &scopes);
    for hit in hits {
        if let Some(at) = hit
            .captures
            .iter()
            .find(|c| c.name.starts_with("column.") || c.name.starts_with("fk."))
            && let Some(slot) = columns::slot_at(&mut slots, &at.range)
        {
            slot.take(hit);
        }
    }
    migration.columns = slots
        .into_iter()
        .filter_map(|slot| {
            let start = slot.start();
            let (scope, column, key) = slot.column()?;
            Some((scopes[scope].clone(), start, column, key))
        })
        .collect();
    let mut visited = vec![upgrade.start];
    migration.body(path, &upgrade, facts, &mut visited, 0);
}

impl<'t> Op<'t> {
    fn take(&mut self, range: Range<usize>, hit: &Hit<'t>) {
        self.range = range;
        if let Some(method) = hit.text("change.op") {
            self.method = method.rsplit('.').next().unwrap_or(method);
        }
        if let Some(receiver) = hit.text("change.receiver") {
            self.receiver = receiver;
        }
        if let Some(arg) = hit.get("change.arg") {
            self.args.insert(arg.range.start, arg.text);
        }
        if let (Some(key), Some(value)) = (hit.text("change.key"), hit.text("change.value")) {
            self.keys.push((key, value));
        }
        if let Some(sql) = hit.text("change.sql") {
            self.sql = Some(sql);
        }
    }

    fn key(&self, name: &str) -> Option<&'t str> {
        self.keys.iter().find(|(key, _)| *key == name).map(|(_, value)| *value)
    }
}

impl Op<'_> {
    /// A table constraint as the operation that adds it to its table (a unique one's index
    /// is only its column made unique).
    fn constraint(&self) -> Option<TableOp> {
        let mut args = self.args.values().copied();
        match self.method {
            "PrimaryKeyConstraint" => Some(TableOp::AddPrimaryKey(args.flat_map(names).collect())),
            "UniqueConstraint" => Some(TableOp::AddIndex(Index {
                columns: args.flat_map(names).collect(),
                unique: true,
                ..Index::default()
            })),
            "ForeignKeyConstraint" => {
                let (local, remote) = (args.next()?, names(args.next()?));
                let (tables, referenced): (Vec<&str>, Vec<&str>) = remote
                    .iter()
                    .map(|r| r.rsplit_once('.').unwrap_or((r.as_str(), "")))
                    .unzip();
                Some(TableOp::AddForeignKey(ForeignKey {
                    name: self.key("name").and_then(name_of),
                    columns: names(local),
                    references_table: (*tables.first()?).to_owned(),
                    references_columns: referenced
                        .into_iter()
                        .filter(|c| !c.is_empty())
                        .map(str::to_owned)
                        .collect(),
                }))
            }
            _ => None,
        }
    }
}

impl Migration<'_> {
    /// The operations in `function`, in order, and those of the file's functions it calls.
    fn body(&self, path: &str, function: &Range<usize>, facts: &mut Facts, visited: &mut Vec<usize>, depth: usize) {
        let in_op = |range: &Range<usize>| {
            self.ops
                .values()
                .any(|op| op.helper.is_none() && inside(range, &op.range))
        };
        for op in self
            .ops
            .values()
            .filter(|op| inside(&op.range, function) && !in_op(&op.range))
        {
            match op.helper {
                Some(name) => {
                    if let Some((_, helper)) = self.functions.iter().find(|(have, _)| *have == name)
                        && depth < MAX_HELPER_DEPTH
                        && !visited.contains(&helper.start)
                    {
                        visited.push(helper.start);
                        self.body(path, helper, facts, visited, depth + 1);
                    }
                }
                None => self.operation(path, op, facts),
            }
        }
    }

    /// The table of the innermost `batch_alter_table` block naming `op`'s receiver.
    fn batch(&self, op: &Op<'_>) -> Option<String> {
        let named = self.batches.iter().filter(|batch| batch.alias == op.receiver);
        scopes::around(named.map(|batch| (&batch.scope, &batch.table)), &op.range).cloned()
    }

    /// The columns written in the scope at `scope` (an operation's or a helper's), in order.
    fn columns_in(&self, scope: &Range<usize>) -> Vec<(usize, Column, Option<ForeignKey>)> {
        self.columns
            .iter()
            .filter(|(owner, ..)| owner == scope)
            .map(|(_, start, column, key)| (*start, column.clone(), key.clone()))
            .collect()
    }

    /// One operation as a schema change (`batch_op.<method>` on its block's table; its
    /// arguments start one earlier, the table left out).
    fn operation(&self, path: &str, op: &Op<'_>, facts: &mut Facts) {
        let batch = self.batch(op);
        if op.receiver != "op" && batch.is_none() {
            return;
        }
        let shift = usize::from(batch.is_none());
        let arg = |at: usize| op.args.values().nth(at).copied();
        let text = |at: usize| arg(at).and_then(name_of);
        let table = batch.clone().or_else(|| text(0));
        let on_table = batch.clone().or_else(|| text(1));
        // An operation on the table its first argument names (`table`) or, after a
        // constraint's or index's name, its second (`on_table`).
        let alter = |table: &Option<String>, ops: Vec<TableOp>| {
            table.as_ref().map(|t| ChangeKind::AlterTable {
                target: Name::parse(t),
                ops,
            })
        };
        let index = |columns: Vec<String>, unique: bool| Index {
            name: text(0),
            table: on_table.clone().unwrap_or_default(),
            columns,
            unique,
            file: path.to_owned(),
        };
        let flag = |key: &str| op.key(key).map(|value| value == "True");
        let kind = match op.method {
            "create_table" => self.create_table(path, op),
            "drop_table" => table.map(|t| ChangeKind::DropTable(Name::parse(&t))),
            "rename_table" => text(1).and_then(|to| alter(&table, vec![TableOp::Rename(Name::parse(&to))])),
            "add_column" => self
                .columns_in(&op.range)
                .into_iter()
                .next()
                .and_then(|(_, column, foreign_key)| alter(&table, vec![TableOp::AddColumn { column, foreign_key }])),
            "drop_column" => text(shift).and_then(|c| alter(&table, vec![TableOp::DropColumn(c)])),
            "alter_column" => text(shift).and_then(|column| {
                let mut ops = Vec::new();
                let data_type = op.key("type_").map(super::python_types::unqualified);
                let nullable = flag("nullable");
                if data_type.is_some() || nullable.is_some() {
                    ops.push(TableOp::AlterColumn {
                        name: column.clone(),
                        data_type,
                        nullable,
                    });
                }
                if let Some(to) = op.key("new_column_name").and_then(name_of) {
                    ops.push(TableOp::RenameColumn { from: column, to });
                }
                (!ops.is_empty()).then(|| alter(&table, ops)).flatten()
            }),
            "create_index" => arg(2 - usize::from(batch.is_some()))
                .map(names)
                .filter(|_| on_table.is_some())
                .map(|columns| ChangeKind::CreateIndex {
                    index: index(columns, flag("unique") == Some(true)),
                    if_not_exists: false,
                }),
            "drop_index" => text(0).map(ChangeKind::DropIndex),
            "create_foreign_key" => match (text(1 + shift), arg(2 + shift), arg(3 + shift)) {
                (Some(referent), Some(local), Some(remote)) => alter(
                    &on_table,
                    vec![TableOp::AddForeignKey(ForeignKey {
                        name: text(0),
                        columns: names(local),
                        references_table: referent,
                        references_columns: names(remote),
                    })],
                ),
                _ => None,
            },
            "create_unique_constraint" | "create_primary_key" => arg(1 + shift).map(names).and_then(|columns| {
                alter(
                    &on_table,
                    vec![if op.method == "create_primary_key" {
                        TableOp::AddPrimaryKey(columns)
                    } else {
                        TableOp::AddIndex(index(columns, true))
                    }],
                )
            }),
            "drop_constraint" => text(0).and_then(|name| alter(&on_table, vec![TableOp::DropConstraint(name)])),
            "execute" => {
                if let Some(text) = op.sql {
                    let found = sql::facts_of(path, text);
                    facts.schema_changes.extend(found.schema_changes);
                    facts.unparsed.extend(found.unparsed);
                }
                None
            }
            _ => None,
        };
        if let Some(kind) = kind {
            facts.schema_changes.push(Change {
                file: path.to_owned(),
                kind,
            });
        }
    }

    /// `op.create_table("name", sa.Column(…), *helper(), sa.PrimaryKeyConstraint("id"), schema="s")`.
    fn create_table(&self, path: &str, op: &Op<'_>) -> Option<ChangeKind> {
        let name = Name {
            name: op.args.values().next().and_then(|text| name_of(text))?,
            schema: op.key("schema").and_then(name_of),
        };
        // `*timestamps()` among the columns: the helper's columns, where it stands.
        let mut written = self.columns_in(&op.range);
        for (range, name) in self.splats.iter().filter(|(range, _)| inside(range, &op.range)) {
            if let Some((_, helper)) = self.functions.iter().find(|(have, _)| have == name) {
                written.extend(
                    self.columns_in(helper)
                        .into_iter()
                        .map(|(_, column, key)| (range.start, column, key)),
                );
            }
        }
        written.sort_by_key(|(start, ..)| *start);
        let columns = written
            .into_iter()
            .map(|(_, column, foreign_key)| TableOp::AddColumn { column, foreign_key });
        let constraints = self.ops.values().filter(|c| inside(&c.range, &op.range));
        // A unique constraint's index is only its column made unique.
        let (table, _) = created(name, path, columns.chain(constraints.filter_map(Op::constraint)));
        Some(ChangeKind::CreateTable {
            table,
            if_not_exists: false,
        })
    }
}

/// A name written as a string or as `op.f("name")`.
fn name_of(text: &str) -> Option<String> {
    let text = text.trim();
    let inner = match text.strip_suffix(')').and_then(|t| t.split_once("f(")) {
        Some((head, arg)) if head.is_empty() || head.ends_with('.') => arg.trim(),
        _ => text,
    };
    inner.starts_with(['"', '\'']).then(|| literal(inner))
}
