//! `@fastify/autoload`: `fastify.register(AutoLoad, { dir: path.join(__dirname, 'routes'),
//! options: { prefix: '/api' } })` loads every plugin file under the folder, each under its
//! folders' names as prefix (unless `dirNameRoutePrefix: false`, or the file exports its own
//! `autoPrefix`), with the hooks of an `autohooks` file on the plugins of its folder
//! (and of the folders below with `cascadeHooks`). Read here; expanded when linking.

use tree_sitter::Node;

use super::Scanner;
use crate::bridge::extract::code::modules::{join_relative, parent_dir};
use crate::bridge::extract::code::routes::graph::Autoload;
use crate::bridge::extract::syntax::literal::{string, unwrap_parens};
use crate::bridge::extract::syntax::named_children;
use crate::bridge::extract::syntax::script::{arguments, property};

/// Packages of the autoload plugin.
const AUTOLOAD: &[&str] = &["@fastify/autoload", "fastify-autoload"];

/// Names a module's own folder is written with.
const DIRNAMES: &[&str] = &["__dirname", "import.meta.dirname"];

impl Scanner<'_, '_> {
    /// The autoload a `register(plugin, options)` call makes, if `plugin` is the autoload plugin.
    pub(super) fn autoload(&self, plugin: Node<'_>, options: Option<Node<'_>>) -> Option<(Autoload, String)> {
        let plugin = unwrap_parens(plugin);
        let source = match plugin.kind() {
            "identifier" => self.module.imports.get(self.file.text(plugin))?.source.clone(),
            _ => crate::bridge::extract::code::modules::script::required_source(self.file, plugin)?,
        };
        if !AUTOLOAD.contains(&source.as_str()) {
            return None;
        }
        let options = options.filter(|o| o.kind() == "object")?;
        let relative = self.folder(property(self.file, options, "dir")?)?;
        let dir = join_relative(parent_dir(self.file.path), &relative)?;
        let flag = |name: &str| property(self.file, options, name).map(|v| self.file.text(v) == "true");
        let prefix = property(self.file, options, "options")
            .and_then(|inner| self.prefix_option(inner))
            .unwrap_or_default();
        let autoload = Autoload {
            dir,
            folder_prefixes: flag("dirNameRoutePrefix") != Some(false),
            hooks: flag("autoHooks") == Some(true),
            cascade_hooks: flag("cascadeHooks") == Some(true),
            route_params: flag("routeParams") == Some(true),
        };
        Some((autoload, prefix))
    }

    /// `path.join(__dirname, 'routes')`, `join(import.meta.dirname, 'plugins/app')`,
    /// `` `${__dirname}/routes` `` → the folder relative to this file (`routes`).
    fn folder(&self, node: Node<'_>) -> Option<String> {
        let node = unwrap_parens(node);
        match node.kind() {
            "call_expression" => {
                let args = arguments(node);
                let (first, rest) = args.split_first()?;
                if !self.is_dirname(*first) {
                    return None;
                }
                let parts: Option<Vec<String>> = rest.iter().map(|part| string(self.file, *part)).collect();
                Some(parts?.join("/"))
            }
            "template_string" => {
                let text = self.file.text(node).trim_matches('`');
                DIRNAMES
                    .iter()
                    .find_map(|dirname| text.strip_prefix(&format!("${{{dirname}}}")))
                    .map(|rest| rest.trim_start_matches('/').to_owned())
            }
            _ => None,
        }
    }

    /// `__dirname`, `import.meta.dirname`, `dirname(fileURLToPath(import.meta.url))`.
    fn is_dirname(&self, node: Node<'_>) -> bool {
        let text = self.file.text(node);
        DIRNAMES.contains(&text)
            || text.contains("import.meta.url")
            || self.top_level_value(text).is_some_and(|value| self.is_dirname(value))
    }

    /// The `prefix` the plugins are registered with: `options: { prefix: '/api' }`, also inside
    /// `Object.assign({ prefix: '/api' }, opts)`.
    fn prefix_option(&self, node: Node<'_>) -> Option<String> {
        let node = unwrap_parens(node);
        match node.kind() {
            "object" => property(self.file, node, "prefix").and_then(|p| self.constants.render_prefix(self.file, p)),
            "call_expression" => arguments(node).into_iter().find_map(|arg| self.prefix_option(arg)),
            _ => named_children(node)
                .into_iter()
                .find_map(|child| self.prefix_option(child)),
        }
    }
}
