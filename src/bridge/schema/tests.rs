//! A migration history replayed: the schema is what the last migration left.

use crate::bridge::extract::{Source, sql};
use crate::bridge::facts::Facts;
use crate::bridge::merge::merge;

fn replayed(files: &[(&str, &str)]) -> Facts {
    let sources: Vec<Source<'_>> = files.iter().map(|(path, text)| Source { path, text }).collect();
    merge(vec![sql::extract(&sources)])
}

fn column_names(facts: &Facts, table: &str) -> Vec<String> {
    facts.table(table).columns.iter().map(|c| c.name.clone()).collect()
}

const INIT: &str = "
CREATE TYPE mood AS ENUM ('sad', 'happy');
CREATE TABLE users (id bigserial PRIMARY KEY, name text NOT NULL, legacy_flag boolean, email text);
CREATE UNIQUE INDEX users_email_idx ON users (email);
CREATE TABLE sessions (id uuid PRIMARY KEY, user_id bigint REFERENCES users (id));
CREATE TABLE posts (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  editor_id bigint,
  CONSTRAINT posts_editor_fk FOREIGN KEY (editor_id) REFERENCES users (id)
);
";

const RENAMES: &str = "
ALTER TABLE users RENAME TO accounts;
ALTER TABLE accounts RENAME COLUMN name TO display_name;
ALTER TABLE accounts DROP COLUMN legacy_flag;
ALTER INDEX users_email_idx RENAME TO accounts_email_idx;
ALTER TABLE posts DROP CONSTRAINT posts_user_id_fkey;
ALTER TABLE posts DROP CONSTRAINT posts_editor_fk, ALTER COLUMN editor_id TYPE integer;
ALTER TYPE mood ADD VALUE 'calm';
DROP TABLE sessions;
";

const LATER: &str = "
DROP TABLE IF EXISTS audit_log;
DROP INDEX IF EXISTS old_orders_idx;
ALTER TABLE orders ADD COLUMN shipped_at timestamptz, DROP COLUMN legacy_note;
ALTER TABLE orders RENAME TO purchases;
";

#[test]
fn the_schema_is_what_the_last_migration_left() {
    // Given out of order: the file names say the order (2 before 10).
    let facts = replayed(&[
        ("db/migrations/10_later.sql", LATER),
        ("db/migrations/2_renames.sql", RENAMES),
        ("db/migrations/1_init.sql", INIT),
        (
            "db/migrations/2_renames.down.sql",
            "DROP TABLE accounts; DROP TABLE posts;",
        ),
    ]);
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let names: Vec<&str> = facts.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["accounts", "posts", "purchases"],
        "users renamed, sessions dropped"
    );
    assert_eq!(column_names(&facts, "accounts"), ["id", "display_name", "email"]);
    let accounts = facts.table("accounts");
    assert_eq!(
        accounts.sources,
        ["db/migrations/1_init.sql", "db/migrations/2_renames.sql"]
    );
    assert_eq!(
        accounts.renamed_from, None,
        "created in the run: its history is its own"
    );
    let posts = facts.table("posts");
    assert!(
        posts.foreign_keys.is_empty(),
        "both keys dropped: {:?}",
        posts.foreign_keys
    );
    assert_eq!(posts.columns[2].data_type.as_deref(), Some("INTEGER"));
    let index = &facts.indexes[0];
    assert_eq!(
        (index.name.as_deref(), index.table.as_str()),
        (Some("accounts_email_idx"), "accounts")
    );
    assert_eq!(facts.enums[0].values, ["sad", "happy", "calm"]);
    let purchases = facts.table("purchases");
    assert_eq!(purchases.origin, "alter");
    assert_eq!(purchases.renamed_from.as_deref(), Some("orders"));
    assert_eq!(column_names(&facts, "purchases"), ["shipped_at"]);
    let dropped: Vec<(&str, &str)> = facts
        .dropped
        .iter()
        .map(|d| (d.kind.as_str(), d.name.as_str()))
        .collect();
    assert_eq!(
        dropped,
        [
            ("table", "audit_log"),
            ("index", "old_orders_idx"),
            ("column", "orders.legacy_note")
        ]
    );
}

#[test]
fn a_table_created_again_takes_the_newer_definition_unless_if_not_exists() {
    let facts = replayed(&[
        ("db/1.sql", "CREATE TABLE t (a int); CREATE TABLE u (a int);"),
        (
            "db/2.sql",
            "CREATE TABLE t (a int, b text); CREATE TABLE IF NOT EXISTS u (z int);",
        ),
        ("db/3.sql", "DROP TABLE t; CREATE TABLE t (c int);"),
    ]);
    assert_eq!(column_names(&facts, "t"), ["c"]);
    assert_eq!(column_names(&facts, "u"), ["a"]);
    assert!(facts.dropped.is_empty(), "{:?}", facts.dropped);
}

#[test]
fn mysql_changes_renames_and_drops_keys_by_their_names() {
    let facts = replayed(&[(
        "schema/orders.sql",
        "CREATE TABLE `orders` (`id` int NOT NULL, `user_id` int, `note` text, PRIMARY KEY (`id`),
           UNIQUE KEY `orders_note` (`note`(20)), KEY `idx_user` (`user_id`),
           FOREIGN KEY (`user_id`) REFERENCES `users` (`id`)) ENGINE=InnoDB;
         ALTER TABLE `orders` CHANGE `note` `memo` varchar(200) NOT NULL, DROP FOREIGN KEY `orders_ibfk_1`,
           DROP INDEX `idx_user`;
         RENAME TABLE `orders` TO `purchases`;",
    )]);
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let purchases = facts.table("purchases");
    assert_eq!(column_names(&facts, "purchases"), ["id", "user_id", "memo"]);
    assert_eq!(purchases.columns[2].data_type.as_deref(), Some("VARCHAR(200)"));
    assert_eq!(purchases.columns[2].nullable, Some(false));
    assert!(purchases.foreign_keys.is_empty());
    let indexes: Vec<(Option<&str>, &str)> = facts
        .indexes
        .iter()
        .map(|i| (i.name.as_deref(), i.table.as_str()))
        .collect();
    assert_eq!(indexes, [(Some("orders_note"), "purchases")]);
}
