//! Django models: `models.Model` subclasses (and subclasses of other models in the run),
//! their fields with the column each makes (`ForeignKey` → `<name>_id`, `db_column`), the
//! implicit `id`, the unique index `unique=True` (and a `OneToOneField`) makes, the join
//! table a `ManyToManyField` without `through=` makes (`<table>_<field>`), and `class Meta`
//! (`db_table`, `abstract`, `indexes`, `unique_together`).

use tree_sitter::Node;

use super::{ModelRef, PendingKey, PendingTable, column};
use crate::bridge::extract::code::modules::parent_dir;
use crate::bridge::extract::code::modules::python::PythonModule;
use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::python::{assignment, bases, body_statements, keyword, last_segment, positional};
use crate::bridge::extract::syntax::{NodeIndex, ParsedFile, named_children};
use crate::bridge::facts::{Column, ForeignKey, Index, Table};

/// Fields that hold a key to another model, and whether the key is unique.
const RELATIONS: &[(&str, bool)] = &[("ForeignKey", false), ("OneToOneField", true)];

/// The type of the `id` Django adds to a model without a primary key (`DEFAULT_AUTO_FIELD`
/// of projects made since Django 3.2).
const AUTO_ID_TYPE: &str = "BigAutoField";

/// The model keys to `settings.AUTH_USER_MODEL` or `get_user_model()` name until linking
/// knows the setting (see `django_apps`).
pub const USER_MODEL: &str = "settings.AUTH_USER_MODEL";

/// What the fields of one models file are read with: the app label its path suggests and
/// the names it binds to the user model (`User = get_user_model()`).
struct Context {
    app: String,
    user_aliases: Vec<String>,
}

/// True for the `id` column Django adds itself.
pub fn is_implicit_id(column: &Column) -> bool {
    column.name == "id"
        && column.primary_key
        && column.field.is_none()
        && column.data_type.as_deref() == Some(AUTO_ID_TYPE)
}

/// Reads the Django models of one file into `out` (linking drops classes that are no models).
/// A file whose `models` or `Model` comes from another package than Django or the project's
/// own modules (Tortoise's `from tortoise import fields, models`) holds none: its tables are named by that ORM's rules, not
/// `<app>_<model>`.
pub fn scan(file: &ParsedFile<'_>, module: &PythonModule, index: &NodeIndex<'_>, out: &mut Vec<PendingTable>) {
    let foreign = |name: &str| {
        module
            .imports
            .get(name)
            .is_some_and(|import| !import.module.starts_with("django") && !import.module.starts_with('.'))
    };
    if foreign("models") || foreign("Model") {
        return;
    }
    let user_aliases = named_children(file.root())
        .into_iter()
        .filter_map(|statement| assignment(file, statement))
        .filter(|(_, _, value)| value.is_some_and(|v| is_get_user_model(file, v)))
        .map(|(name, _, _)| name)
        .collect();
    let context = Context {
        app: app_label(file.path),
        user_aliases,
    };
    index.each(&["class_definition"], |node| {
        if node.kind() == "class_definition"
            && let Some((model, joins)) = model(file, node, &context)
        {
            out.push(model);
            out.extend(joins);
        }
    });
}

/// `get_user_model()`.
fn is_get_user_model(file: &ParsedFile<'_>, node: Node<'_>) -> bool {
    node.kind() == "call" && file.field_text(node, "function").map(last_segment) == Some("get_user_model")
}

/// The app a models file belongs to: `blog/models.py` and `blog/models/post.py` → `blog`.
fn app_label(path: &str) -> String {
    let dir = parent_dir(path);
    let dir = if dir.rsplit('/').next() == Some("models") {
        parent_dir(dir)
    } else {
        dir
    };
    dir.rsplit('/').next().unwrap_or(dir).to_owned()
}

