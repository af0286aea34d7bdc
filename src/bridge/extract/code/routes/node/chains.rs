//! Routers that are never named: `export default Router().use('/api', api)`,
//! `const router = express.Router().use(a).use(b)`, `module.exports = Router().use(…)`, and
//! mounts read from a table: `routes.forEach((r) => router.use(r.path, r.route))`.

use tree_sitter::Node;

use super::{MAX_SCOPE_DEPTH, METHODS, Scanner};
use crate::bridge::extract::code::routes::graph::Unit;
use crate::bridge::extract::syntax::literal::unwrap_parens;
use crate::bridge::extract::syntax::script::{property, top_level_bindings};
use crate::bridge::extract::syntax::{Fields, named_children};

/// Methods a router returns itself from, so that calls chain on it.
const CHAINING: &[&str] = &["use", "register", "addHook"];

/// How many chained calls are walked down.
const MAX_CHAIN: usize = 256;

/// Most entries of a mount table read.
const MAX_TABLE: usize = 256;

impl Scanner<'_, '_> {
    /// The innermost receiver of a chain of router calls: `Router().use(a).use(b)` → `Router()`,
    /// `router.get(…).post(…)` → `router`.
    pub(super) fn chain_base<'t>(&self, node: Node<'t>) -> Node<'t> {
        let mut node = unwrap_parens(node);
        for _ in 0..MAX_CHAIN {
            let Some(function) = (node.kind() == "call_expression")
                .then(|| node.field("function"))
                .flatten()
                .filter(|f| f.kind() == "member_expression")
            else {
                break;
            };
            let (Some(object), Some(property)) = (function.field("object"), function.field("property")) else {
                break;
            };
            let name = self.file.text(property);
            if !(METHODS.contains(&name) || CHAINING.contains(&name)) {
                break;
            }
            node = unwrap_parens(object);
        }
        node
    }

    /// The unit an unnamed router constructed at `base` stands for, declared on first use: named
    /// by what its chain is assigned to, exported as, or returned from.
    pub(super) fn anonymous_unit(&mut self, base: Node<'_>) -> Option<String> {
        let (callee, is_new) = match base.kind() {
            "call_expression" => (base.field("function")?, false),
            "new_expression" => (base.field("constructor")?, true),
            _ => return None,
        };
        let (framework, app) = self.constructor(callee, is_new)?;
        let name = self.chain_name(base);
        if !self.out.declares(self.file.path, &name) {
            self.out.declare(Unit {
                key: (self.file.path.to_owned(), name.clone()),
                framework,
                app,
                ..Unit::default()
            });
        }
        Some(name)
    }

    /// The name a whole chain is known by (see [`Scanner::anonymous_unit`]).
    pub(super) fn chain_name(&self, base: Node<'_>) -> String {
        let mut current = base;
        for _ in 0..MAX_CHAIN {
            let Some(parent) = current.parent() else { break };
            let grandparent = parent.parent();
            if parent.kind() == "member_expression"
                && parent.field("object") == Some(current)
                && let Some(call) = grandparent.filter(|g| g.kind() == "call_expression")
            {
                current = call;
                continue;
            }
            if matches!(parent.kind(), "parenthesized_expression" | "await_expression") {
                current = parent;
                continue;
            }
            break;
        }
        let fallback = || format!("chain@{}", base.start_byte());
        let Some(parent) = current.parent() else {
            return fallback();
        };
        match parent.kind() {
            "variable_declarator" => self
                .file
                .field_text(parent, "name")
                .map_or_else(fallback, str::to_owned),
            "export_statement" => "default".to_owned(),
            "assignment_expression" => match parent.field("left").map(|left| self.file.text(left)) {
                Some("module.exports") => "default".to_owned(),
                Some(left) => left
                    .strip_prefix("module.exports.")
                    .or_else(|| left.strip_prefix("exports."))
                    .map_or_else(fallback, str::to_owned),
                None => fallback(),
            },
            "return_statement" | "arrow_function" => self.enclosing_function(parent).unwrap_or_else(fallback),
            _ => fallback(),
        }
    }

    /// The name of the function `node` is in (see `function_name`).
    fn enclosing_function(&self, node: Node<'_>) -> Option<String> {
        self.enclosing_function_node(node)
            .map(|function| self.function_name(function))
    }

    /// The function `node` is in (`node` itself when it is one).
    pub(super) fn enclosing_function_node<'t>(&self, node: Node<'t>) -> Option<Node<'t>> {
        let mut current = node;
        for _ in 0..MAX_SCOPE_DEPTH {
            if matches!(
                current.kind(),
                "function_declaration" | "function_expression" | "arrow_function" | "function"
            ) {
                return Some(current);
            }
            current = current.parent()?;
        }
        None
    }

    /// `table.forEach((route) => router.use(route.path, route.route))`: the `(prefix, target)`
    /// pairs the table's object literals give for the two member arguments of a `use` call.
    pub(super) fn table_mounts(&self, prefix: Node<'_>, target: Node<'_>) -> Vec<(String, String)> {
        let (Some(item), Some(prefix_key), Some(target_key)) = (
            member_parts(self, prefix).map(|p| p.0),
            member_key(self, prefix),
            member_key(self, target),
        ) else {
            return Vec::new();
        };
        if member_parts(self, target).map(|p| p.0) != Some(item) {
            return Vec::new();
        }
        let Some(table) = self.iterated_table(prefix, item) else {
            return Vec::new();
        };
        let Some(table) = self.top_level_value(&table).filter(|value| value.kind() == "array") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for entry in named_children(table).into_iter().take(MAX_TABLE) {
            let (Some(path), Some(value)) = (
                property(self.file, entry, prefix_key).and_then(|p| self.constants.render_prefix(self.file, p)),
                property(self.file, entry, target_key).and_then(|value| self.target(value)),
            ) else {
                continue;
            };
            out.push((path, value));
        }
        out
    }

    /// The name of the table the callback around `node` is called over (`table.forEach(cb)`),
    /// when the callback's first parameter is `item`.
    fn iterated_table(&self, node: Node<'_>, item: &str) -> Option<String> {
        let mut current = node;
        let callback = loop {
            current = current.parent()?;
            if matches!(current.kind(), "arrow_function" | "function_expression" | "function") {
                break current;
            }
        };
        let parameters = callback.field("parameters").or_else(|| callback.field("parameter"))?;
        let first = if parameters.kind() == "identifier" {
            parameters
        } else {
            let first = named_children(parameters).into_iter().next()?;
            first.field("pattern").unwrap_or(first)
        };
        if self.file.text(first) != item {
            return None;
        }
        let call = callback.parent().filter(|p| p.kind() == "arguments")?.parent()?;
        let function = call.field("function").filter(|f| f.kind() == "member_expression")?;
        if !matches!(
            function.field("property").map(|p| self.file.text(p)),
            Some("forEach" | "map")
        ) {
            return None;
        }
        let table = function.field("object").filter(|o| o.kind() == "identifier")?;
        Some(self.file.text(table).to_owned())
    }

    /// The value of a top-level `const name = …` of this file.
    pub(super) fn top_level_value(&self, name: &str) -> Option<Node<'_>> {
        top_level_bindings(self.file)
            .into_iter()
            .find(|(have, _)| *have == name)
            .map(|(_, value)| unwrap_parens(value))
    }

    /// True when the arguments of a `use` call are `(x.a, x.b)` of one table entry `x`.
    pub(super) fn is_table_use(&self, args: &[Node<'_>]) -> bool {
        matches!(args, [a, b] if a.kind() == "member_expression" && b.kind() == "member_expression")
            && arguments_share_object(self, args)
    }
}

fn arguments_share_object(scanner: &Scanner<'_, '_>, args: &[Node<'_>]) -> bool {
    let objects: Vec<Option<&str>> = args.iter().map(|a| member_parts(scanner, *a).map(|p| p.0)).collect();
    objects.windows(2).all(|pair| pair[0].is_some() && pair[0] == pair[1])
}

/// `route.path` → (`route`, `path`).
fn member_parts<'a>(scanner: &Scanner<'_, 'a>, node: Node<'_>) -> Option<(&'a str, &'a str)> {
    let object = node.field("object").filter(|o| o.kind() == "identifier")?;
    let property = node.field("property")?;
    Some((scanner.file.text(object), scanner.file.text(property)))
}

fn member_key<'a>(scanner: &Scanner<'_, 'a>, node: Node<'_>) -> Option<&'a str> {
    member_parts(scanner, node).map(|p| p.1)
}
