//! Alembic migrations: the `revision`/`down_revision` ids that order them, and what
//! `upgrade()` does, in order, as schema changes: `op.create_table` (columns read as
//! SQLAlchemy's, `PrimaryKeyConstraint`, `ForeignKeyConstraint`, `UniqueConstraint`),
//! `add_column`, `drop_column`, `alter_column`, `rename_table`, `drop_table`,
//! `create_index`/`drop_index`, `create_foreign_key`, `create_unique_constraint`,
//! `create_primary_key`, `drop_constraint`, the same inside `with op.batch_alter_table(t)`,
//! and raw SQL in `op.execute("…")` (read by the SQL extractor), followed into the file's own
//! functions `upgrade()` calls (and the columns a `*helper()` returns). `downgrade()` is not
//! read.

use std::collections::HashMap;

use tree_sitter::Node;

use super::columns::{callee, column_of};
use crate::bridge::extract::sql;
use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::python::{assignment, keyword, positional};
use crate::bridge::extract::syntax::{Fields, ParsedFile, Walk, named_children, walk};
use crate::bridge::facts::{Change, ChangeKind, Name, Revision, TableOp};
use crate::bridge::facts::{Facts, ForeignKey, Index, Table};
use crate::bridge::rules::python_types::unqualified;

/// How many helper calls deep `upgrade()` is followed.
const MAX_HELPER_DEPTH: usize = 4;

/// Reads an Alembic migration file's revision and `upgrade()` into `facts`.
pub fn scan(file: &ParsedFile<'_>, facts: &mut Facts) {
    let mut revision = Revision {
        file: file.path.to_owned(),
        ..Revision::default()
    };
    let mut functions: HashMap<&str, Node<'_>> = HashMap::new();
    for statement in named_children(file.root()) {
        if let Some((name, _, Some(value))) = assignment(file, statement) {
            match name.as_str() {
                "revision" => revision.id = string(file, value).unwrap_or_default(),
                "down_revision" => revision.down = strings(file, value),
                _ => {}
            }
        }
        let definition = match statement.kind() {
            "decorated_definition" => statement.field("definition"),
            _ => Some(statement),
        };
        if let Some(function) = definition.filter(|d| d.kind() == "function_definition")
            && let Some(name) = file.field_text(function, "name")
        {
            functions.insert(name, function);
        }
    }
    let Some(upgrade) = functions.get("upgrade").copied() else {
        return;
    };
    if !revision.id.is_empty() {
        facts.revisions.push(revision);
    }
    let module = Module { file, functions };
    let mut visited = vec![upgrade.id()];
    module.body(upgrade, facts, &mut visited, 0);
}

/// The file's top-level functions, by name: `upgrade()` may call helpers that do the work.
struct Module<'f, 'a, 't> {
    file: &'f ParsedFile<'a>,
    functions: HashMap<&'a str, Node<'t>>,
}

impl Module<'_, '_, '_> {
    /// Reads the operations in `function`'s body in order, and those of the file's own
    /// functions it calls (each once, a few calls deep).
    fn body(&self, function: Node<'_>, facts: &mut Facts, visited: &mut Vec<usize>, depth: usize) {
        let file = self.file;
        let Some(body) = function.field("body") else { return };
        let batches = batch_tables(file, body);
        walk(body, |node| {
            if node.kind() != "call" {
                return Walk::Enter;
            }
            let Some(function) = node.field("function") else {
                return Walk::Enter;
            };
            if function.kind() == "identifier" {
                if let Some(helper) = self.functions.get(file.text(function)).copied()
                    && depth < MAX_HELPER_DEPTH
                    && !visited.contains(&helper.id())
                {
                    visited.push(helper.id());
                    self.body(helper, facts, visited, depth + 1);
                }
                return Walk::Skip;
            }
            if function.kind() != "attribute" {
                return Walk::Enter;
            }
            let receiver = function.field("object").map(|o| file.text(o)).unwrap_or("");
            // The innermost `with` block that names this receiver.
            let batch = batches
                .iter()
                .filter(|b| b.alias == receiver && b.span.contains(&node.start_byte()))
                .min_by_key(|b| b.span.len())
                .map(|b| b.table.clone());
            if receiver == "op" || batch.is_some() {
                let method = file.field_text(function, "attribute").unwrap_or("");
                operation(self, node, method, batch, facts);
            }
            Walk::Skip
        });
    }

    /// The `Column(…)` calls a helper returns (`*timestamps()` in a table's columns).
    fn splatted_columns(&self, splat: Node<'_>) -> Vec<Node<'_>> {
        let file = self.file;
        let Some(call) = splat.named_child(0).filter(|c| c.kind() == "call") else {
            return Vec::new();
        };
        let Some(helper) = call
            .field("function")
            .and_then(|f| self.functions.get(file.text(f)).copied())
        else {
            return Vec::new();
        };
        let mut columns = Vec::new();
        walk(helper, |node| {
            if node.kind() == "return_statement" {
                walk(node, |inner| {
                    if callee(file, inner) == Some("Column") {
                        columns.push(inner);
                        return Walk::Skip;
                    }
                    Walk::Enter
                });
                return Walk::Skip;
            }
            Walk::Enter
        });
        columns
    }
}

