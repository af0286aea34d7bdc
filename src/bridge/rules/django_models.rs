//! Django's models across files, from `django/models.scm`'s tables: the classes whose bases
//! lead to `models.Model` (through the run's models) are tables named `<app>_<model>` (the
//! app's label from its `AppConfig`, the nearest above the file: `label`, else `name`'s last
//! part; else `Meta.app_label`, else the folder), abstract ones lend their columns
//! (`inherit.rs`); a relation names a model (`User`, `"blog.Post"`, `"self"`, the user model
//! `AUTH_USER_MODEL` names, Django's `auth.User` without one) whose table its key points at;
//! Django's auth base classes give a custom user model their fields; a `ManyToManyField`
//! without `through=` makes `<table>_<field>` with `id` and a key to each side; a concrete
//! model without a primary key gets the `id` Django adds.

use std::collections::{BTreeMap, HashMap};

use super::columns;
use super::hits::{Capture, Hit};
use super::join_naming::ManyToMany;
use super::text::literal;
use crate::bridge::code_model::lineage::ancestry;
use crate::bridge::code_model::modules::parent_dir;
use crate::bridge::code_model::syntax::python::last_segment;
use crate::bridge::facts::{Column, Index, Table};

/// The type of the `id` Django adds to a model without a primary key (`DEFAULT_AUTO_FIELD`
/// of projects made since Django 3.2).
const AUTO_ID_TYPE: &str = "BigAutoField";

/// Bases that make a class a Django model.
const MODEL_ROOTS: &[&str] = &["models.Model", "Model", "AbstractUser", "AbstractBaseUser"];

/// How many parents deep Django model inheritance is followed.
const MAX_INHERITANCE: usize = 8;

/// What the run's files say of Django's models besides their tables.
#[derive(Default)]
pub struct Notes {
    /// `AppConfig`s: the folder of the module and the app's label.
    apps: Vec<(String, String)>,
    /// `AUTH_USER_MODEL`, as written (`users.User`).
    user_model: Option<String>,
    /// `(file, name)`: a name a file binds to the user model (`User = get_user_model()`).
    user_aliases: Vec<(String, String)>,
    /// Files importing another ORM's `models` (Tortoise's): their classes are no Django models.
    foreign: Vec<String>,
    classes: Vec<Class>,
}

/// A class of a models module, as its hits describe it.
#[derive(Default)]
struct Class {
    file: String,
    name: String,
    bases: Vec<String>,
    meta: bool,
    is_abstract: bool,
    app_label: Option<String>,
}

/// A file's `AppConfig`s by their place: `(name, label)`.
type Apps = BTreeMap<(usize, usize), (Option<String>, Option<String>)>;

fn django(table: &Table) -> bool {
    table.framework.as_deref() == Some("django")
}

