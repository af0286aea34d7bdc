//! The Prisma reader on a schema written the way Prisma's own examples are.

use super::*;

const SCHEMA: &str = r#"
// This is your Prisma schema file,
generator client {
  provider = "prisma-client-js"
  previewFeatures = ["multiSchema"]
}

datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
  schemas  = ["public", "billing"]
}

/// A registered user
model User {
  id        Int      @id @default(autoincrement())
  email     String   @unique @db.VarChar(255)
  name      String?  // "display" name; may be // empty
  role      Role     @default(USER)
  createdAt DateTime @default(now()) @map("created_at")
  posts     Post[]
  profile   Profile?

  @@map("users")
}

model Post {
  id        Int     @id @default(autoincrement())
  title     String
  published Boolean @default(false)
  authorId  Int     @map("author_id")
  author    User    @relation(fields: [authorId], references: [id], onDelete: Cascade)
  tags      String[]

  @@index([authorId, published(sort: Desc)], map: "posts_author_published_idx")
  @@unique([title, authorId])
}

model Profile {
  userId Int    @unique
  bio    String @default("a \"quoted\" bio")
  user   User   @relation(fields: [userId], references: [id])

  @@id([userId])
}

model Invoice {
  id    String @id @default(uuid())
  total Decimal @db.Decimal(10, 2)

  @@schema("billing")
  @@map("invoices")
}

enum Role {
  USER
  ADMIN @map("admin")

  @@map("user_role")
}
"#;

fn facts() -> Facts {
    extract(&[Source {
        path: "prisma/schema.prisma",
        text: SCHEMA,
    }])
}

#[test]
fn models_become_tables_with_mapped_names_and_types() {
    let facts = facts();
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let names: Vec<&str> = facts.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["users", "Post", "Profile", "invoices"]);
    let users = facts.table("users");
    assert_eq!(users.model.as_deref(), Some("User"));
    let columns: Vec<(&str, &str, Option<bool>)> = users
        .columns
        .iter()
        .map(|c| (c.name.as_str(), c.data_type.as_deref().unwrap(), c.nullable))
        .collect();
    assert_eq!(
        columns,
        [
            ("id", "Int", Some(false)),
            ("email", "String @db.VarChar(255)", Some(false)),
            ("name", "String", Some(true)),
            ("role", "Role", Some(false)),
            ("created_at", "DateTime", Some(false)),
        ]
    );
    assert_eq!(users.columns[4].field.as_deref(), Some("createdAt"));
    assert_eq!(users.primary_key, ["id"]);
    assert!(users.columns[1].unique);
    let invoices = facts.table("invoices");
    assert_eq!(invoices.schema.as_deref(), Some("billing"));
    assert_eq!(
        invoices.columns[1].data_type.as_deref(),
        Some("Decimal @db.Decimal(10, 2)")
    );
}

#[test]
fn relations_are_foreign_keys_and_block_attributes_keys_and_indexes() {
    let facts = facts();
    let post = facts.table("Post");
    assert_eq!(post.foreign_keys.len(), 1);
    let fk = &post.foreign_keys[0];
    assert_eq!(
        (
            fk.columns.as_slice(),
            fk.references_table.as_str(),
            fk.references_columns.as_slice()
        ),
        (&["author_id".to_owned()][..], "users", &["id".to_owned()][..])
    );
    assert!(
        post.columns.iter().all(|c| c.name != "author"),
        "relation fields are not columns"
    );
    assert_eq!(
        post.columns
            .iter()
            .find(|c| c.name == "tags")
            .unwrap()
            .data_type
            .as_deref(),
        Some("String")
    );
    let indexes: Vec<(Option<&str>, &[String], bool)> = facts
        .indexes
        .iter()
        .map(|i| (i.name.as_deref(), i.columns.as_slice(), i.unique))
        .collect();
    assert_eq!(
        indexes,
        [
            (
                Some("posts_author_published_idx"),
                &["author_id".to_owned(), "published".to_owned()][..],
                false
            ),
            (None, &["title".to_owned(), "author_id".to_owned()][..], true),
        ]
    );
    assert_eq!(facts.table("Profile").primary_key, ["userId"]);
}

#[test]
fn enums_keep_their_values_and_mapped_name() {
    let facts = facts();
    assert_eq!(facts.enums.len(), 1);
    assert_eq!(facts.enums[0].name, "user_role");
    assert_eq!(facts.enums[0].values, ["USER", "ADMIN"]);
}

#[test]
fn an_unclosed_block_and_a_bad_line_are_recorded() {
    let text = "model A {\n  id Int @id\n  oops\n}\nmodel B {\n  id Int @id\n";
    let facts = extract(&[Source {
        path: "schema.prisma",
        text,
    }]);
    assert_eq!(facts.tables.len(), 1);
    let mut unparsed = facts.unparsed.clone();
    unparsed.sort();
    assert_eq!(
        unparsed,
        ["schema.prisma:3: oops", "schema.prisma:5: model B is not closed"]
    );
}

#[test]
fn env_reads_of_the_datasource_are_env_vars() {
    let facts = extract(&[Source {
        path: "prisma/schema.prisma",
        text: "datasource db {\n  provider = \"postgresql\"\n  url = env(\"DATABASE_URL\")\n  \
               directUrl = env(\"DIRECT_URL\") // env(\"COMMENTED\")\n  shadowDatabaseUrl = myenv(\"NOT_A_READ\")\n}\n",
    }]);
    let names: Vec<(&str, &str)> = facts
        .env_vars
        .iter()
        .map(|e| (e.name.as_str(), e.source.as_str()))
        .collect();
    assert_eq!(
        names,
        [("DATABASE_URL", "prisma env()"), ("DIRECT_URL", "prisma env()")]
    );
}

#[test]
fn relations_resolve_across_files_and_attributes_may_span_lines() {
    let users = "model User {\n  id String @id @map(\"user_pk\")\n  home Address?\n\n  @@map(\"users\")\n  @@schema(\"auth\")\n}\n\
                 type Address {\n  street String\n}\n";
    let accounts = "model Account {\n  id     Int    @id\n  userId String @map(\"user_id\")\n  \
                    user   User   @relation(fields: [userId], references: [id])\n\n  @@index([\n    userId,\n    id\n  ], name: \"by_user\")\n}\n";
    let facts = extract(&[
        Source {
            path: "prisma/schema/users.prisma",
            text: users,
        },
        Source {
            path: "prisma/schema/accounts.prisma",
            text: accounts,
        },
    ]);
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let fk = &facts.table("Account").foreign_keys[0];
    assert_eq!(
        (
            fk.columns.as_slice(),
            fk.references_table.as_str(),
            fk.references_columns.as_slice()
        ),
        (&["user_id".to_owned()][..], "auth.users", &["user_pk".to_owned()][..])
    );
    assert_eq!(facts.indexes[0].name.as_deref(), Some("by_user"));
    assert_eq!(facts.indexes[0].columns, ["user_id", "id"]);
    let home = facts.table("users").columns.iter().find(|c| c.name == "home");
    assert_eq!(
        home.and_then(|c| c.data_type.as_deref()),
        Some("Address"),
        "a field of a composite type is a column"
    );
}
