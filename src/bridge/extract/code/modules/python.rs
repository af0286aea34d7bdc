//! Python modules: `import`/`from … import` bindings and the file a module path names
//! (relative imports from the importing package, absolute ones by path suffix).

use std::collections::HashMap;

use super::{PathIndex, captured, join_relative, parent_dir};
use crate::bridge::extract::syntax::ParsedFile;
use crate::bridge::rules::on_demand;

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
    /// their blueprints there; `families/modules/python.scm` finds them); one namespace per
    /// file, a statement with a syntax error in it binds nothing.
    pub fn read(file: &ParsedFile<'_>) -> PythonModule {
        let mut module = PythonModule::default();
        for hit in on_demand("modules/python", file.grammar, &file.tree, file.text, false) {
            let broken = captured(file, &hit, "import.statement").is_none_or(|node| node.has_error());
            let local = hit.text("import.local");
            let (local, from, name) = match (
                hit.text("import.from"),
                hit.text("import.name"),
                hit.text("import.module"),
            ) {
                _ if broken => continue,
                (Some(from), Some(name), _) => (local.unwrap_or(name), from, Some(name)),
                // `import a.b` binds `a`; `import a.b as c` binds `c` to `a.b`.
                (_, _, Some(dotted)) => match local {
                    Some(local) => (local, dotted, None),
                    None => {
                        let first = dotted.split('.').next().unwrap_or(dotted);
                        (first, first, None)
                    }
                },
                _ => continue,
            };
            module.imports.insert(
                local.to_owned(),
                PyImport {
                    module: from.to_owned(),
                    name: name.map(str::to_owned),
                },
            );
        }
        module
    }
}

/// The file a module path names, seen from file `from`.
pub fn resolve_module(index: &PathIndex, from: &str, module: &str) -> Option<usize> {
    let dots = module.len() - module.trim_start_matches('.').len();
    // `.x` is beside `from`, `..x` one package up.
    let mut dir = if dots > 0 { parent_dir(from) } else { "" };
    for _ in 1..dots {
        dir = parent_dir(dir);
    }
    let base = join_relative(dir, &module[dots..].replace('.', "/"))?;
    let init = join_relative(&base, "__init__.py")?;
    let candidates = match base.is_empty() {
        true => vec![init],
        false => vec![format!("{base}.py"), init],
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
