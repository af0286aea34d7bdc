//! Django models: `models.Model` subclasses (and subclasses of other models in the run),
//! their fields with the column each makes (`ForeignKey` → `<name>_id`, `db_column`), the
//! implicit `id`, the unique index `unique=True` (and a `OneToOneField`) makes, the join
//! table a `ManyToManyField` without `through=` makes (`<table>_<field>`), and `class Meta`
//! (`db_table`, `abstract`, `indexes`, `unique_together`).

use super::{PendingTable, column};
use crate::bridge::extract::code::modules::parent_dir;
use crate::bridge::extract::syntax::python::last_segment;
use crate::bridge::facts::{Column, ForeignKey, Index, Table};
use crate::bridge::rules::django::{FieldCall, ModelClass, string};

/// The type of the `id` Django adds to a model without a primary key (`DEFAULT_AUTO_FIELD`
/// of projects made since Django 3.2).
const AUTO_ID_TYPE: &str = "BigAutoField";

/// The model keys to `settings.AUTH_USER_MODEL` or `get_user_model()` name until linking
/// knows the setting (see `django_apps`).
pub const USER_MODEL: &str = "settings.AUTH_USER_MODEL";

/// What the fields of one models file are read with: the app label its path suggests and
/// the names it binds to the user model (`User = get_user_model()`).
struct Context<'c> {
    app: String,
    user_aliases: &'c [String],
}

/// True for the `id` column Django adds itself.
pub fn is_implicit_id(column: &Column) -> bool {
    column.name == "id"
        && column.primary_key
        && column.field.is_none()
        && column.data_type.as_deref() == Some(AUTO_ID_TYPE)
}

