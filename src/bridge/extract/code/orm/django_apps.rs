//! Django's app registry as the models' tables see it: an app's label from its `AppConfig`
//! (`label`, else the last part of `name`) names the tables of the models anywhere in the
//! app's package (`project/users/models/user.py`, a subpackage's `models.py`), and
//! `AUTH_USER_MODEL = "users.User"` in the settings (split or not) says which model keys to
//! `settings.AUTH_USER_MODEL` and `get_user_model()` point at.

use super::PendingTable;
use super::django::USER_MODEL;

/// What the run's files say of Django's apps.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// Apps by the folder of the module that configures them.
    pub apps: Vec<App>,
    /// `AUTH_USER_MODEL`, as written (`users.User`).
    pub user_model: Option<String>,
}

/// An `AppConfig` subclass: the folder of its module and the app's label.
#[derive(Debug, Clone, PartialEq)]
pub struct App {
    pub dir: String,
    pub label: String,
}

impl Registry {
    /// The registries of every file as one.
    pub fn merge<'r>(all: impl IntoIterator<Item = &'r Registry>) -> Registry {
        let mut out = Registry::default();
        for registry in all {
            out.apps.extend(registry.apps.iter().cloned());
            out.user_model = out.user_model.take().or_else(|| registry.user_model.clone());
        }
        out
    }

    /// The label of the app whose package holds `path`: the `AppConfig` of the nearest folder
    /// above it.
    fn label_of(&self, path: &str) -> Option<&str> {
        self.apps
            .iter()
            .filter(|app| app.dir.is_empty() || path.starts_with(&format!("{}/", app.dir)))
            .max_by_key(|app| app.dir.len())
            .map(|app| app.label.as_str())
    }

    /// Names Django tables by their app's label and points keys to the user model at the one
    /// `AUTH_USER_MODEL` names (Django's own `auth.User` when no setting says otherwise).
    pub fn apply(&self, pending: &mut [PendingTable]) {
        let (user_class, user_table) = match self.user_model.as_deref().and_then(|m| m.split_once('.')) {
            Some((label, model)) => (model.to_owned(), format!("{}_{}", label, model).to_lowercase()),
            None => ("User".to_owned(), "auth_user".to_owned()),
        };
        for item in pending.iter_mut() {
            if let Some(guess) = item.app_label.take()
                && let Some(label) = self.label_of(&item.table.file)
                && label != guess
            {
                relabel(item, &guess, label);
            }
            point_at_user_model(item, &user_class, &user_table);
        }
    }
}

/// `guess_post` → `label_post`, the table's indexes with it.
fn relabel(item: &mut PendingTable, guess: &str, label: &str) {
    let Some(rest) = item.table.name.strip_prefix(guess).filter(|rest| rest.starts_with('_')) else {
        return;
    };
    let renamed = format!("{label}{rest}");
    for index in item.indexes.iter_mut().filter(|index| index.table == item.table.name) {
        index.table = renamed.clone();
    }
    item.table.name = renamed;
}

/// Keys to `settings.AUTH_USER_MODEL` aimed at `class` (table `table` when the run does not
/// define it); a join table's column is named after the model (`user_id` → `member_id`).
fn point_at_user_model(item: &mut PendingTable, class: &str, table: &str) {
    let join = item.table.model.is_none();
    let keys = item.table.foreign_keys.iter_mut().zip(&mut item.fallbacks);
    for (foreign, fallback) in keys.filter(|(foreign, _)| foreign.references_table == USER_MODEL) {
        foreign.references_table = class.to_owned();
        *fallback = table.to_owned();
        let column = format!("{}_id", class.to_lowercase());
        let Some(old) = foreign.columns.first().cloned().filter(|old| join && *old != column) else {
            continue;
        };
        foreign.columns = vec![column.clone()];
        for have in item.table.columns.iter_mut().filter(|c| c.name == old) {
            have.name = column.clone();
        }
        for name in item
            .indexes
            .iter_mut()
            .flat_map(|i| i.columns.iter_mut())
            .filter(|c| **c == old)
        {
            *name = column.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::facts::{Index, Table};

    fn registry() -> Registry {
        Registry {
            apps: vec![
                App {
                    dir: "project/boards".into(),
                    label: "kanban".into(),
                },
                App {
                    dir: "project/boards_extra".into(),
                    label: "extra".into(),
                },
            ],
            user_model: Some("accounts.Member".into()),
        }
    }

    #[test]
    fn the_nearest_app_config_above_a_file_gives_its_label() {
        let registry = registry();
        assert_eq!(registry.label_of("project/boards/models/card.py"), Some("kanban"));
        assert_eq!(registry.label_of("project/boards/archive/models.py"), Some("kanban"));
        assert_eq!(registry.label_of("project/boards_extra/models.py"), Some("extra"));
        assert_eq!(registry.label_of("project/other/models.py"), None);
    }

    #[test]
    fn a_table_named_by_its_path_takes_the_label_and_its_indexes_follow() {
        let mut pending = vec![PendingTable {
            table: Table {
                name: "models_card".into(),
                file: "project/boards/models/card.py".into(),
                ..Table::default()
            },
            indexes: vec![Index {
                name: None,
                table: "models_card".into(),
                columns: vec!["title".into()],
                unique: false,
                file: String::new(),
            }],
            app_label: Some("models".into()),
            ..PendingTable::default()
        }];
        registry().apply(&mut pending);
        assert_eq!(pending[0].table.name, "kanban_card");
        assert_eq!(pending[0].indexes[0].table, "kanban_card");
    }
}
