//! JavaScript/TypeScript modules: `import`/`require` bindings, `export`/`module.exports`
//! declarations, and the file an import specifier names.

use std::collections::HashMap;

use crate::bridge::extract::syntax::ParsedFile;

/// What an import binds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Imported {
    /// `import x from` (and what `require()` returns when the module sets `module.exports`).
    Default,
    Named(String),
    /// `import * as x`, `const x = require(…)`: the module object.
    Module,
}

/// One local name bound by an import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub source: String,
    pub name: Imported,
}

/// One name a module exports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Export {
    /// `export const x`, `export { a as b }`, `export default a`, `module.exports = a`.
    Local { exported: String, local: String },
    /// `export { a as b } from './x'`, `export * as ns from './x'`.
    From {
        exported: String,
        source: String,
        name: Imported,
    },
    /// `export * from './x'`.
    Star { source: String },
}

/// A script file's imports and exports.
#[derive(Debug, Clone, Default)]
pub struct ScriptModule {
    pub imports: HashMap<String, Import>,
    pub exports: Vec<Export>,
}

impl ScriptModule {
    /// Reads the top-level imports and exports of a script file (`families/modules/script.scm`
    /// finds them; see [`super::top_level`]).
    pub fn read(file: &ParsedFile<'_>) -> ScriptModule {
        let mut module = ScriptModule::default();
        for hit in super::top_level(file) {
            let text = |name: &str| hit.text(name);
            if let Some(source) = text("import.source") {
                let (local, name) = match (text("import.default"), text("import.module"), text("import.name")) {
                    (Some(local), _, _) => (local, Imported::Default),
                    (_, Some(local), _) => (local, Imported::Module),
                    (_, _, Some(name)) => (text("import.local").unwrap_or(name), imported(name)),
                    _ => continue,
                };
                let source = source.to_owned();
                module.imports.insert(local.to_owned(), Import { source, name });
                continue;
            }
            let local = |exported: &str, local: &str| Export::Local {
                exported: exported.into(),
                local: local.into(),
            };
            let value = text("export.value").map(value_name);
            let export = if let Some(source) = text("export.star") {
                Export::Star { source: source.into() }
            } else if let (Some(exported), Some(source)) = (text("export.namespace"), text("export.source")) {
                Export::From {
                    exported: exported.into(),
                    source: source.into(),
                    name: Imported::Module,
                }
            } else if let Some(name) = text("export.name") {
                let exported = text("export.as").unwrap_or(name).to_owned();
                match text("export.source") {
                    Some(source) => Export::From {
                        exported,
                        source: source.into(),
                        name: imported(name),
                    },
                    None => local(&exported, name),
                }
            } else if let (Some(target), Some(value)) = (text("export.target"), value) {
                let name = target
                    .strip_prefix("module.exports.")
                    .or_else(|| target.strip_prefix("exports."));
                match name {
                    Some(name) => local(name, value),
                    // `module.exports = { … }` is read property by property.
                    None if target == "module.exports"
                        && !hit.text("export.value").is_some_and(|v| v.starts_with('{')) =>
                    {
                        local("default", value)
                    }
                    None => continue,
                }
            } else if let Some(value) = value {
                local(text("export.as").unwrap_or("default"), value)
            } else if let Some(name) = text("export.local") {
                // `export default name` exports it as `default`.
                local(text("export.default").map_or(name, |_| "default"), name)
            } else {
                continue;
            };
            module.exports.push(export);
        }
        module
    }
}

/// What an imported name stands for (`default` is the default export).
fn imported(name: &str) -> Imported {
    if name == "default" {
        Imported::Default
    } else {
        Imported::Named(name.into())
    }
}

/// The local name a value exported as written stands for: an identifier itself, anything else
/// the module's own `default`.
fn value_name(value: &str) -> &str {
    let identifier = value.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if identifier && !value.starts_with(|c: char| c.is_ascii_digit()) && !value.is_empty() {
        value
    } else {
        "default"
    }
}
