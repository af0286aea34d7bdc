//! TypeORM entities: `@Entity('users')` classes, their `@Column`/`@PrimaryGeneratedColumn`/
//! date columns with types and options, `@ManyToOne`/`@OneToOne` + `@JoinColumn` foreign
//! keys, `@ManyToMany` + `@JoinTable` join tables (named at linking, by TypeORM's default
//! naming strategy or the `@JoinTable` options), `@Index`/`@Unique` indexes, and the
//! entity-less (often abstract) base classes whose columns the entities extending them get.

use tree_sitter::Node;

use super::{JoinNaming, ModelRef, PendingKey, PendingTable, camel_case, column, snake_case};
use crate::bridge::extract::syntax::literal::{string, unwrap_parens};
use crate::bridge::extract::syntax::script::{
    annotation_text, class_members, decorator_arguments, decorator_name, decorators, property,
};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children};
use crate::bridge::facts::{Column, ForeignKey, Index, Table};

/// Decorators that declare a column, and whether it is part of the primary key.
const COLUMN_DECORATORS: &[(&str, bool)] = &[
    ("Column", false),
    ("PrimaryColumn", true),
    ("PrimaryGeneratedColumn", true),
    ("CreateDateColumn", false),
    ("UpdateDateColumn", false),
    ("DeleteDateColumn", false),
    ("VersionColumn", false),
    ("ObjectIdColumn", true),
];

/// Reads the TypeORM entities of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingTable>) {
    index.each(&["class_declaration", "abstract_class_declaration"], |node| {
        if let Some((table, joins)) = entity(file, node) {
            out.push(table);
            out.extend(joins);
        }
    });
}

/// An entity (or a base class with columns) and the join tables its `@ManyToMany` +
/// `@JoinTable` relations make.
fn entity(file: &ParsedFile<'_>, class: Node<'_>) -> Option<(PendingTable, Vec<PendingTable>)> {
    let class_decorators = decorators(class);
    let marker = class_decorators
        .iter()
        .find(|d| decorator_name(file, **d) == Some("Entity"));
    let class_name = file.field_text(class, "name")?;
    let options = marker.map(|m| decorator_arguments(*m)).unwrap_or_default();
    let (mut name, mut schema) = (None, None);
    match options.first() {
        Some(first) if first.kind() == "object" => {
            name = property(file, *first, "name").and_then(|n| string(file, n));
            schema = property(file, *first, "schema").and_then(|s| string(file, s));
        }
        Some(first) => name = string(file, *first),
        None => {}
    }
    let name = name.unwrap_or_else(|| snake_case(class_name));
    let mut pending = PendingTable {
        table: Table {
            name: name.clone(),
            schema,
            model: Some(class_name.to_owned()),
            origin: "model".into(),
            framework: Some("typeorm".into()),
            file: file.path.to_owned(),
            ..Table::default()
        },
        bases: extends(file, class).into_iter().collect(),
        is_abstract: marker.is_none(),
        ..PendingTable::default()
    };
    let mut joins = Vec::new();
    let mut property_columns: Vec<(String, String)> = Vec::new();
    for (member_decorators, member) in class_members(class.field("body")?) {
        if member.kind() != "public_field_definition" {
            continue;
        }
        let Some(property_name) = file.field_text(member, "name") else {
            continue;
        };
        let ts_type = member.field("type").map(|t| annotation_text(file, t).to_owned());
        for decorator in &member_decorators {
            let Some(kind) = decorator_name(file, *decorator) else {
                continue;
            };
            if let Some((_, primary)) = COLUMN_DECORATORS.iter().find(|(have, _)| *have == kind) {
                let column = declared_column(file, *decorator, property_name, ts_type.clone(), *primary);
                property_columns.push((property_name.to_owned(), column.name.clone()));
                add_column(&mut pending.table, column);
            } else if matches!(kind, "ManyToOne" | "OneToOne") {
                let join = member_decorators
                    .iter()
                    .find(|d| decorator_name(file, **d) == Some("JoinColumn"));
                if kind == "OneToOne" && join.is_none() {
                    continue; // the other side owns the key
                }
                relation(
                    file,
                    &mut pending,
                    *decorator,
                    join.copied(),
                    property_name,
                    &mut property_columns,
                );
            } else if kind == "ManyToMany"
                && let Some(join) = member_decorators
                    .iter()
                    .find(|d| decorator_name(file, **d) == Some("JoinTable"))
                && let Some(target) = decorator_arguments(*decorator)
                    .first()
                    .and_then(|first| target_class(file, *first))
            {
                joins.push(join_table(file, &pending.table, *join, property_name, target));
            } else if kind == "Index" || kind == "Unique" {
                pending.indexes.push(Index {
                    name: None,
                    table: name.clone(),
                    columns: vec![property_name.to_owned()],
                    unique: kind == "Unique" || option_is_true(file, decorator_arguments(*decorator).last(), "unique"),
                    file: file.path.to_owned(),
                });
            }
        }
    }
    for decorator in &class_decorators {
        let kind = decorator_name(file, *decorator);
        if !matches!(kind, Some("Index" | "Unique")) {
            continue;
        }
        let args = decorator_arguments(*decorator);
        let index_name = args.first().and_then(|first| string(file, *first));
        let Some(list) = args.iter().find(|arg| arg.kind() == "array") else {
            continue;
        };
        pending.indexes.push(Index {
            name: index_name,
            table: name.clone(),
            columns: named_children(*list)
                .into_iter()
                .filter_map(|p| string(file, p))
                .collect(),
            unique: kind == Some("Unique") || option_is_true(file, args.last(), "unique"),
            file: file.path.to_owned(),
        });
    }
    // Indexes name properties; the table has columns.
    for index in &mut pending.indexes {
        for column in &mut index.columns {
            if let Some((_, name)) = property_columns.iter().find(|(property, _)| property == column) {
                *column = name.clone();
            }
        }
    }
    if pending.is_abstract && pending.table.columns.is_empty() {
        return None;
    }
    Some((pending, joins))
}

