//! Tables the rules read from the ORM fixture projects.

use crate::bridge::extract::code::extract_timed;
use crate::bridge::extract::code::fixture::extract_with_rules;
use crate::bridge::extract::{Settings, Source};
use crate::bridge::facts::{Facts, Table};

/// One line per column: `name type` plus ` pk`, ` null`, ` unique`, ` (field)` where they apply.
fn columns(table: &Table) -> Vec<String> {
    table
        .columns
        .iter()
        .map(|c| {
            let mut line = format!("{} {}", c.name, c.data_type.as_deref().unwrap_or("?"));
            if c.primary_key {
                line.push_str(" pk");
            }
            if c.nullable == Some(true) {
                line.push_str(" null");
            }
            if c.unique {
                line.push_str(" unique");
            }
            if let Some(field) = &c.field {
                line.push_str(&format!(" ({field})"));
            }
            line
        })
        .collect()
}

/// `columns -> table(columns)` per foreign key.
fn keys(table: &Table) -> Vec<String> {
    table
        .foreign_keys
        .iter()
        .map(|k| {
            format!(
                "{} -> {}({})",
                k.columns.join(","),
                k.references_table,
                k.references_columns.join(",")
            )
        })
        .collect()
}

fn names(facts: &Facts) -> Vec<String> {
    facts
        .tables
        .iter()
        .map(|t| match &t.schema {
            Some(schema) => format!("{schema}.{}", t.name),
            None => t.name.clone(),
        })
        .collect()
}

fn indexes(facts: &Facts) -> Vec<String> {
    facts
        .indexes
        .iter()
        .map(|i| {
            format!(
                "{}{}({})",
                if i.unique { "unique " } else { "" },
                i.table,
                i.columns.join(",")
            )
        })
        .collect()
}

#[test]
fn typeorm_entities_columns_relations_and_naming_defaults() {
    let facts = extract_with_rules("db-typeorm");
    assert_eq!(names(&facts), ["category", "blog.posts", "profiles", "users"]);
    assert!(
        facts
            .tables
            .iter()
            .all(|t| t.framework.as_deref() == Some("typeorm") && t.origin == "model")
    );
    let posts = facts.table("posts");
    assert_eq!(posts.model.as_deref(), Some("Post"));
    assert_eq!(
        columns(posts),
        [
            "id uuid pk",
            "slug varchar(200)",
            "body text",
            "published_at timestamptz null (publishedAt)",
            "author_id ? (author)",
            "categoryId ? null (category)",
            "updatedAt Date",
        ]
    );
    assert_eq!(posts.primary_key, ["id"]);
    assert_eq!(keys(posts), ["author_id -> users(id)", "categoryId -> category(slug)"]);
    let users = facts.table("users");
    assert_eq!(
        columns(users),
        [
            "id number pk",
            "email varchar(320)",
            "display_name string null (displayName)",
            "role enum",
            "created_at timestamptz (createdAt)"
        ]
    );
    assert_eq!(keys(facts.table("profiles")), ["user_id -> users(id)"]);
    assert_eq!(
        indexes(&facts),
        [
            "posts(published_at)",
            "unique posts(author_id,slug)",
            "unique users(email)"
        ]
    );
}

#[test]
fn sqlalchemy_declarative_mapped_and_classic_tables() {
    let facts = extract_with_rules("db-sqlalchemy");
    assert!(
        facts
            .tables
            .iter()
            .all(|t| t.framework.as_deref() == Some("sqlalchemy"))
    );
    assert_eq!(
        names(&facts),
        ["audit.audit_log", "sales.orders", "order_lines", "users"]
    );
    assert_eq!(
        columns(facts.table("users")),
        [
            "id int pk",
            "email String(320) unique",
            "full_name String(120) null",
            "is_admin bool",
            "created_at datetime",
        ]
    );
    let orders = facts.table("orders");
    assert_eq!(
        columns(orders),
        [
            "id Integer pk",
            "order_number String(32) (number)",
            "customer_id Integer",
            "total_cents BigInteger",
            "note Text null",
        ]
    );
    assert_eq!(keys(orders), ["customer_id -> users(id)"]);
    assert_eq!(
        keys(facts.table("order_lines")),
        ["order_id -> sales.orders(id)", "added_by -> users(id)"]
    );
    assert_eq!(columns(facts.table("audit_log"))[0], "id Integer pk");
    // `__table_args__ = (sa.UniqueConstraint("number"), …)`: on the column of attribute `number`.
    assert_eq!(indexes(&facts), ["unique orders(order_number)", "unique users(email)"]);
}