/// A `with op.batch_alter_table("t") as batch_op:` block: where it is, its alias, its table.
struct Batch {
    span: std::ops::Range<usize>,
    alias: String,
    table: String,
}

/// The batch blocks of a function body (each migration names its alias `batch_op` again).
fn batch_tables(file: &ParsedFile<'_>, body: Node<'_>) -> Vec<Batch> {
    let mut out = Vec::new();
    walk(body, |node| {
        if node.kind() == "as_pattern"
            && let Some(call) = node
                .named_child(0)
                .filter(|c| callee(file, *c) == Some("batch_alter_table"))
            && let (Some(table), Some(alias), Some(with)) = (
                positional(call).first().and_then(|t| string(file, *t)),
                node.field("alias").map(|a| file.text(a).to_owned()),
                crate::bridge::extract::syntax::ancestor(node, "with_statement", 4),
            )
        {
            out.push(Batch {
                span: with.byte_range(),
                alias,
                table,
            });
        }
        Walk::Enter
    });
    out
}

/// One `op.<method>(…)` (or `batch_op.<method>(…)` on table `batch`).
fn operation(module: &Module<'_, '_, '_>, call: Node<'_>, method: &str, batch: Option<String>, facts: &mut Facts) {
    let file = module.file;
    let args = positional(call);
    let text = |at: usize| args.get(at).and_then(|a| name_of(file, *a));
    // Batch operations leave the table out: their arguments start one earlier.
    let shift = usize::from(batch.is_none());
    let table = batch.clone().or_else(|| text(0));
    let alter = |ops: Vec<TableOp>| {
        table.as_ref().map(|t| ChangeKind::AlterTable {
            target: Name::parse(t),
            ops,
        })
    };
    let kind = match method {
        "create_table" => create_table(module, call, &args),
        "drop_table" => table.map(|t| ChangeKind::DropTable(Name::parse(&t))),
        "rename_table" => text(1).and_then(|to| alter(vec![TableOp::Rename(Name::parse(&to))])),
        "add_column" => args.get(shift).and_then(|column| {
            let declared = column_of(file, *column);
            let foreign_key = declared.keys.into_iter().next();
            alter(vec![TableOp::AddColumn {
                column: declared.column,
                foreign_key,
            }])
        }),
        "drop_column" => text(shift).and_then(|c| alter(vec![TableOp::DropColumn(c)])),
        "alter_column" => text(shift).and_then(|column| {
            let mut ops = Vec::new();
            let data_type = keyword(file, call, "type_").map(|t| unqualified(file.text(t)));
            let nullable = keyword(file, call, "nullable").map(|n| file.text(n) == "True");
            if data_type.is_some() || nullable.is_some() {
                ops.push(TableOp::AlterColumn {
                    name: column.clone(),
                    data_type,
                    nullable,
                });
            }
            if let Some(to) = keyword(file, call, "new_column_name").and_then(|n| string(file, n)) {
                ops.push(TableOp::RenameColumn { from: column, to });
            }
            (!ops.is_empty()).then(|| alter(ops)).flatten()
        }),
        "create_index" => {
            let table = batch.clone().or_else(|| text(1));
            let columns = args.get(2 - usize::from(batch.is_some())).map(|c| strings(file, *c));
            match (table, columns) {
                (Some(table), Some(columns)) => Some(ChangeKind::CreateIndex {
                    index: Index {
                        name: text(0),
                        table,
                        columns,
                        unique: keyword(file, call, "unique").is_some_and(|u| file.text(u) == "True"),
                        file: file.path.to_owned(),
                    },
                    if_not_exists: false,
                }),
                _ => None,
            }
        }
        "drop_index" => text(0).map(ChangeKind::DropIndex),
        "create_foreign_key" => {
            let (referent, local, remote) = (text(1 + shift), args.get(2 + shift), args.get(3 + shift));
            let table = batch.clone().or_else(|| text(1));
            match (table, referent, local, remote) {
                (Some(table), Some(referent), Some(local), Some(remote)) => Some(ChangeKind::AlterTable {
                    target: Name::parse(&table),
                    ops: vec![TableOp::AddForeignKey(ForeignKey {
                        name: text(0),
                        columns: strings(file, *local),
                        references_table: referent,
                        references_columns: strings(file, *remote),
                    })],
                }),
                _ => None,
            }
        }
        "create_unique_constraint" | "create_primary_key" => {
            let table = batch.clone().or_else(|| text(1));
            let columns = args.get(1 + shift).map(|c| strings(file, *c));
            match (table, columns) {
                (Some(table), Some(columns)) => Some(ChangeKind::AlterTable {
                    target: Name::parse(&table),
                    ops: vec![if method == "create_primary_key" {
                        TableOp::AddPrimaryKey(columns)
                    } else {
                        TableOp::AddIndex(Index {
                            name: text(0),
                            table: table.clone(),
                            columns,
                            unique: true,
                            file: file.path.to_owned(),
                        })
                    }],
                }),
                _ => None,
            }
        }
        "drop_constraint" => {
            let table = batch.clone().or_else(|| text(1));
            match (text(0), table) {
                (Some(name), Some(table)) => Some(ChangeKind::AlterTable {
                    target: Name::parse(&table),
                    ops: vec![TableOp::DropConstraint(name)],
                }),
                _ => None,
            }
        }
        "execute" => {
            let sql_text = args.first().and_then(|a| sql_string(file, *a));
            if let Some(sql_text) = sql_text {
                let found = sql::facts_of(file.path, &sql_text);
                facts.schema_changes.extend(found.schema_changes);
                facts.unparsed.extend(found.unparsed);
            }
            None
        }
        _ => None,
    };
    if let Some(kind) = kind {
        facts.schema_changes.push(Change {
            file: file.path.to_owned(),
            kind,
        });
    }
}