/// The class named by `class X extends Base`.
fn extends(file: &ParsedFile<'_>, class: Node<'_>) -> Option<String> {
    let heritage = named_children(class)
        .into_iter()
        .find(|c| c.kind() == "class_heritage")?;
    let clause = named_children(heritage)
        .into_iter()
        .find(|c| c.kind() == "extends_clause")?;
    let value = clause.field("value")?;
    (value.kind() == "identifier").then(|| file.text(value).to_owned())
}

/// `@ManyToMany(() => Category) @JoinTable({ name, joinColumn: { name }, inverseJoinColumn: { name } })`
/// on `owner.property`: a join table, named at linking when the options leave it out.
fn join_table(
    file: &ParsedFile<'_>,
    owner: &Table,
    join: Node<'_>,
    property_name: &str,
    target: String,
) -> PendingTable {
    let options = decorator_arguments(join).into_iter().find(|arg| arg.kind() == "object");
    let option = |key: &str| options.and_then(|o| property(file, o, key));
    let column_name = |key: &str| {
        option(key)
            .filter(|o| o.kind() == "object")
            .and_then(|o| property(file, o, "name"))
            .and_then(|n| string(file, n))
    };
    PendingTable {
        table: Table {
            name: option("name").and_then(|n| string(file, n)).unwrap_or_default(),
            schema: option("schema").and_then(|s| string(file, s)),
            origin: "model".into(),
            framework: Some("typeorm".into()),
            file: file.path.to_owned(),
            ..Table::default()
        },
        join: Some(JoinNaming {
            owner: owner.model.clone().unwrap_or_default(),
            property: property_name.to_owned(),
            target,
            join_column: column_name("joinColumn"),
            inverse_column: column_name("inverseJoinColumn"),
        }),
        ..PendingTable::default()
    }
}