/// A model class and the join tables of its many-to-many fields.
fn model(file: &ParsedFile<'_>, class: Node<'_>, context: &Context) -> Option<(PendingTable, Vec<PendingTable>)> {
    let app = context.app.as_str();
    let class_name = file.field_text(class, "name")?;
    let class_bases: Vec<String> = bases(file, class).into_iter().map(str::to_owned).collect();
    if class_bases.is_empty() || class_name == "Meta" {
        return None;
    }
    let mut pending = PendingTable {
        table: Table {
            name: format!("{app}_{}", class_name.to_lowercase()),
            model: Some(class_name.to_owned()),
            origin: "model".into(),
            framework: Some("django".into()),
            file: file.path.to_owned(),
            ..Table::default()
        },
        bases: class_bases,
        ..PendingTable::default()
    };
    let mut fields = 0;
    let mut meta = None;
    let mut many = Vec::new();
    for statement in body_statements(class) {
        if statement.kind() == "class_definition" && file.field_text(statement, "name") == Some("Meta") {
            meta = Some(statement);
            continue;
        }
        let Some((attribute, _, Some(value))) = assignment(file, statement) else {
            continue;
        };
        if value.kind() != "call" {
            continue;
        }
        let Some(callee) = file.field_text(value, "function") else {
            continue;
        };
        let kind = last_segment(callee);
        if kind == "ManyToManyField" {
            many.push((attribute, value));
            continue;
        }
        if !(kind.ends_with("Field") || kind == "ForeignKey") {
            continue;
        }
        fields += 1;
        field(file, &mut pending, &attribute, kind, value, context);
    }
    if let Some(meta) = meta {
        read_meta(file, &mut pending, meta);
    }
    let by_label = format!("{app}_{}", class_name.to_lowercase());
    pending.app_label = (pending.table.name == by_label).then(|| app.to_owned());
    // `class CustomUser(AbstractUser): pass` is a table of the fields Django's base gives.
    if fields == 0 && meta.is_none() && auth_parents(&pending.bases).0.is_empty() {
        return None;
    }
    // Django gives a concrete model without a primary key field an `id`; an abstract one gets none.
    if !pending.is_abstract && !pending.table.columns.iter().any(|c| c.primary_key) {
        let mut id = column("id", Some(AUTO_ID_TYPE.into()));
        id.primary_key = true;
        id.nullable = Some(false);
        pending.table.columns.insert(0, id);
        pending.table.primary_key = vec!["id".into()];
    }
    let (builtin, builtin_relations) = auth_parents(&pending.bases);
    let at = usize::from(pending.table.columns.first().is_some_and(is_implicit_id));
    let builtin: Vec<Column> = builtin
        .into_iter()
        .filter(|b| !pending.table.columns.iter().any(|c| c.name == b.name))
        .collect();
    for (offset, column) in builtin.into_iter().enumerate() {
        pending.table.columns.insert(at + offset, column);
    }
    let joins = if pending.is_abstract {
        Vec::new()
    } else {
        let declared = many
            .into_iter()
            .filter_map(|(attribute, call)| join_table(file, &pending, &attribute, call, context));
        let builtin = builtin_relations.into_iter().filter_map(|(attribute, model, table)| {
            let mut join = many_to_many(file.path, &pending, attribute, model.into(), table.into(), None)?;
            join.app_label = pending.app_label.clone();
            Some(join)
        });
        declared.chain(builtin).collect()
    };
    Some((pending, joins))
}

/// The table Django makes for `tags = models.ManyToManyField(Tag)` on `Post` (no `through=`):
/// `blog_post_tags` (or `db_table=`) with `id`, `post_id` and `tag_id` (`from_post_id` and
/// `to_post_id` when the model relates to itself), unique together.
fn join_table(
    file: &ParsedFile<'_>,
    owner: &PendingTable,
    attribute: &str,
    call: Node<'_>,
    context: &Context,
) -> Option<PendingTable> {
    if keyword(file, call, "through").is_some() {
        return None;
    }
    let target = positional(call)
        .first()
        .copied()
        .or_else(|| keyword(file, call, "to"))?;
    let (model, fallback) = target_model(file, target, owner, context)?;
    let db_table = keyword(file, call, "db_table").and_then(|t| string(file, t));
    let mut join = many_to_many(file.path, owner, attribute, model, fallback, db_table.clone())?;
    join.app_label = owner.app_label.clone().filter(|_| db_table.is_none());
    Some(join)
}

