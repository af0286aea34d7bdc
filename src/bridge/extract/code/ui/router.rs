//! React Router routes: route objects passed to `createBrowserRouter`/`useRoutes` (nested
//! `children` paths joined, `index` routes), `<Route path element>` JSX nesting (v6 and v5's
//! `component={X}`), and framework mode's `app/routes.ts` (`route`, `index`, `layout`, `prefix`).

use tree_sitter::Node;

use crate::bridge::extract::syntax::literal::{Constants, string, unwrap_parens};
use crate::bridge::extract::syntax::script::{arguments, property, top_level_bindings};
use crate::bridge::extract::syntax::{Fields, ParsedFile, Walk, named_children, walk};
use crate::bridge::facts::Route;

/// Calls that take route objects.
const ROUTER_CALLS: &[&str] = &[
    "createBrowserRouter",
    "createHashRouter",
    "createMemoryRouter",
    "createStaticRouter",
    "useRoutes",
];

/// How deep routes nest before the rest is left out.
const MAX_NESTING: usize = 16;

/// Reads the React Router routes of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, constants: &Constants, out: &mut Vec<Route>) {
    let reader = Reader { file, constants };
    let config_file = file.path.ends_with("app/routes.ts") || file.path.ends_with("app/routes.tsx");
    walk(file.root(), |node| {
        if node.has_error() {
            return Walk::Enter;
        }
        match node.kind() {
            "call_expression" => {
                let callee = file.field_text(node, "function").unwrap_or_default();
                if !ROUTER_CALLS.contains(&callee.rsplit('.').next().unwrap_or(callee)) {
                    return Walk::Enter;
                }
                if let Some(routes) = arguments(node).first() {
                    reader.objects(*routes, "/", 0, out);
                }
                // `createBrowserRouter(createRoutesFromElements(<Route …>))` holds JSX routes.
                Walk::Enter
            }
            "jsx_element" | "jsx_self_closing_element" if reader.tag(node) == Some("Route") => {
                reader.element(node, "/", 0, out);
                Walk::Skip
            }
            "export_statement" if config_file => {
                if let Some(value) = node.field("value") {
                    reader.config(value, "/", 0, out);
                }
                Walk::Skip
            }
            _ => Walk::Enter,
        }
    });
}

struct Reader<'s, 'a> {
    file: &'s ParsedFile<'a>,
    constants: &'s Constants,
}

impl Reader<'_, '_> {
    /// `[{ path, element, children }, …]`, or a name bound to such an array in this file.
    fn objects(&self, node: Node<'_>, base: &str, depth: usize, out: &mut Vec<Route>) {
        if depth > MAX_NESTING {
            return;
        }
        let node = unwrap_parens(node);
        let node = match node.kind() {
            "identifier" => match self.binding(self.file.text(node)) {
                Some(value) => unwrap_parens(value),
                None => return,
            },
            _ => node,
        };
        if node.kind() != "array" {
            return;
        }
        for object in named_children(node) {
            let object = unwrap_parens(object);
            if object.kind() != "object" {
                continue;
            }
            let path = property(self.file, object, "path").and_then(|p| self.constants.resolve(self.file, p));
            let index = property(self.file, object, "index").is_some_and(|i| self.file.text(i) == "true");
            let full = path.as_deref().map_or_else(|| base.to_owned(), |path| join(base, path));
            if path.is_some() || index {
                let component = property(self.file, object, "element")
                    .and_then(|element| self.element_name(element))
                    .or_else(|| property(self.file, object, "Component").map(|c| self.file.text(c).to_owned()));
                self.push(out, &full, component);
            }
            if let Some(children) = property(self.file, object, "children") {
                self.objects(children, &full, depth + 1, out);
            }
        }
    }

