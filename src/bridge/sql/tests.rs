//! The SQL extractor on migrations written the way each dialect's users write them.

use super::*;
use crate::bridge::facts::{ForeignKey, Table};

/// The schema after the file's statements (extracted, then replayed by the merge).
fn run(path: &str, sql: &str) -> Facts {
    crate::bridge::merge::merge(vec![extract(&[Source { path, text: sql }])])
}

fn columns(table: &Table) -> Vec<(String, Option<String>)> {
    table
        .columns
        .iter()
        .map(|c| (c.name.clone(), c.data_type.clone()))
        .collect()
}

#[test]
fn postgres_types_schemas_quotes_and_dollar_blocks() {
    let sql = r#"
CREATE TYPE billing.invoice_status AS ENUM ('draft', 'open', 'paid');

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'billing_ro') THEN
    CREATE ROLE billing_ro;
  END IF;
END
$$;

CREATE TABLE IF NOT EXISTS "billing"."Invoices" (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    "customerId" uuid NOT NULL REFERENCES public.customers (id) ON DELETE CASCADE,
    total_cents bigint NOT NULL CHECK (total_cents >= 0),
    status billing.invoice_status NOT NULL DEFAULT 'draft',
    memo text,
    CONSTRAINT invoices_number_key UNIQUE (number)
);

CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS invoices_customer_idx
    ON billing."Invoices" USING btree ("customerId", lower(memo));
"#;
    let facts = run("db/migrations/0003_invoices.sql", sql);
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let invoices = facts.table("Invoices");
    assert_eq!(invoices.schema.as_deref(), Some("billing"));
    assert_eq!(invoices.origin, "create");
    assert_eq!(
        columns(invoices),
        [
            ("id".into(), Some("UUID".into())),
            ("customerId".into(), Some("UUID".into())),
            ("total_cents".into(), Some("BIGINT".into())),
            ("status".into(), Some("billing.invoice_status".into())),
            ("memo".into(), Some("TEXT".into())),
        ]
    );
    assert_eq!(invoices.primary_key, ["id"]);
    assert_eq!(invoices.columns[1].nullable, Some(false));
    assert_eq!(invoices.columns[4].nullable, Some(true));
    assert_eq!(
        invoices.foreign_keys,
        [ForeignKey {
            name: None,
            columns: vec!["customerId".into()],
            references_table: "public.customers".into(),
            references_columns: vec!["id".into()],
        }]
    );
    let enums = &facts.enums[0];
    assert_eq!(
        (enums.name.as_str(), enums.schema.as_deref(), enums.values.clone()),
        (
            "invoice_status",
            Some("billing"),
            vec!["draft".into(), "open".into(), "paid".into()]
        )
    );
    let index = facts
        .indexes
        .iter()
        .find(|i| i.name.as_deref() == Some("invoices_customer_idx"))
        .unwrap();
    assert_eq!(index.table, "billing.Invoices");
    assert_eq!(index.columns, ["customerId", "lower(memo)"]);
    assert!(index.unique);
}

#[test]
fn mysql_backticks_engine_and_keys() {
    let sql = "
-- MySQL dump 10.13
/*!40101 SET NAMES utf8mb4 */;
CREATE TABLE `orders` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `user_id` int NOT NULL,
  `status` enum('new','shipped') NOT NULL DEFAULT 'new',
  `number` varchar(32) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `orders_number_unique` (`number`),
  KEY `idx_orders_user` (`user_id`),
  CONSTRAINT `fk_orders_user` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
ALTER TABLE `orders` ADD COLUMN `shipped_at` datetime NULL AFTER `status`;
";
    let facts = run("schema/orders.sql", sql);
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let orders = facts.table("orders");
    assert_eq!(orders.origin, "create");
    assert_eq!(orders.primary_key, ["id"]);
    assert!(orders.columns[0].primary_key);
    assert_eq!(orders.foreign_keys[0].references_table, "users");
    let indexes: Vec<(Option<&str>, bool)> = facts.indexes.iter().map(|i| (i.name.as_deref(), i.unique)).collect();
    assert_eq!(
        indexes,
        [(Some("orders_number_unique"), true), (Some("idx_orders_user"), false)]
    );
    assert_eq!(facts.indexes[1].columns, ["user_id"]);
    assert_eq!(facts.tables.len(), 1, "the ALTER folds into the CREATE");
    assert_eq!(
        columns(orders).last().unwrap(),
        &("shipped_at".into(), Some("DATETIME".into()))
    );
}

#[test]
fn sqlite_without_rowid_and_untyped_columns() {
    let sql = "
PRAGMA foreign_keys = ON;
CREATE TABLE tags (name TEXT PRIMARY KEY, created) WITHOUT ROWID;
CREATE TABLE post_tags (
  post_id INTEGER NOT NULL REFERENCES posts(id),
  tag TEXT NOT NULL REFERENCES tags(name),
  PRIMARY KEY (post_id, tag)
) STRICT;
";
    let facts = run("app/db/schema.sql", sql);
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let tags = facts.table("tags");
    assert_eq!(
        columns(tags),
        [("name".into(), Some("TEXT".into())), ("created".into(), None)]
    );
    let post_tags = facts.table("post_tags");
    assert_eq!(post_tags.primary_key, ["post_id", "tag"]);
    assert_eq!(post_tags.foreign_keys.len(), 2);
}

#[test]
fn a_statement_no_dialect_reads_costs_only_itself() {
    let sql = "
CREATE TABLE a (id int PRIMARY KEY);
CREATE TABLE broken (id int PRIMARY KEY,, name text);
CREATE TABLE c (id int PRIMARY KEY, a_id int REFERENCES a(id));
";
    let facts = run("migrations/001.sql", sql);
    let names: Vec<&str> = facts.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a", "c"]);
    assert_eq!(
        facts.unparsed,
        ["migrations/001.sql:3: \"CREATE TABLE broken (id int PRIMARY KEY,, name text)\""]
    );
}

#[test]
fn other_files_and_non_ddl_are_ignored() {
    let facts = run("notes.md", "CREATE TABLE x (id int);");
    assert_eq!(facts, Facts::default());
    let facts = run("seed.sql", "INSERT INTO users VALUES (1, 'CREATE TABLE');\nSELECT 1;");
    assert_eq!(facts, Facts::default());
}