/// The join table of `owner.attribute`, a many-to-many relation to `model` (whose table is
/// `fallback` unless the run says otherwise).
fn many_to_many(
    path: &str,
    owner: &PendingTable,
    attribute: &str,
    model: String,
    fallback: String,
    db_table: Option<String>,
) -> Option<PendingTable> {
    let own = owner.table.model.clone()?;
    // A key to the user model is `user_id` until linking knows the model's name.
    let target = if model == USER_MODEL { "User" } else { model.as_str() };
    let (from, to) = if model == own {
        (
            format!("from_{}_id", own.to_lowercase()),
            format!("to_{}_id", own.to_lowercase()),
        )
    } else {
        (
            format!("{}_id", own.to_lowercase()),
            format!("{}_id", target.to_lowercase()),
        )
    };
    let name = db_table.unwrap_or_else(|| format!("{}_{attribute}", owner.table.name));
    let mut id = column("id", Some(AUTO_ID_TYPE.into()));
    id.primary_key = true;
    id.nullable = Some(false);
    let mut pending = PendingTable {
        table: Table {
            name: name.clone(),
            origin: "model".into(),
            framework: Some("django".into()),
            file: path.to_owned(),
            primary_key: vec!["id".into()],
            columns: vec![id],
            ..Table::default()
        },
        bases: vec!["models.Model".into()],
        ..PendingTable::default()
    };
    let sides = [(from, own.clone(), owner.table.name.clone()), (to, model, fallback)];
    for (column_name, class, fallback) in sides {
        let mut key = column(&column_name, Some("ForeignKey".into()));
        key.nullable = Some(false);
        pending.table.columns.push(key);
        pending.targets.push(PendingKey {
            at: pending.table.foreign_keys.len(),
            target: ModelRef::Class(class),
            fallback,
        });
        pending.table.foreign_keys.push(ForeignKey {
            name: None,
            columns: vec![column_name],
            references_table: String::new(),
            references_columns: Vec::new(),
        });
    }
    pending.indexes.push(Index {
        name: None,
        table: name,
        columns: pending.table.columns[1..].iter().map(|c| c.name.clone()).collect(),
        unique: true,
        file: path.to_owned(),
    });
    Some(pending)
}