/// A `@Column(…)`-style column: `@Column('varchar', { length: 255 })`, `@Column({ type, name, nullable, unique })`.
fn declared_column(
    file: &ParsedFile<'_>,
    decorator: Node<'_>,
    property_name: &str,
    ts_type: Option<String>,
    primary: bool,
) -> Column {
    let args = decorator_arguments(decorator);
    let options = args.iter().find(|arg| arg.kind() == "object").copied();
    let option = |key: &str| options.and_then(|o| property(file, o, key));
    let named_type = args
        .first()
        .and_then(|first| string(file, *first))
        .or_else(|| option("type").and_then(|t| string(file, t)));
    let data_type = match (named_type, option("length")) {
        (Some(kind), Some(length)) => Some(format!("{kind}({})", file.text(length))),
        (Some(kind), None) if !matches!(kind.as_str(), "increment" | "identity" | "rowid") => Some(kind),
        // A string column with a length and no type is TypeORM's varchar.
        (None, Some(length)) if ts_type.as_deref() == Some("string") => Some(format!("varchar({})", file.text(length))),
        _ => ts_type,
    };
    let name = option("name")
        .and_then(|n| string(file, n))
        .unwrap_or_else(|| property_name.to_owned());
    Column {
        field: (name != property_name).then(|| property_name.to_owned()),
        name,
        data_type,
        nullable: Some(!primary && option_is_true(file, options.as_ref(), "nullable")),
        primary_key: primary || option_is_true(file, options.as_ref(), "primary"),
        unique: option_is_true(file, options.as_ref(), "unique"),
    }
}

fn option_is_true(file: &ParsedFile<'_>, options: Option<&Node<'_>>, key: &str) -> bool {
    options
        .and_then(|o| property(file, *o, key))
        .is_some_and(|value| file.text(value) == "true")
}

/// `@ManyToOne(() => User, …)` with `@JoinColumn({ name, referencedColumnName })`: the key column
/// (added when no `@Column` declares it) and a foreign key to `User`'s table.
fn relation(
    file: &ParsedFile<'_>,
    pending: &mut PendingTable,
    decorator: Node<'_>,
    join: Option<Node<'_>>,
    property_name: &str,
    property_columns: &mut Vec<(String, String)>,
) {
    let args = decorator_arguments(decorator);
    let Some(target) = args.first().and_then(|first| target_class(file, *first)) else {
        return;
    };
    let join_options = join.and_then(|j| decorator_arguments(j).into_iter().find(|arg| arg.kind() == "object"));
    let join_option = |key: &str| {
        join_options
            .and_then(|o| property(file, o, key))
            .and_then(|v| string(file, v))
    };
    let referenced = join_option("referencedColumnName");
    let name = join_option("name")
        .unwrap_or_else(|| camel_case(&format!("{property_name}_{}", referenced.as_deref().unwrap_or("id"))));
    let nullable = !args
        .iter()
        .any(|arg| arg.kind() == "object" && property(file, *arg, "nullable").is_some_and(|v| file.text(v) == "false"));
    property_columns.push((property_name.to_owned(), name.clone()));
    if !pending.table.columns.iter().any(|have| have.name == name) {
        let mut key_column = column(&name, None);
        key_column.field = Some(property_name.to_owned());
        key_column.nullable = Some(nullable);
        pending.table.columns.push(key_column);
    }
    pending.targets.push(PendingKey {
        at: pending.table.foreign_keys.len(),
        target: ModelRef::Class(target.clone()),
        fallback: snake_case(&target),
    });
    pending.table.foreign_keys.push(ForeignKey {
        name: None,
        columns: vec![name],
        references_table: target,
        references_columns: referenced.into_iter().collect(),
    });
}

/// `() => User`, `type => User`, `'User'`.
fn target_class(file: &ParsedFile<'_>, node: Node<'_>) -> Option<String> {
    match node.kind() {
        "arrow_function" => {
            let body = unwrap_parens(node.field("body")?);
            (body.kind() == "identifier").then(|| file.text(body).to_owned())
        }
        _ => string(file, node),
    }
}

/// Adds a column, or merges it into one a relation already added under the same name.
fn add_column(table: &mut Table, column: Column) {
    if column.primary_key {
        table.primary_key.push(column.name.clone());
    }
    match table.columns.iter_mut().find(|have| have.name == column.name) {
        Some(have) => {
            *have = Column {
                field: have.field.take().or(column.field.clone()),
                ..column
            }
        }
        None => table.columns.push(column),
    }
}