    /// A top-level `const routes = [...]` of this file.
    fn binding(&self, name: &str) -> Option<Node<'_>> {
        top_level_bindings(self.file)
            .into_iter()
            .find_map(|(have, value)| (have == name).then_some(value))
    }

    /// `<Route path="users" element={<Users/>}>` and the `<Route>`s inside it.
    fn element(&self, node: Node<'_>, base: &str, depth: usize, out: &mut Vec<Route>) {
        if depth > MAX_NESTING {
            return;
        }
        let opening = if node.kind() == "jsx_element" {
            node.field("open_tag")
        } else {
            Some(node)
        };
        let Some(opening) = opening else { return };
        let attribute = |name: &str| {
            named_children(opening).into_iter().find_map(|attribute| {
                let mut parts = named_children(attribute).into_iter();
                let key = parts.next()?;
                (attribute.kind() == "jsx_attribute" && self.file.text(key) == name)
                    .then(|| parts.next())
                    .map(|v| (key, v))
            })
        };
        let path = attribute("path")
            .and_then(|(_, value)| value)
            .and_then(|value| self.attribute_string(value));
        let index = attribute("index").is_some();
        let full = path.as_deref().map_or_else(|| base.to_owned(), |path| join(base, path));
        if path.is_some() || index {
            let component = attribute("element")
                .and_then(|(_, value)| value)
                .and_then(|value| self.element_name(value))
                .or_else(|| {
                    ["component", "Component"].iter().find_map(|key| {
                        let value = attribute(key)?.1?;
                        let inner = if value.kind() == "jsx_expression" {
                            value.named_child(0)?
                        } else {
                            value
                        };
                        Some(self.file.text(inner).to_owned())
                    })
                });
            self.push(out, &full, component);
        }
        if node.kind() == "jsx_element" {
            for child in named_children(node) {
                if matches!(child.kind(), "jsx_element" | "jsx_self_closing_element")
                    && self.tag(child) == Some("Route")
                {
                    self.element(child, &full, depth + 1, out);
                }
            }
        }
    }

    /// `route("about", "routes/about.tsx")`, `index("routes/home.tsx")`, `layout(file, [...])`,
    /// `...prefix("projects", [...])` in framework mode's route config.
    fn config(&self, node: Node<'_>, base: &str, depth: usize, out: &mut Vec<Route>) {
        if depth > MAX_NESTING {
            return;
        }
        let node = unwrap_parens(node);
        match node.kind() {
            "array" => {
                for item in named_children(node) {
                    let item = if item.kind() == "spread_element" {
                        item.named_child(0).unwrap_or(item)
                    } else {
                        item
                    };
                    self.config(item, base, depth + 1, out);
                }
            }
            "call_expression" => {
                let args = arguments(node);
                let text = |at: usize| args.get(at).and_then(|arg| string(self.file, *arg));
                match self.file.field_text(node, "function") {
                    Some("route") => {
                        let Some(path) = text(0) else { return };
                        let full = join(base, &path);
                        self.push(out, &full, text(1));
                        if let Some(children) = args.get(2) {
                            self.config(*children, &full, depth + 1, out);
                        }
                    }
                    Some("index") => self.push(out, base, text(0)),
                    Some("layout") => {
                        if let Some(children) = args.get(1) {
                            self.config(*children, base, depth + 1, out);
                        }
                    }
                    Some("prefix") => {
                        let (Some(path), Some(children)) = (text(0), args.get(1)) else {
                            return;
                        };
                        self.config(*children, &join(base, &path), depth + 1, out);
                    }
                    _ => {}
                }
            }
            "satisfies_expression" | "as_expression" => {
                if let Some(inner) = node.named_child(0) {
                    self.config(inner, base, depth + 1, out);
                }
            }
            _ => {}
        }
    }

    fn attribute_string(&self, value: Node<'_>) -> Option<String> {
        match value.kind() {
            "string" => string(self.file, value),
            "jsx_expression" => self.constants.resolve(self.file, value.named_child(0)?),
            _ => None,
        }
    }

    /// `<Users />` or `{<Users.List />}` → the tag's name.
    fn element_name(&self, value: Node<'_>) -> Option<String> {
        let value = if value.kind() == "jsx_expression" {
            value.named_child(0)?
        } else {
            value
        };
        let value = unwrap_parens(value);
        self.tag(value).map(str::to_owned)
    }

    fn tag(&self, node: Node<'_>) -> Option<&str> {
        let opening = match node.kind() {
            "jsx_element" => node.field("open_tag")?,
            "jsx_self_closing_element" => node,
            _ => return None,
        };
        opening.field("name").map(|name| self.file.text(name))
    }

    fn push(&self, out: &mut Vec<Route>, path: &str, component: Option<String>) {
        out.push(Route {
            path: path.to_owned(),
            component,
            framework: "react-router".into(),
            file: self.file.path.to_owned(),
        });
    }
}

/// A child path under its parent's: relative paths join, absolute ones stand alone.
fn join(base: &str, path: &str) -> String {
    if path.starts_with('/') {
        return path.to_owned();
    }
    let base = base.trim_end_matches('/');
    if path.is_empty() {
        if base.is_empty() { "/".into() } else { base.to_owned() }
    } else {
        format!("{base}/{path}")
    }
}