/// The fields and many-to-many relations Django's own auth base classes give a custom user
/// model: `AbstractBaseUser` (password, last_login), `PermissionsMixin` (is_superuser,
/// groups, user_permissions) and `AbstractUser` (both, with the username, name, email and
/// staff fields). `(columns, relations as (attribute, model, table))`.
fn auth_parents(bases: &[String]) -> (Vec<Column>, Vec<(&'static str, &'static str, &'static str)>) {
    let has = |name: &str| bases.iter().any(|b| last_segment(b) == name);
    let user = has("AbstractUser");
    let mut columns = Vec::new();
    let mut relations = Vec::new();
    let field = |name: &str, kind: &str, null: bool| {
        let mut c = column(name, Some(kind.into()));
        c.nullable = Some(null);
        c
    };
    if user || has("AbstractBaseUser") {
        columns.push(field("password", "CharField(max_length=128)", false));
        columns.push(field("last_login", "DateTimeField", true));
    }
    if user || has("PermissionsMixin") {
        columns.push(field("is_superuser", "BooleanField", false));
        relations.push(("groups", "Group", "auth_group"));
        relations.push(("user_permissions", "Permission", "auth_permission"));
    }
    if user {
        let mut username = field("username", "CharField(max_length=150)", false);
        username.unique = true;
        columns.push(username);
        for (name, kind) in [
            ("first_name", "CharField(max_length=150)"),
            ("last_name", "CharField(max_length=150)"),
            ("email", "EmailField(max_length=254)"),
            ("is_staff", "BooleanField"),
            ("is_active", "BooleanField"),
            ("date_joined", "DateTimeField"),
        ] {
            columns.push(field(name, kind, false));
        }
    }
    (columns, relations)
}

fn field(
    file: &ParsedFile<'_>,
    pending: &mut PendingTable,
    attribute: &str,
    kind: &str,
    call: Node<'_>,
    context: &Context,
) {
    let flag = |key: &str| keyword(file, call, key).is_some_and(|v| file.text(v) == "True");
    let relation = RELATIONS.iter().find(|(name, _)| *name == kind);
    let default_name = if relation.is_some() {
        format!("{attribute}_id")
    } else {
        attribute.to_owned()
    };
    let name = keyword(file, call, "db_column")
        .and_then(|c| string(file, c))
        .unwrap_or(default_name);
    let data_type = match keyword(file, call, "max_length") {
        Some(length) => format!("{kind}(max_length={})", file.text(length)),
        None => kind.to_owned(),
    };
    let primary_key = flag("primary_key");
    if primary_key {
        pending.table.primary_key = vec![name.clone()];
    }
    let unique = flag("unique") || relation.is_some_and(|(_, one)| *one);
    if (flag("db_index") || unique) && !primary_key {
        pending.indexes.push(Index {
            name: None,
            table: pending.table.name.clone(),
            columns: vec![name.clone()],
            unique,
            file: file.path.to_owned(),
        });
    }
    if let Some((_, unique)) = relation {
        let target = positional(call).first().copied().or_else(|| keyword(file, call, "to"));
        if let Some((model, fallback)) = target.and_then(|t| target_model(file, t, pending, context)) {
            pending.targets.push(PendingKey {
                at: pending.table.foreign_keys.len(),
                target: ModelRef::Class(model),
                fallback,
            });
            pending.table.foreign_keys.push(ForeignKey {
                name: None,
                columns: vec![name.clone()],
                references_table: String::new(),
                references_columns: keyword(file, call, "to_field")
                    .and_then(|f| string(file, f))
                    .into_iter()
                    .collect(),
            });
        }
        pending.table.columns.push(Column {
            field: Some(attribute.to_owned()),
            name,
            data_type: Some(data_type),
            nullable: Some(flag("null")),
            primary_key,
            unique: *unique || flag("unique"),
        });
        return;
    }
    pending.table.columns.push(Column {
        field: (name != attribute).then(|| attribute.to_owned()),
        name,
        data_type: Some(data_type),
        nullable: Some(flag("null")),
        primary_key,
        unique: flag("unique"),
    });
}

/// The model a relation names and the table Django's rule gives it: `User`, `"Post"`,
/// `"blog.Post"`, `"self"`, the user model (`settings.AUTH_USER_MODEL`, `get_user_model()`
/// and names bound to it: [`USER_MODEL`] until linking reads the setting).
fn target_model(
    file: &ParsedFile<'_>,
    target: Node<'_>,
    pending: &PendingTable,
    context: &Context,
) -> Option<(String, String)> {
    let app = context.app.as_str();
    let text = match string(file, target) {
        Some(text) => text,
        None => file.text(target).to_owned(),
    };
    if text.ends_with("AUTH_USER_MODEL") || is_get_user_model(file, target) || context.user_aliases.contains(&text) {
        return Some((USER_MODEL.into(), "auth_user".into()));
    }
    if text == "self" {
        let own = pending.table.model.clone()?;
        return Some((own, pending.table.name.clone()));
    }
    let (target_app, model) = match text.rsplit_once('.') {
        Some((target_app, model)) if string(file, target).is_some() => (target_app.to_owned(), model.to_owned()),
        Some((_, model)) => (app.to_owned(), model.to_owned()),
        None => (app.to_owned(), text.clone()),
    };
    let fallback = format!("{}_{}", target_app.to_lowercase(), model.to_lowercase());
    Some((model, fallback))
}

/// `class Meta`: `db_table`, `abstract`, `app_label`, `indexes = [models.Index(fields=[…])]`, `unique_together`.
fn read_meta(file: &ParsedFile<'_>, pending: &mut PendingTable, meta: Node<'_>) {
    let mut db_table = false;
    for statement in body_statements(meta) {
        let Some((name, _, Some(value))) = assignment(file, statement) else {
            continue;
        };
        match name.as_str() {
            "db_table" => {
                if let Some(table) = string(file, value) {
                    pending.table.name = table;
                    db_table = true;
                }
            }
            // The model's app named outright: `<app_label>_<model>`.
            "app_label" if !db_table => {
                if let (Some(label), Some(model)) = (string(file, value), &pending.table.model) {
                    pending.table.name = format!("{label}_{}", model.to_lowercase());
                }
            }
            "abstract" => pending.is_abstract = file.text(value) == "True",
            "indexes" | "constraints" => {
                for entry in named_children(value).into_iter().filter(|e| e.kind() == "call") {
                    let callee = file.field_text(entry, "function").map(last_segment);
                    let unique = callee == Some("UniqueConstraint");
                    if !unique && callee != Some("Index") {
                        continue;
                    }
                    let Some(columns) = keyword(file, entry, "fields") else {
                        continue;
                    };
                    pending.indexes.push(Index {
                        name: keyword(file, entry, "name").and_then(|n| string(file, n)),
                        table: pending.table.name.clone(),
                        columns: named_children(columns)
                            .into_iter()
                            .filter_map(|c| string(file, c))
                            .collect(),
                        unique,
                        file: file.path.to_owned(),
                    });
                }
            }
            "unique_together" => {
                let groups = named_children(value);
                let nested = groups.iter().all(|group| matches!(group.kind(), "tuple" | "list"));
                let groups = if nested { groups } else { vec![value] };
                for group in groups {
                    pending.indexes.push(Index {
                        name: None,
                        table: pending.table.name.clone(),
                        columns: named_children(group)
                            .into_iter()
                            .filter_map(|c| string(file, c))
                            .collect(),
                        unique: true,
                        file: file.path.to_owned(),
                    });
                }
            }
            _ => {}
        }
    }
    // Indexes name fields; a relation's column is `<field>_id`.
    let table = pending.table.name.clone();
    for index in &mut pending.indexes {
        index.table = table.clone();
        for column in &mut index.columns {
            if let Some(found) = pending
                .table
                .columns
                .iter()
                .find(|c| c.field.as_deref() == Some(column.as_str()))
            {
                *column = found.name.clone();
            }
        }
    }
}