/// `op.create_table("name", sa.Column(…), …, sa.PrimaryKeyConstraint("id"), schema="s")`.
fn create_table(module: &Module<'_, '_, '_>, call: Node<'_>, args: &[Node<'_>]) -> Option<ChangeKind> {
    let file = module.file;
    let name = args.first().and_then(|a| string(file, *a))?;
    let mut table = Table {
        name,
        schema: keyword(file, call, "schema").and_then(|s| string(file, s)),
        origin: "create".into(),
        file: file.path.to_owned(),
        ..Table::default()
    };
    // `*timestamps()` among the columns: the helper's columns, where it stands.
    let splats: Vec<Node<'_>> = call
        .field("arguments")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|a| !matches!(a.kind(), "keyword_argument" | "comment"))
        .skip(1)
        .flat_map(|a| {
            if a.kind() == "list_splat" {
                module.splatted_columns(a)
            } else {
                vec![a]
            }
        })
        .collect();
    for arg in &splats {
        match callee(file, *arg) {
            Some("Column") => {
                let declared = column_of(file, *arg);
                if declared.column.primary_key {
                    table.primary_key.push(declared.column.name.clone());
                }
                table.foreign_keys.extend(declared.keys);
                table.columns.push(declared.column);
            }
            Some("PrimaryKeyConstraint") => {
                let columns: Vec<String> = positional(*arg).iter().filter_map(|c| string(file, *c)).collect();
                for column in table.columns.iter_mut().filter(|c| columns.contains(&c.name)) {
                    column.primary_key = true;
                    column.nullable = Some(false);
                }
                table.primary_key = columns;
            }
            Some("ForeignKeyConstraint") => {
                let parts = positional(*arg);
                let local = parts.first().map(|p| strings(file, *p)).unwrap_or_default();
                let remote = parts.get(1).map(|p| strings(file, *p)).unwrap_or_default();
                let (tables, columns): (Vec<String>, Vec<String>) = remote
                    .iter()
                    .map(|r| match r.rsplit_once('.') {
                        Some((t, c)) => (t.to_owned(), c.to_owned()),
                        None => (r.clone(), String::new()),
                    })
                    .unzip();
                if let Some(target) = tables.first() {
                    table.foreign_keys.push(ForeignKey {
                        name: keyword(file, *arg, "name").and_then(|n| name_of(file, n)),
                        columns: local,
                        references_table: target.clone(),
                        references_columns: columns.into_iter().filter(|c| !c.is_empty()).collect(),
                    });
                }
            }
            Some("UniqueConstraint") => {
                let columns: Vec<String> = positional(*arg).iter().filter_map(|c| string(file, *c)).collect();
                if let [only] = columns.as_slice()
                    && let Some(column) = table.columns.iter_mut().find(|c| &c.name == only)
                {
                    column.unique = true;
                }
            }
            _ => {}
        }
    }
    Some(ChangeKind::CreateTable {
        table,
        if_not_exists: false,
    })
}

