//! Filling route paths and prefixes written with a constant of another file
//! (`prefix=settings.API_V1_STR`, `app.use(config.apiPrefix, api)`) from the constants that
//! file offers, through the importing file's imports.

use super::{Linker, MAX_INLINE_DEPTH, Module};
use crate::bridge::code_model::routes::graph::{Item, Target, Unit};
use crate::bridge::extract::syntax::literal::{fill_placeholders, placeholders};

impl Linker<'_> {
    /// Fills the placeholders of a unit's prefix and items, written in file `from`.
    pub(super) fn fill_unit(&self, from: usize, unit: &mut Unit) {
        unit.prefix = self.fill(from, &unit.prefix).0;
        self.fill_items(from, &mut unit.items, 0);
    }

    /// Fills the placeholders of route paths and mount prefixes written in file `from`; a
    /// tentative prefix that names no constant was no prefix (`app.use(auth, router)`).
    pub(super) fn fill_items(&self, from: usize, items: &mut [Item], depth: usize) {
        for item in items {
            match item {
                Item::Route(route) => route.path = self.fill(from, &route.path).0,
                Item::Mount(mount) => {
                    let (prefix, resolved) = self.fill(from, &mount.prefix);
                    mount.prefix = if mount.tentative && !resolved {
                        String::new()
                    } else {
                        prefix
                    };
                    if let Target::Inline(inner) = &mut mount.target
                        && depth < MAX_INLINE_DEPTH
                    {
                        self.fill_items(from, inner, depth + 1);
                    }
                }
                Item::Guard(_) | Item::UnitGuard(_) => {}
            }
        }
    }

    /// `path` with its placeholders filled from the constants `from` sees; whether all were.
    fn fill(&self, from: usize, path: &str) -> (String, bool) {
        let python = matches!(self.files[from].module, Module::Python(_));
        let lookup = |expr: &str| {
            self.constant(from, expr)
                .or_else(|| python.then(|| self.settings_attribute(expr)).flatten())
        };
        let resolved = placeholders(path).all(|expr| lookup(expr).is_some());
        let filled = fill_placeholders(path, &self.files[from].path, lookup);
        (filled, resolved)
    }

    /// The value of a constant named `expr` in file `from`: its own, or one it imports
    /// (`settings.API_V1_STR` from `from app.core.config import settings`).
    fn constant(&self, from: usize, expr: &str) -> Option<String> {
        if let Some(value) = self.files[from].constants.get(expr) {
            return Some(value.clone());
        }
        let (at, key) = self.lead(from, expr)?;
        self.files[at].constants.get(&key).cloned()
    }

    /// `settings.api_prefix` where `settings` is no module-level name (`settings =
    /// get_app_settings()` in a function): the one value the run's classes give an attribute of
    /// that name (`AppSettings.api_prefix = "/api"`), if they agree.
    pub(super) fn settings_attribute(&self, expr: &str) -> Option<String> {
        let (_, attribute) = expr.rsplit_once('.')?;
        let mut found: Option<&String> = None;
        for file in self.files.iter().filter(|f| matches!(f.module, Module::Python(_))) {
            for (key, value) in file.constants.iter() {
                let Some((owner, name)) = key.split_once('.') else {
                    continue;
                };
                if name != attribute || !owner.starts_with(char::is_uppercase) {
                    continue;
                }
                match found {
                    Some(have) if have != value => return None,
                    _ => found = Some(value),
                }
            }
        }
        found.cloned()
    }
}