impl Notes {
    /// The notes of one file's hits.
    pub fn of(path: &str, hits: &[Hit<'_>]) -> Notes {
        let mut notes = Notes::default();
        let mut apps = Apps::new();
        let mut classes: BTreeMap<&str, Class> = BTreeMap::new();
        let key = |capture: &Capture<'_>| (capture.range.start, capture.range.end);
        for hit in hits.iter().filter(|hit| hit.framework() == "django") {
            let text = |name: &str| hit.text(name).map(literal);
            if let Some(alias) = text("model.user_alias") {
                notes.user_aliases.push((path.to_owned(), alias));
            }
            notes.user_model = notes.user_model.take().or(text("model.user_model"));
            if hit.get("model.foreign").is_some() && !notes.foreign.iter().any(|file| file == path) {
                notes.foreign.push(path.to_owned());
            }
            if let Some(app) = hit.get("model.app") {
                let (name, label) = apps.entry(key(app)).or_default();
                match hit.text("model.app_key") {
                    Some("name") => *name = text("model.app_value"),
                    Some("label") => *label = text("model.app_value"),
                    _ => {}
                }
            }
            let Some(model) = hit.text("table.model") else { continue };
            let class = classes.entry(model).or_insert_with(|| Class {
                file: path.to_owned(),
                name: model.to_owned(),
                ..Class::default()
            });
            if let Some(base) = text("model.base").filter(|base| !class.bases.contains(base)) {
                class.bases.push(base);
            }
            class.meta |= hit.get("model.meta").is_some();
            class.is_abstract |= hit.text("model.abstract") == Some("True");
            class.app_label = class.app_label.take().or(text("model.app_label"));
        }
        notes.classes = classes.into_values().collect();
        let dir = parent_dir(path);
        notes.apps = apps
            .into_values()
            .filter_map(|(name, label)| {
                let label = label
                    .or_else(|| name.map(|name| last_segment(&name).to_owned()))
                    .or_else(|| dir.rsplit('/').next().map(str::to_owned))
                    .filter(|label| !label.is_empty())?;
                Some((dir.to_owned(), label))
            })
            .collect();
        notes
    }

    pub fn append(&mut self, mut other: Notes) {
        self.apps.append(&mut other.apps);
        self.user_model = self.user_model.take().or(other.user_model);
        self.user_aliases.append(&mut other.user_aliases);
        self.foreign.append(&mut other.foreign);
        self.classes.append(&mut other.classes);
    }

    /// The label of the app whose package holds `path`: the `AppConfig` of the nearest folder
    /// above it.
    fn label_of(&self, path: &str) -> Option<&str> {
        self.apps
            .iter()
            .filter(|(dir, _)| dir.is_empty() || path.starts_with(&format!("{dir}/")))
            .max_by_key(|(dir, _)| dir.len())
            .map(|(_, label)| label.as_str())
    }

    /// True if a file's hits name the Django class `name`.
    pub fn has_class(&self, name: &str) -> bool {
        self.classes.iter().any(|class| class.name == name)
    }

    fn class(&self, table: &Table) -> Option<&Class> {
        let model = table.model.as_deref()?;
        self.classes
            .iter()
            .find(|class| class.name == model && class.file == table.file)
    }

    /// The run's Django tables made what Django makes of them, before the abstract models
    /// lend their columns: classes that are no models dropped, tables named, keys pointed at
    /// the tables of the models they name, the auth base classes' columns and the join tables
    /// of `many` added.
    pub fn link(&self, tables: &mut Vec<Table>, indexes: &mut Vec<Index>, many: Vec<ManyToMany>) {
        self.drop_non_models(tables, indexes);
        let mut joins = Vec::new();
        for table in tables.iter_mut().filter(|table| django(table)) {
            let Some(class) = self.class(table) else { continue };
            let model = class.name.to_lowercase();
            if table.name == class.name {
                let guess = app_of(&table.file);
                let label = class.app_label.clone().filter(|label| *label != guess);
                let label = label
                    .or_else(|| self.label_of(&table.file).map(str::to_owned))
                    .unwrap_or(guess);
                let name = format!("{label}_{model}");
                for index in indexes
                    .iter_mut()
                    .filter(|i| i.table == table.name && i.file == table.file)
                {
                    index.table = name.clone();
                }
                table.name = name;
            }
            if class.is_abstract {
                table.origin = "mapped-superclass".into();
            }
            let builtin: Vec<Column> = auth_columns(&class.bases)
                .filter(|b| !table.columns.iter().any(|c| c.name == b.name))
                .collect();
            table.columns.splice(0..0, builtin);
            if !class.is_abstract && has_base(&class.bases, PERMISSIONS) {
                joins.extend(AUTH_RELATIONS.iter().map(|(attribute, other)| ManyToMany {
                    owner: class.name.clone(),
                    property: (*attribute).to_owned(),
                    other: (*other).to_owned(),
                    file: table.file.clone(),
                    ..ManyToMany::default()
                }));
            }
        }
        let declared = many.into_iter().filter(|join| {
            let owner = tables
                .iter()
                .find(|t| t.model.as_deref() == Some(&join.owner) && t.file == join.file);
            owner
                .and_then(|table| self.class(table))
                .is_some_and(|class| !class.is_abstract)
        });
        let joins: Vec<ManyToMany> = declared.chain(joins).collect();
        let names: HashMap<String, String> = tables
            .iter()
            .filter(|table| django(table))
            .filter_map(|table| Some((table.model.clone()?, table.name.clone())))
            .rev()
            .collect();
        for table in tables.iter_mut().filter(|table| django(table)) {
            let owner = (table.model.clone().unwrap_or_default(), table.name.clone());
            for key in &mut table.foreign_keys {
                key.references_table = self.target(&key.references_table, &owner, &table.file, &names).1;
            }
        }
        // Each owner's join tables right after it: the last written first, so that they end
        // in the order written.
        for join in joins.into_iter().rev() {
            self.join_table(tables, indexes, join, &names);
        }
    }

    /// Drops the classes that are no models: those saying nothing (no field, no Meta, no auth
    /// base), another ORM's, and those whose bases lead to no `models.Model` through the others.
    fn drop_non_models(&self, tables: &mut Vec<Table>, indexes: &mut Vec<Index>) {
        let says_something = |table: &Table| {
            self.class(table).is_some_and(|class| {
                let said = !table.columns.is_empty() || class.meta || auth_columns(&class.bases).next().is_some();
                said && !self.foreign.contains(&table.file)
            })
        };
        let bases: HashMap<&str, &[String]> = tables
            .iter()
            .filter(|table| django(table) && says_something(table))
            .filter_map(|table| Some((table.model.as_deref()?, self.class(table)?.bases.as_slice())))
            .collect();
        let keep: Vec<bool> = tables
            .iter()
            .map(|table| {
                let model = || table.model.as_deref().is_some_and(|model| is_model(model, &bases));
                !django(table) || (says_something(table) && model())
            })
            .collect();
        let mut keep = keep.into_iter();
        let (kept, dropped): (Vec<Table>, Vec<Table>) = std::mem::take(tables)
            .into_iter()
            .partition(|_| keep.next().unwrap_or(true));
        *tables = kept;
        indexes.retain(|index| !dropped.iter().any(|t| t.name == index.table && t.file == index.file));
    }

    /// The model a relation names as written (`User`, `"blog.Post"`, `"self"`, the user model)
    /// and its table: the run's, else the one Django's rule gives it.
    fn target(
        &self,
        written: &str,
        owner: &(String, String),
        file: &str,
        names: &HashMap<String, String>,
    ) -> (String, String) {
        let aliased = self
            .user_aliases
            .iter()
            .any(|(at, alias)| at == file && alias == written);
        if written.ends_with("AUTH_USER_MODEL") || written.ends_with("get_user_model()") || aliased {
            let (class, table) = match self.user_model.as_deref().and_then(|m| m.split_once('.')) {
                Some((label, model)) => (model.to_owned(), format!("{label}_{model}").to_lowercase()),
                None => ("User".to_owned(), "auth_user".to_owned()),
            };
            let table = names.get(&class).cloned().unwrap_or(table);
            return (class, table);
        }
        if written == "self" {
            return owner.clone();
        }
        let (app, model) = match written.rsplit_once('.') {
            Some((app, model)) => (app.to_owned(), model),
            None => (app_of(file), written),
        };
        let fallback = format!("{}_{}", app.to_lowercase(), model.to_lowercase());
        (model.to_owned(), names.get(model).cloned().unwrap_or(fallback))
    }

    /// Adds the join table of a many-to-many relation right after its owner's table (and its
    /// index before those of the file's tables after it): `blog_post_tags` (or
    /// `db_table=`) with `id`, `post_id` and `tag_id` (`from_post_id` and `to_post_id` when
    /// the model relates to itself), unique together.
    fn join_table(
        &self,
        tables: &mut Vec<Table>,
        indexes: &mut Vec<Index>,
        join: ManyToMany,
        names: &HashMap<String, String>,
    ) {
        let Some(at) = tables
            .iter()
            .position(|t| t.model.as_deref() == Some(&join.owner) && t.file == join.file)
        else {
            return;
        };
        let owner = (join.owner.clone(), tables[at].name.clone());
        let (other, other_table) = self.target(&join.other, &owner, &join.file, names);
        let own = owner.0.to_lowercase();
        let (from, to) = match other == owner.0 {
            true => (format!("from_{own}_id"), format!("to_{own}_id")),
            false => (format!("{own}_id"), format!("{}_id", other.to_lowercase())),
        };
        let name = join.table.unwrap_or_else(|| format!("{}_{}", owner.1, join.property));
        let mut table = Table {
            name: name.clone(),
            origin: "model".into(),
            framework: Some("django".into()),
            file: join.file.clone(),
            primary_key: vec!["id".into()],
            columns: vec![auto_id()],
            ..Table::default()
        };
        for (column, references) in [(from, owner.1), (to, other_table)] {
            let key = Column {
                name: column.clone(),
                data_type: Some("ForeignKey".into()),
                nullable: Some(false),
                ..Column::default()
            };
            table.columns.push(key);
            table.foreign_keys.push(columns::key(column, references, Vec::new()));
        }
        let index = Index {
            name: None,
            table: name,
            columns: table.columns[1..].iter().map(|c| c.name.clone()).collect(),
            unique: true,
            file: join.file.clone(),
        };
        let at = at + 1;
        tables.insert(at, table);
        // Before the indexes of the file's tables after it.
        let later: Vec<&str> = tables[at + 1..]
            .iter()
            .filter(|t| t.file == join.file)
            .map(|t| t.name.as_str())
            .collect();
        let place = indexes
            .iter()
            .position(|i| i.file == join.file && later.contains(&i.table.as_str()))
            .or_else(|| indexes.iter().rposition(|i| i.file == join.file).map(|p| p + 1))
            .unwrap_or(indexes.len());
        indexes.insert(place, index);
    }
}

/// Gives each concrete Django model without a primary key (its own or an abstract parent's)
/// the `id` Django adds.
pub fn add_ids(tables: &mut [Table]) {
    let keyless = tables.iter_mut().filter(|t| django(t) && t.primary_key.is_empty());
    for table in keyless {
        table.columns.insert(0, auto_id());
        table.primary_key = vec!["id".into()];
    }
}

/// True if `model`'s bases lead to `models.Model` through the run's models.
fn is_model(model: &str, bases: &HashMap<&str, &[String]>) -> bool {
    let written = |class: &&str| bases.get(class).copied().unwrap_or_default();
    let lineage = ancestry(model, MAX_INHERITANCE, |class| {
        let local = written(class).iter().map(|base| last_segment(base));
        local.filter(|base| bases.contains_key(base)).collect()
    });
    let mut all = lineage.iter().flat_map(written);
    all.any(|base| MODEL_ROOTS.contains(&base.as_str()) || base.ends_with(".AbstractUser"))
}

/// The app a models file belongs to by its place: `blog/models.py` and `blog/models/post.py` → `blog`.
fn app_of(path: &str) -> String {
    let dir = parent_dir(path);
    let dir = if dir.rsplit('/').next() == Some("models") {
        parent_dir(dir)
    } else {
        dir
    };
    dir.rsplit('/').next().unwrap_or(dir).to_owned()
}

/// The `id` Django gives a model (or a join table) without a primary key field.
fn auto_id() -> Column {
    Column {
        name: "id".into(),
        data_type: Some(AUTO_ID_TYPE.into()),
        nullable: Some(false),
        primary_key: true,
        ..Column::default()
    }
}

/// The auth base classes giving a custom user model the columns they have.
const BASE_USER: &[&str] = &["AbstractUser", "AbstractBaseUser"];
const PERMISSIONS: &[&str] = &["AbstractUser", "PermissionsMixin"];
const USER: &[&str] = &["AbstractUser"];

/// The columns Django's own auth base classes give a custom user model: `AbstractBaseUser`
/// (password, last_login), `PermissionsMixin` (is_superuser) and `AbstractUser` (both, with
/// the username, name, email and staff fields): (bases, name, type, nullable).
const AUTH_COLUMNS: &[(&[&str], &str, &str, bool)] = &[
    (BASE_USER, "password", "CharField(max_length=128)", false),
    (BASE_USER, "last_login", "DateTimeField", true),
    (PERMISSIONS, "is_superuser", "BooleanField", false),
    (USER, "username", "CharField(max_length=150)", false),
    (USER, "first_name", "CharField(max_length=150)", false),
    (USER, "last_name", "CharField(max_length=150)", false),
    (USER, "email", "EmailField(max_length=254)", false),
    (USER, "is_staff", "BooleanField", false),
    (USER, "is_active", "BooleanField", false),
    (USER, "date_joined", "DateTimeField", false),
];

/// The many-to-many relations `PermissionsMixin` gives (field, model).
const AUTH_RELATIONS: &[(&str, &str)] = &[("groups", "auth.Group"), ("user_permissions", "auth.Permission")];

fn has_base(bases: &[String], any_of: &[&str]) -> bool {
    bases.iter().any(|base| any_of.contains(&last_segment(base)))
}

/// The columns the auth base classes among `bases` give (the username is unique).
fn auth_columns(bases: &[String]) -> impl Iterator<Item = Column> + '_ {
    let given = AUTH_COLUMNS.iter().filter(|(by, ..)| has_base(bases, by));
    given.map(|(_, name, kind, null)| Column {
        name: (*name).to_owned(),
        data_type: Some((*kind).to_owned()),
        nullable: Some(*null),
        unique: *name == "username",
        ..Column::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notes() -> Notes {
        Notes {
            apps: vec![
                ("project/boards".into(), "kanban".into()),
                ("project/boards_extra".into(), "extra".into()),
            ],
            user_model: Some("accounts.Member".into()),
            ..Notes::default()
        }
    }

    #[test]
    fn the_nearest_app_config_above_a_file_gives_its_label() {
        let notes = notes();
        assert_eq!(notes.label_of("project/boards/models/card.py"), Some("kanban"));
        assert_eq!(notes.label_of("project/boards/archive/models.py"), Some("kanban"));
        assert_eq!(notes.label_of("project/boards_extra/models.py"), Some("extra"));
        assert_eq!(notes.label_of("project/other/models.py"), None);
    }

    #[test]
    fn a_table_named_by_its_model_takes_the_label_and_its_indexes_follow() {
        let file = "project/boards/models/card.py";
        let mut notes = notes();
        notes.classes.push(Class {
            file: file.into(),
            name: "Card".into(),
            bases: vec!["models.Model".into()],
            ..Class::default()
        });
        let mut tables = vec![Table {
            name: "Card".into(),
            model: Some("Card".into()),
            framework: Some("django".into()),
            file: file.into(),
            columns: vec![Column {
                name: "title".into(),
                ..Column::default()
            }],
            ..Table::default()
        }];
        let mut indexes = vec![Index {
            name: None,
            table: "Card".into(),
            columns: vec!["title".into()],
            unique: false,
            file: file.into(),
        }];
        notes.link(&mut tables, &mut indexes, Vec::new());
        assert_eq!(tables[0].name, "kanban_card");
        assert_eq!(indexes[0].table, "kanban_card");
    }
}
