//! Alembic migrations read by the rules (`alembic.rs`): `upgrade()` followed into the file's
//! own helpers, batch blocks, constraints and `op.execute` SQL as schema changes.

use crate::bridge::facts::{ChangeKind, TableOp};
use crate::bridge::source::Source;

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
    let facts = crate::bridge::rules::extract(&[Source {
        path: "app/db/migrations/versions/fdf8821871d7_main_tables.py",
        text,
    }]);
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

#[test]
fn batch_blocks_constraints_and_execute() {
    let text = r#"
from alembic import op
import sqlalchemy as sa

revision = "b2"
down_revision = ("a1", "a2")


def upgrade():
    op.create_table(
        "item",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=8)),
        sa.ForeignKeyConstraint(["owner_id"], ["user.id"], name="fk_owner"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
        schema="shop",
    )
    with op.batch_alter_table("user") as batch_op:
        batch_op.add_column(sa.Column("bio", sa.Text(), sa.ForeignKey("bios.id")))
        batch_op.create_index(batch_op.f("ix_user_bio"), ["bio"], unique=True)
        batch_op.alter_column("name", new_column_name="full_name", type_=sa.String(80))
    op.create_foreign_key(op.f("fk_a_b"), "a", "b", ["b_id"], ["id"])
    op.drop_column("user", "legacy")
    op.execute("CREATE INDEX ix_item_code ON item (code)")


def downgrade():
    op.drop_table("item")
"#;
    let facts = crate::bridge::rules::extract(&[Source {
        path: "migrations/versions/b2_items.py",
        text,
    }]);
    assert_eq!(facts.revisions[0].down, ["a1", "a2"]);
    let opt = |text: &Option<String>| text.clone().unwrap_or_else(|| "-".to_owned());
    let kinds: Vec<String> = facts
        .schema_changes
        .iter()
        .map(|change| match &change.kind {
            ChangeKind::CreateTable { table, .. } => format!(
                "create {}.{} pk {} fk {} unique {} null {}",
                opt(&table.schema),
                table.name,
                table.primary_key.join(","),
                table
                    .foreign_keys
                    .iter()
                    .map(|k| format!(
                        "{} {}->{}({})",
                        opt(&k.name),
                        k.columns.join(","),
                        k.references_table,
                        k.references_columns.join(",")
                    ))
                    .collect::<Vec<_>>()
                    .join(" "),
                table
                    .columns
                    .iter()
                    .filter(|c| c.unique)
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
                table
                    .columns
                    .iter()
                    .filter(|c| c.nullable == Some(true))
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            ChangeKind::AlterTable { target, ops } => format!(
                "alter {} {}",
                target.name,
                ops.iter()
                    .map(|op| match op {
                        TableOp::AddColumn { column, foreign_key } => format!(
                            "add {} {} -> {}",
                            column.name,
                            opt(&column.data_type),
                            foreign_key.as_ref().map_or("-", |k| k.references_table.as_str())
                        ),
                        TableOp::AlterColumn { name, data_type, .. } => format!("type {name} {}", opt(data_type)),
                        TableOp::RenameColumn { from, to } => format!("rename {from} {to}"),
                        TableOp::AddForeignKey(key) => format!("fk {} {}", opt(&key.name), key.columns.join(",")),
                        TableOp::DropColumn(column) => format!("drop {column}"),
                        other => format!("{other:?}"),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ChangeKind::CreateIndex { index, .. } => format!(
                "index {} {}({}){}",
                opt(&index.name),
                index.table,
                index.columns.join(","),
                if index.unique { " unique" } else { "" }
            ),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "create shop.item pk id fk fk_owner owner_id->user(id) unique code null code",
            "alter user add bio Text -> bios",
            "index ix_user_bio user(bio) unique",
            "alter user type name String(80), rename name full_name",
            "alter a fk fk_a_b b_id",
            "alter user drop legacy",
            "index ix_item_code item(code)",
        ]
    );
}