#[test]
fn flask_sqlalchemy_default_names_mixins_and_writeonly_relationships() {
    let facts = extract_with_rules("db-flask-sqlalchemy");
    assert_eq!(names(&facts), ["wishlist", "customer", "product", "order_lines"]);
    assert_eq!(
        columns(facts.table("customer")),
        [
            "created_at datetime",
            "updated_at datetime null",
            "id int pk",
            "email String(120) unique",
            "display_name String(64) null",
        ]
    );
    assert_eq!(columns(facts.table("product"))[2], "price_cents int");
    assert_eq!(
        keys(facts.table("order_lines")),
        ["customer_id -> customer(id)", "product_id -> product(id)"]
    );
    assert_eq!(
        keys(facts.table("wishlist")),
        ["customer_id -> customer(id)", "product_id -> product(id)"]
    );
    assert_eq!(facts.table("wishlist").primary_key, ["customer_id", "product_id"]);
    assert_eq!(indexes(&facts), ["unique customer(email)", "order_lines(customer_id)"]);
}

#[test]
fn sqlmodel_tables_lower_case_names_parents_fields_and_keys() {
    let text = r#"
from typing import Optional
from sqlmodel import Field, Relationship, SQLModel


class TeamBase(SQLModel):
    name: str = Field(index=True)
    headquarters: Optional[str] = None


class HeroTeam(TeamBase, table=True):
    __table_args__ = {"schema": "league"}
    id: int | None = Field(default=None, primary_key=True)
    captain_id: int = Field(foreign_key="league.hero.id", unique=True, index=True)
    heroes: list["Hero"] = Relationship(back_populates="team")
    owner: "Hero" = Relationship()


class TeamPublic(TeamBase):
    id: int
"#;
    let facts = crate::bridge::rules::extract(&[Source {
        path: "app/models.py",
        text,
    }]);
    assert_eq!(names(&facts), ["league.heroteam"]);
    let team = facts.table("heroteam");
    assert_eq!(team.framework.as_deref(), Some("sqlmodel"));
    assert_eq!(
        columns(team),
        [
            "name str",
            "headquarters str null",
            "id int pk",
            "captain_id int unique"
        ]
    );
    assert_eq!(keys(team), ["captain_id -> league.hero(id)"]);
    let mut found = indexes(&facts);
    found.sort();
    assert_eq!(
        found,
        ["heroteam(name)", "unique heroteam(captain_id)"],
        "the parent's index is the table's"
    );
}

#[test]
fn sqlalchemy_abstract_bases_and_explicit_names_and_types() {
    let text = r#"
import sqlalchemy as sa
from app import db


class Base(db.Model):
    __abstract__ = True
    id = db.Column(db.Integer, primary_key=True)


class UserAccount(Base):
    __tablename__ = "accounts"
    __table_args__ = (
        sa.Index("ix_accounts_login_team", "user_login", "team_id", unique=True),
        db.UniqueConstraint("team_id", "login", name="uq_team_login"),
        {"schema": "auth"},
    )
    login = db.Column("user_login", type_=sa.Text, nullable=False)
    team_id = db.Column(db.ForeignKey("teams.key"))


class AuditEntry(Base, db.Model):
    note = db.Column(db.Text())
"#;
    let facts = crate::bridge::rules::extract(&[Source {
        path: "app/models.py",
        text,
    }]);
    assert_eq!(names(&facts), ["auth.accounts", "audit_entry"]);
    assert_eq!(
        indexes(&facts),
        [
            "unique accounts(user_login,team_id)",
            "unique accounts(team_id,user_login)"
        ]
    );
    let named: Vec<_> = facts.indexes.iter().map(|i| i.name.as_deref().unwrap_or("")).collect();
    assert_eq!(named, ["ix_accounts_login_team", "uq_team_login"]);
    assert_eq!(
        columns(facts.table("accounts")),
        ["id Integer pk", "user_login Text (login)", "team_id ? null"]
    );
    assert_eq!(keys(facts.table("accounts")), ["team_id -> teams(key)"]);
    assert_eq!(columns(facts.table("audit_entry")), ["id Integer pk", "note Text null"]);
}

