//! Expanding an `@fastify/autoload` registration when linking: a mount of each plugin file
//! under the folder (see `node::autoload`), with its folders' names or its own `autoPrefix` as
//! prefix and the hooks of the `autohooks` files above it as guards.

use std::collections::HashMap;

use super::Linker;
use crate::bridge::code_model::routes::graph::{Autoload, Item, Mount, Target, Unit, UnitKey};
use crate::bridge::extract::code::modules::script_resolve::resolve_export;
use crate::bridge::extract::code::modules::{join_relative, parent_dir};
use crate::bridge::extract::syntax::Grammar;

/// The hooks each folder's `autohooks` file puts on its plugins, by folder.
pub type Autohooks = HashMap<String, Vec<String>>;

impl Linker<'_> {
    /// The guards of every `autohooks` file's plugin, by the folder it is in.
    pub(super) fn autohooks(&self, units: &[Unit], at: &HashMap<UnitKey, usize>) -> Autohooks {
        let mut out = Autohooks::new();
        for (file_at, file) in self.files.iter().enumerate() {
            let (folder, name) = file.path.rsplit_once('/').unwrap_or(("", &file.path));
            if name.split('.').next() != Some("autohooks") {
                continue;
            }
            let Some(unit) = self.default_unit(file_at, at).map(|slot| &units[slot]) else {
                continue;
            };
            let mut guards = unit.guards.clone();
            guards.extend(unit.items.iter().filter_map(|item| match item {
                Item::Guard(name) | Item::UnitGuard(name) => Some(name.clone()),
                _ => None,
            }));
            out.insert(folder.to_owned(), guards);
        }
        out
    }

    /// The unit a script file exports as default (its plugin function).
    fn default_unit(&self, file: usize, at: &HashMap<UnitKey, usize>) -> Option<usize> {
        let modules = |at: usize| self.script_module(at);
        let (found, local) = resolve_export(&self.index, &modules, file, "default")?;
        at.get(&(self.files[found].path.to_owned(), local)).copied()
    }

    /// A mount of every plugin file `autoload` loads.
    pub(super) fn expand_autoload(
        &self,
        autoload: &Autoload,
        at: &HashMap<UnitKey, usize>,
        units: &[Unit],
        hooks: &Autohooks,
    ) -> Vec<Item> {
        let root = format!("{}/", autoload.dir);
        let loaded: Vec<(usize, &str, &str)> = self
            .files
            .iter()
            .enumerate()
            .filter(|(_, file)| {
                file.path.starts_with(&root) && Grammar::of_path(&file.path).is_some_and(Grammar::is_script)
            })
            .map(|(file_at, file)| {
                let inside = &file.path[root.len()..];
                let (folder, name) = inside.rsplit_once('/').unwrap_or(("", inside));
                (file_at, folder, name.split('.').next().unwrap_or(name))
            })
            .collect();
        let has_index = |folder: &str| loaded.iter().any(|(_, f, stem)| *f == folder && *stem == "index");
        let mut items = Vec::new();
        for (file_at, folder, stem) in &loaded {
            if *stem == "autohooks" || (*stem != "index" && has_index(folder)) {
                continue;
            }
            let Some(slot) = self.default_unit(*file_at, at) else {
                continue;
            };
            let prefix = match self.files[*file_at].constants.get("autoPrefix") {
                Some(own) => own.clone(),
                None if autoload.folder_prefixes && !folder.is_empty() => folder_prefix(folder, autoload.route_params),
                None => String::new(),
            };
            let guards = if autoload.hooks {
                folder_hooks(&autoload.dir, folder, autoload.cascade_hooks, hooks)
            } else {
                Vec::new()
            };
            items.push(Item::Mount(Mount {
                prefix,
                target: Target::Unit(units[slot].key.clone()),
                guards,
                ..Mount::default()
            }));
        }
        items
    }
}

/// `users/_id/posts` → `/users/:id/posts` (`_id` only with `routeParams`).
fn folder_prefix(folder: &str, route_params: bool) -> String {
    folder
        .split('/')
        .map(|segment| match segment.strip_prefix('_') {
            Some(param) if route_params => format!("/:{param}"),
            _ => format!("/{segment}"),
        })
        .collect()
}

/// The hooks on a plugin in `folder` (under `dir`): its own folder's, and with `cascade` those
/// of every folder above it up to `dir`.
fn folder_hooks(dir: &str, folder: &str, cascade: bool, hooks: &Autohooks) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = Some(folder);
    while let Some(folder) = current {
        let path = join_relative(dir, folder).unwrap_or_default();
        for guard in hooks.get(&path).into_iter().flatten() {
            if !out.contains(guard) {
                out.insert(0, guard.clone());
            }
        }
        current = (cascade && !folder.is_empty()).then(|| parent_dir(folder));
    }
    out
}
