//! Python modules: `import`/`from … import` bindings and the file a module path names
//! (relative imports from the importing package, absolute ones by path suffix).

use std::collections::HashMap;

use tree_sitter::Node;

use super::{PathIndex, parent_dir};
use crate::bridge::extract::syntax::{Fields, ParsedFile, Walk, walk};

/// One local name bound by an import: `from module import name as local` or `import module as local`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyImport {
    /// Dotted, with leading dots for relative imports (`..core.config`).
    pub module: String,
    pub name: Option<String>,
}

/// A Python file's import bindings.
#[derive(Debug, Clone, Default)]
pub struct PythonModule {
    pub imports: HashMap<String, PyImport>,
}

impl PythonModule {
    /// Reads the imports of a Python file, those inside functions too (app factories import
    /// their blueprints there); one namespace per file.
    pub fn read(file: &ParsedFile<'_>) -> PythonModule {
        let mut module = PythonModule::default();
        walk(file.root(), |statement| {
            if STATEMENT_CONTAINERS.contains(&statement.kind()) {
                return Walk::Enter;
            }
            if statement.has_error() {
                return Walk::Skip;
            }
            match statement.kind() {
                "import_from_statement" => {
                    let Some(from) = statement.field("module_name") else {
                        return Walk::Skip;
                    };
                    let from = file.text(from).to_owned();
                    for name in statement.children_by_field_name("name", &mut statement.walk()) {
                        let (name, local) = aliased(file, name);
                        module.imports.insert(
                            local,
                            PyImport {
                                module: from.clone(),
                                name: Some(name),
                            },
                        );
                    }
                }
                "import_statement" => {
                    for name in statement.children_by_field_name("name", &mut statement.walk()) {
                        // `import a.b` binds `a`; `import a.b as c` binds `c` to `a.b`.
                        let (dotted, local) = aliased(file, name);
                        let local = local.split('.').next().unwrap_or(&local).to_owned();
                        let from = if name.kind() == "aliased_import" {
                            dotted
                        } else {
                            local.clone()
                        };
                        module.imports.insert(
                            local,
                            PyImport {
                                module: from,
                                name: None,
                            },
                        );
                    }
                }
                _ => {}
            }
            Walk::Skip
        });
        module
    }
}

/// Statements that hold statements: where imports are looked for.
const STATEMENT_CONTAINERS: &[&str] = &[
    "module",
    "block",
    "function_definition",
    "class_definition",
    "decorated_definition",
    "if_statement",
    "elif_clause",
    "else_clause",
    "try_statement",
    "except_clause",
    "finally_clause",
    "with_statement",
    "ERROR",
];

fn aliased(file: &ParsedFile<'_>, node: Node<'_>) -> (String, String) {
    if node.kind() == "aliased_import" {
        let name = file.field_text(node, "name").unwrap_or_default().to_owned();
        let alias = file.field_text(node, "alias").unwrap_or(&name).to_owned();
        (name, alias)
    } else {
        let name = file.text(node).to_owned();
        (name.clone(), name)
    }
}

/// The file a module path names, seen from file `from`.
pub fn resolve_module(index: &PathIndex, from: &str, module: &str) -> Option<usize> {
    let dots = module.len() - module.trim_start_matches('.').len();
    let rest = module[dots..].replace('.', "/");
    let base = if dots > 0 {
        let mut dir = parent_dir(from);
        for _ in 1..dots {
            dir = parent_dir(dir);
        }
        match (dir.is_empty(), rest.is_empty()) {
            (_, true) => dir.to_owned(),
            (true, false) => rest,
            (false, false) => format!("{dir}/{rest}"),
        }
    } else {
        rest
    };
    let init = if base.is_empty() {
        "__init__.py".to_owned()
    } else {
        format!("{base}/__init__.py")
    };
    let candidates = if base.is_empty() {
        vec![init]
    } else {
        vec![format!("{base}.py"), init]
    };
    if dots > 0 {
        candidates.iter().find_map(|candidate| index.get(candidate))
    } else {
        index.find(&candidates)
    }
}

/// Where an imported name leads: `(file, None)` when it is a module itself
/// (`from app.routers import users` with `app/routers/users.py`), else `(file, Some(name))`.
pub fn resolve_import(index: &PathIndex, from: &str, import: &PyImport) -> Option<(usize, Option<String>)> {
    match &import.name {
        None => resolve_module(index, from, &import.module).map(|at| (at, None)),
        Some(name) => {
            let separator = if import.module.ends_with('.') { "" } else { "." };
            let submodule = format!("{}{separator}{name}", import.module);
            if let Some(at) = resolve_module(index, from, &submodule) {
                return Some((at, None));
            }
            resolve_module(index, from, &import.module).map(|at| (at, Some(name.clone())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_and_absolute_modules_resolve_to_files() {
        let index = PathIndex::new(
            [
                "api/app/main.py",
                "api/app/routers/__init__.py",
                "api/app/routers/users.py",
                "api/app/core/config.py",
            ]
            .map(String::from),
        );
        assert_eq!(resolve_module(&index, "api/app/main.py", ".routers.users"), Some(2));
        assert_eq!(
            resolve_module(&index, "api/app/routers/users.py", "..core.config"),
            Some(3)
        );
        assert_eq!(resolve_module(&index, "api/app/routers/users.py", "."), Some(1));
        assert_eq!(resolve_module(&index, "api/app/main.py", "app.routers.users"), Some(2));
        let users = PyImport {
            module: ".routers".into(),
            name: Some("users".into()),
        };
        assert_eq!(resolve_import(&index, "api/app/main.py", &users), Some((2, None)));
        let router = PyImport {
            module: "app.routers.users".into(),
            name: Some("router".into()),
        };
        assert_eq!(
            resolve_import(&index, "api/app/main.py", &router),
            Some((2, Some("router".into())))
        );
    }
}