#[test]
fn django_models_app_tables_implicit_ids_relations_and_abstract_parents() {
    let facts = extract_with_rules("db-django");
    assert_eq!(
        names(&facts),
        [
            "accounts_profile",
            "catalog_categories",
            "shop_product",
            "shop_product_tags",
            "shop_tag",
            "shop_order",
            "shop_orderitem"
        ]
    );
    let tags = facts.table("shop_product_tags");
    assert_eq!(
        columns(tags),
        ["id BigAutoField pk", "product_id ForeignKey", "tag_id ForeignKey"]
    );
    assert_eq!(
        keys(tags),
        ["product_id -> shop_product(sku)", "tag_id -> shop_tag(id)"]
    );
    assert_eq!(
        columns(facts.table("shop_product")),
        [
            "created_at DateTimeField",
            "updated_at DateTimeField",
            "sku CharField(max_length=32) pk",
            "title CharField(max_length=200)",
            "price DecimalField",
            "category_ref ForeignKey (category)",
        ]
    );
    assert_eq!(facts.table("shop_product").primary_key, ["sku"]);
    assert_eq!(
        keys(facts.table("shop_product")),
        ["category_ref -> catalog_categories(id)"]
    );
    assert_eq!(
        keys(facts.table("catalog_categories")),
        ["parent_id -> catalog_categories(id)"]
    );
    assert_eq!(keys(facts.table("shop_order")), ["customer_id -> auth_user(id)"]);
    assert_eq!(
        columns(facts.table("shop_order")),
        [
            "id BigAutoField pk",
            "created_at DateTimeField",
            "updated_at DateTimeField",
            "customer_id ForeignKey (customer)",
            "status CharField(max_length=16)",
            "notes TextField null",
        ]
    );
    assert_eq!(
        keys(facts.table("shop_orderitem")),
        ["order_id -> shop_order(id)", "product_id -> shop_product(sku)"]
    );
    let profile = facts.table("accounts_profile");
    assert_eq!(columns(profile)[0], "id UUIDField pk");
    assert_eq!(
        keys(profile),
        [
            "user_id -> auth_user(id)",
            "favourite_category_id -> catalog_categories(id)"
        ]
    );
    assert!(columns(profile).contains(&"user_id OneToOneField unique (user)".to_owned()));
    assert_eq!(columns(facts.table("shop_tag"))[0], "id BigAutoField pk");
    assert_eq!(
        indexes(&facts),
        [
            "unique accounts_profile(user_id)",
            "unique catalog_categories(name)",
            "shop_product(category_ref,title)",
            "unique shop_product_tags(product_id,tag_id)",
            "shop_tag(label)",
            "unique shop_orderitem(order_id,product_id)"
        ]
    );
}

#[test]
fn diesel_table_macros_and_joinables() {
    let facts = extract_with_rules("db-diesel");
    let diesel: Vec<&Table> = facts
        .tables
        .iter()
        .filter(|t| t.framework.as_deref() == Some("diesel"))
        .collect();
    assert_eq!(
        diesel.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["authors", "books", "book_loans"]
    );
    assert_eq!(columns(diesel[0]), ["id Int4 pk", "name Varchar", "born Date null"]);
    assert_eq!(diesel[1].primary_key, ["isbn"]);
    assert_eq!(columns(diesel[1])[3], "tags Array<Nullable<Text>>");
    assert_eq!(keys(diesel[1]), ["author_id -> authors(id)"]);
    let loans = diesel[2];
    assert_eq!(
        (loans.schema.as_deref(), loans.model.as_deref()),
        (Some("lending"), Some("loans"))
    );
    assert_eq!(
        columns(loans),
        [
            "id Int8 pk",
            "book_isbn Bpchar",
            "borrowed_at Timestamptz (borrowed)",
            "state LoanState"
        ]
    );
    assert_eq!(keys(loans), ["book_isbn -> books(isbn)"]);
}

#[test]
fn seaorm_entities_and_belongs_to_relations() {
    let facts = extract_with_rules("db-seaorm");
    assert_eq!(names(&facts), ["bakery.cakes", "fruits"]);
    assert_eq!(
        columns(facts.table("cakes")),
        [
            "id i32 pk",
            "name String unique",
            "description Text null",
            "price_cents i64 (price)"
        ]
    );
    let fruits = facts.table("fruits");
    assert_eq!(columns(fruits), ["id Uuid pk", "name String", "cake_id i32 null"]);
    assert_eq!(keys(fruits), ["cake_id -> cakes(id)"]);
    assert_eq!(indexes(&facts), ["cakes(name)"]);
}

#[test]
fn another_orms_models_module_makes_no_django_tables() {
    let tortoise = "from tortoise import fields, models\n\n\
                    class TextSummary(models.Model):\n    url = fields.TextField()\n";
    let django = "from django.db import models\n\n\
                  class Note(models.Model):\n    body = models.TextField()\n";
    let sources = [
        Source {
            path: "app/models/tortoise.py",
            text: tortoise,
        },
        Source {
            path: "notes/models.py",
            text: django,
        },
    ];
    let (mut facts, _, code_rules) = extract_timed(&sources, &Settings::default());
    facts.append(crate::bridge::rules::extract_after_code(
        &sources,
        code_rules,
        super::link::link_routes,
    ));
    let names: Vec<&str> = facts.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["notes_note"], "{:#?}", facts.tables);
}