/// A name given as a string or as `op.f("name")`.
fn name_of(file: &ParsedFile<'_>, node: Node<'_>) -> Option<String> {
    string(file, node).or_else(|| {
        (callee(file, node) == Some("f"))
            .then(|| positional(node).first().and_then(|n| string(file, *n)))
            .flatten()
    })
}

/// The strings of a list or tuple, or the one string.
fn strings(file: &ParsedFile<'_>, node: Node<'_>) -> Vec<String> {
    match node.kind() {
        "list" | "tuple" => named_children(node)
            .into_iter()
            .filter_map(|n| string(file, n))
            .collect(),
        _ => string(file, node).into_iter().collect(),
    }
}

/// The SQL of `op.execute("…")` or `op.execute(sa.text("…"))`.
fn sql_string(file: &ParsedFile<'_>, node: Node<'_>) -> Option<String> {
    string(file, node).or_else(|| {
        (callee(file, node) == Some("text"))
            .then(|| positional(node).first().and_then(|n| string(file, *n)))
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::extract::syntax::tests::parsed;

    #[test]
    fn upgrade_is_followed_into_the_files_own_helpers() {
        let text = r#"
from alembic import op
import sqlalchemy as sa

revision = "fdf8821871d7"
down_revision = None


def timestamps():
    return (
        sa.Column("created_at", sa.TIMESTAMP(timezone=True), nullable=False),
        sa.Column("updated_at", sa.TIMESTAMP(timezone=True), nullable=False),
    )


def create_users_table() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("email", sa.Text, unique=True, nullable=False),
        *timestamps(),
    )


def create_tables() -> None:
    create_users_table()
    create_tables()  # a loop is followed once
    op.create_table("tags", sa.Column("tag", sa.Text, primary_key=True))


def upgrade() -> None:
    create_tables()


def downgrade() -> None:
    op.drop_table("tags")
    op.drop_table("users")
"#;
        let file = parsed("app/db/migrations/versions/fdf8821871d7_main_tables.py", text);
        let mut facts = Facts::default();
        scan(&file, &mut facts);
        let created: Vec<(String, Vec<String>)> = facts
            .schema_changes
            .iter()
            .filter_map(|c| match &c.kind {
                ChangeKind::CreateTable { table, .. } => Some((
                    table.name.clone(),
                    table.columns.iter().map(|c| c.name.clone()).collect(),
                )),
                _ => None,
            })
            .collect();
        assert_eq!(
            created,
            [
                (
                    "users".to_owned(),
                    vec!["id".into(), "email".into(), "created_at".into(), "updated_at".into()]
                ),
                ("tags".to_owned(), vec!["tag".into()]),
            ]
        );
        assert_eq!(
            facts.schema_changes.len(),
            2,
            "downgrade() is not read: {:?}",
            facts.schema_changes
        );
        assert_eq!(facts.revisions[0].id, "fdf8821871d7");
    }
}