/// The tables of the model classes of one file (linking drops classes that are no models).
pub fn tables(path: &str, classes: &[ModelClass], user_aliases: &[String], out: &mut Vec<PendingTable>) {
    let context = Context {
        app: app_label(path),
        user_aliases,
    };
    for class in classes {
        if let Some((model, joins)) = model(path, class, &context) {
            out.push(model);
            out.extend(joins);
        }
    }
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
fn model(path: &str, class: &ModelClass, context: &Context<'_>) -> Option<(PendingTable, Vec<PendingTable>)> {
    let app = context.app.as_str();
    let by_label = format!("{app}_{}", class.name.to_lowercase());
    let mut pending = PendingTable {
        table: Table {
            name: by_label.clone(),
            model: Some(class.name.clone()),
            origin: "model".into(),
            framework: Some("django".into()),
            file: path.to_owned(),
            ..Table::default()
        },
        bases: class.bases.clone(),
        ..PendingTable::default()
    };
    let mut fields = 0;
    let mut many = Vec::new();
    for call in class.fields.values() {
        if call.kind == "ManyToManyField" {
            many.push(call);
            continue;
        }
        fields += 1;
        field(path, &mut pending, call, context);
    }
    if class.meta.is_some() {
        read_meta(path, &mut pending, class);
    }
    pending.app_label = (pending.table.name == by_label).then(|| app.to_owned());
    let (builtin, builtin_relations) = auth_parents(&pending.bases);
    // `class CustomUser(AbstractUser): pass` is a table of the fields Django's base gives.
    if fields == 0 && class.meta.is_none() && builtin.is_empty() {
        return None;
    }
    // Django gives a concrete model without a primary key field an `id`; an abstract one gets none.
    if !pending.is_abstract && !pending.table.columns.iter().any(|c| c.primary_key) {
        pending.table.columns.insert(0, auto_id());
        pending.table.primary_key = vec!["id".into()];
    }
    let at = usize::from(pending.table.columns.first().is_some_and(is_implicit_id));
    let builtin: Vec<Column> = builtin
        .into_iter()
        .filter(|b| !pending.table.columns.iter().any(|c| c.name == b.name))
        .collect();
    pending.table.columns.splice(at..at, builtin);
    let joins = if pending.is_abstract {
        Vec::new()
    } else {
        let declared = many
            .into_iter()
            .filter_map(|call| join_table(path, &pending, call, context));
        let builtin = builtin_relations.into_iter().filter_map(|(attribute, model, table)| {
            let mut join = many_to_many(path, &pending, attribute, model.into(), table.into(), None)?;
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
fn join_table(path: &str, owner: &PendingTable, call: &FieldCall, context: &Context<'_>) -> Option<PendingTable> {
    if call.keyword("through").is_some() {
        return None;
    }
    let target = call.target.as_deref().or(call.keyword("to"))?;
    let (model, fallback) = target_model(target, owner, context)?;
    let db_table = call.keyword("db_table").and_then(string);
    let mut join = many_to_many(path, owner, &call.attribute, model, fallback, db_table.clone())?;
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
    let mut pending = PendingTable {
        table: Table {
            name: name.clone(),
            origin: "model".into(),
            framework: Some("django".into()),
            file: path.to_owned(),
            primary_key: vec!["id".into()],
            columns: vec![auto_id()],
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
        key_to(&mut pending, column_name, class, fallback, Vec::new());
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

/// The `id` Django gives a model (or a join table) without a primary key field.
fn auto_id() -> Column {
    let mut id = column("id", Some(AUTO_ID_TYPE.into()));
    id.primary_key = true;
    id.nullable = Some(false);
    id
}

/// A foreign key on `column` to the model `class` (whose table is `fallback` unless the run
/// says otherwise), resolved at linking.
fn key_to(pending: &mut PendingTable, column: String, class: String, fallback: String, references: Vec<String>) {
    pending.fallbacks.push(fallback);
    pending.table.foreign_keys.push(ForeignKey {
        name: None,
        columns: vec![column],
        references_table: class,
        references_columns: references,
    });
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

fn field(path: &str, pending: &mut PendingTable, call: &FieldCall, context: &Context<'_>) {
    let (attribute, kind) = (call.attribute.as_str(), call.kind.as_str());
    let flag = |key: &str| call.keyword(key) == Some("True");
    // Fields that hold a key to another model (a `OneToOneField`'s is unique).
    let relation = matches!(kind, "ForeignKey" | "OneToOneField");
    let default_name = if relation {
        format!("{attribute}_id")
    } else {
        attribute.to_owned()
    };
    let name = call.keyword("db_column").and_then(string).unwrap_or(default_name);
    let data_type = match call.keyword("max_length") {
        Some(length) => format!("{kind}(max_length={length})"),
        None => kind.to_owned(),
    };
    let primary_key = flag("primary_key");
    if primary_key {
        pending.table.primary_key = vec![name.clone()];
    }
    let unique = flag("unique") || kind == "OneToOneField";
    if (flag("db_index") || unique) && !primary_key {
        pending.indexes.push(Index {
            name: None,
            table: pending.table.name.clone(),
            columns: vec![name.clone()],
            unique,
            file: path.to_owned(),
        });
    }
    if relation {
        let target = call.target.as_deref().or(call.keyword("to"));
        if let Some((model, fallback)) = target.and_then(|t| target_model(t, pending, context)) {
            let to_field = call.keyword("to_field").and_then(string).into_iter().collect();
            key_to(pending, name.clone(), model, fallback, to_field);
        }
    }
    pending.table.columns.push(Column {
        field: (relation || name != attribute).then(|| attribute.to_owned()),
        name,
        data_type: Some(data_type),
        nullable: Some(flag("null")),
        primary_key,
        unique,
    });
}

/// The model a relation names and the table Django's rule gives it: `User`, `"Post"`,
/// `"blog.Post"`, `"self"`, the user model (`settings.AUTH_USER_MODEL`, `get_user_model()`
/// and names bound to it: [`USER_MODEL`] until linking reads the setting).
fn target_model(target: &str, pending: &PendingTable, context: &Context<'_>) -> Option<(String, String)> {
    let app = context.app.as_str();
    let quoted = string(target);
    let text = quoted.clone().unwrap_or_else(|| target.to_owned());
    if text.ends_with("AUTH_USER_MODEL") || text.ends_with("get_user_model()") || context.user_aliases.contains(&text) {
        return Some((USER_MODEL.into(), "auth_user".into()));
    }
    if text == "self" {
        let own = pending.table.model.clone()?;
        return Some((own, pending.table.name.clone()));
    }
    let (target_app, model) = match text.rsplit_once('.') {
        Some((target_app, model)) if quoted.is_some() => (target_app.to_owned(), model.to_owned()),
        Some((_, model)) => (app.to_owned(), model.to_owned()),
        None => (app.to_owned(), text.clone()),
    };
    let fallback = format!("{}_{}", target_app.to_lowercase(), model.to_lowercase());
    Some((model, fallback))
}

/// `class Meta`: `db_table`, `abstract`, `app_label`, `indexes = [models.Index(fields=[…])]`, `unique_together`.
fn read_meta(path: &str, pending: &mut PendingTable, class: &ModelClass) {
    let mut db_table = false;
    for (name, value) in class.meta.iter().flatten() {
        match name.as_str() {
            "db_table" => {
                if let Some(table) = string(value) {
                    pending.table.name = table;
                    db_table = true;
                }
            }
            // The model's app named outright: `<app_label>_<model>`.
            "app_label" if !db_table => {
                if let (Some(label), Some(model)) = (string(value), &pending.table.model) {
                    pending.table.name = format!("{label}_{}", model.to_lowercase());
                }
            }
            "abstract" => pending.is_abstract = value == "True",
            _ => {}
        }
    }
    for (unique, name, columns) in class.indexes.values() {
        pending.indexes.push(Index {
            name: name.clone(),
            table: pending.table.name.clone(),
            columns: columns.clone(),
            unique: *unique,
            file: path.to_owned(),
        });
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
