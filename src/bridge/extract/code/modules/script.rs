//! JavaScript/TypeScript modules: `import`/`require` bindings, `export`/`module.exports`
//! declarations, and the file an import specifier names.

use std::collections::HashMap;

use tree_sitter::Node;

use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::{Fields, ParsedFile, named_children};

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
    /// Reads the top-level imports and exports of a script file.
    pub fn read(file: &ParsedFile<'_>) -> ScriptModule {
        let mut module = ScriptModule::default();
        for statement in named_children(file.root()) {
            if statement.has_error() {
                continue;
            }
            match statement.kind() {
                "import_statement" => module.read_import(file, statement),
                "export_statement" => module.read_export(file, statement),
                "lexical_declaration" | "variable_declaration" => module.read_requires(file, statement),
                "expression_statement" => module.read_commonjs_export(file, statement),
                _ => {}
            }
        }
        module
    }

    fn read_import(&mut self, file: &ParsedFile<'_>, statement: Node<'_>) {
        let Some(source) = statement.field("source").and_then(|node| string(file, node)) else {
            return;
        };
        let Some(clause) = named_children(statement)
            .into_iter()
            .find(|child| child.kind() == "import_clause")
        else {
            return;
        };
        for part in named_children(clause) {
            match part.kind() {
                "identifier" => self.bind(file.text(part), &source, Imported::Default),
                "namespace_import" => {
                    if let Some(name) = part.named_child(0) {
                        self.bind(file.text(name), &source, Imported::Module);
                    }
                }
                "named_imports" => {
                    for specifier in named_children(part)
                        .into_iter()
                        .filter(|s| s.kind() == "import_specifier")
                    {
                        let Some(name) = file.field_text(specifier, "name") else {
                            continue;
                        };
                        let local = file.field_text(specifier, "alias").unwrap_or(name);
                        let imported = if name == "default" {
                            Imported::Default
                        } else {
                            Imported::Named(name.into())
                        };
                        self.bind(local, &source, imported);
                    }
                }
                _ => {}
            }
        }
    }

    fn bind(&mut self, local: &str, source: &str, name: Imported) {
        self.imports.insert(
            local.to_owned(),
            Import {
                source: source.to_owned(),
                name,
            },
        );
    }

    fn read_requires(&mut self, file: &ParsedFile<'_>, declaration: Node<'_>) {
        for declarator in named_children(declaration) {
            let (Some(name), Some(value)) = (declarator.field("name"), declarator.field("value")) else {
                continue;
            };
            let Some(source) = required_source(file, value) else {
                continue;
            };
            match name.kind() {
                "identifier" => self.bind(file.text(name), &source, Imported::Module),
                "object_pattern" => {
                    for property in named_children(name) {
                        match property.kind() {
                            "shorthand_property_identifier_pattern" => {
                                let local = file.text(property);
                                self.bind(local, &source, Imported::Named(local.into()));
                            }
                            "pair_pattern" => {
                                let (Some(key), Some(local)) =
                                    (file.field_text(property, "key"), file.field_text(property, "value"))
                                else {
                                    continue;
                                };
                                self.bind(local, &source, Imported::Named(key.into()));
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn read_export(&mut self, file: &ParsedFile<'_>, statement: Node<'_>) {
        let source = statement.field("source").and_then(|node| string(file, node));
        let is_default = (0..statement.child_count())
            .filter_map(|at| statement.child(at as u32))
            .any(|child| child.kind() == "default");
        if let Some(declaration) = statement.field("declaration") {
            for name in declared_names(file, declaration) {
                let exported = if is_default { "default".to_owned() } else { name.clone() };
                self.exports.push(Export::Local { exported, local: name });
            }
            if is_default && declared_names(file, declaration).is_empty() {
                self.exports.push(Export::Local {
                    exported: "default".into(),
                    local: "default".into(),
                });
            }
            return;
        }
        if let Some(value) = statement.field("value") {
            let local = if value.kind() == "identifier" {
                file.text(value)
            } else {
                "default"
            };
            self.exports.push(Export::Local {
                exported: "default".into(),
                local: local.into(),
            });
            return;
        }
        let clause = named_children(statement)
            .into_iter()
            .find(|child| child.kind() == "export_clause");
        match (clause, source) {
            (Some(clause), source) => {
                for specifier in named_children(clause)
                    .into_iter()
                    .filter(|s| s.kind() == "export_specifier")
                {
                    let Some(name) = file.field_text(specifier, "name") else {
                        continue;
                    };
                    let exported = file.field_text(specifier, "alias").unwrap_or(name).to_owned();
                    self.exports.push(match &source {
                        Some(source) => {
                            let name = if name == "default" {
                                Imported::Default
                            } else {
                                Imported::Named(name.into())
                            };
                            Export::From {
                                exported,
                                source: source.clone(),
                                name,
                            }
                        }
                        None => Export::Local {
                            exported,
                            local: name.into(),
                        },
                    });
                }
            }
            (None, Some(source)) => {
                let namespace = named_children(statement)
                    .into_iter()
                    .find(|child| child.kind() == "namespace_export");
                match namespace.and_then(|ns| ns.named_child(0)) {
                    Some(name) => self.exports.push(Export::From {
                        exported: file.text(name).into(),
                        source,
                        name: Imported::Module,
                    }),
                    None => self.exports.push(Export::Star { source }),
                }
            }
            (None, None) => {}
        }
    }

    /// `module.exports = x`, `module.exports = { a, b: c }`, `exports.a = b`, `module.exports.a = b`.
    fn read_commonjs_export(&mut self, file: &ParsedFile<'_>, statement: Node<'_>) {
        let Some(assignment) = statement
            .named_child(0)
            .filter(|node| node.kind() == "assignment_expression")
        else {
            return;
        };
        let (Some(left), Some(right)) = (assignment.field("left"), assignment.field("right")) else {
            return;
        };
        let target = file.text(left);
        let local_of = |value: Node<'_>| {
            if value.kind() == "identifier" {
                file.text(value)
            } else {
                "default"
            }
        };
        if target == "module.exports" {
            if right.kind() == "object" {
                for property in named_children(right) {
                    match property.kind() {
                        "shorthand_property_identifier" => {
                            let name = file.text(property);
                            self.exports.push(Export::Local {
                                exported: name.into(),
                                local: name.into(),
                            });
                        }
                        "pair" => {
                            let (Some(key), Some(value)) = (file.field_text(property, "key"), property.field("value"))
                            else {
                                continue;
                            };
                            self.exports.push(Export::Local {
                                exported: key.into(),
                                local: local_of(value).into(),
                            });
                        }
                        _ => {}
                    }
                }
            } else {
                self.exports.push(Export::Local {
                    exported: "default".into(),
                    local: local_of(right).into(),
                });
            }
        } else if let Some(name) = target
            .strip_prefix("module.exports.")
            .or_else(|| target.strip_prefix("exports."))
        {
            self.exports.push(Export::Local {
                exported: name.into(),
                local: local_of(right).into(),
            });
        }
    }
}

/// `require('x')` → `x`.
pub fn required_source(file: &ParsedFile<'_>, call: Node<'_>) -> Option<String> {
    if call.kind() != "call_expression" || file.field_text(call, "function") != Some("require") {
        return None;
    }
    let argument = call.field("arguments")?.named_child(0)?;
    string(file, argument)
}

/// The names a declaration introduces (`const a = 1, b = 2`, `function f`, `class C`).
pub fn declared_names(file: &ParsedFile<'_>, declaration: Node<'_>) -> Vec<String> {
    match declaration.kind() {
        "lexical_declaration" | "variable_declaration" => named_children(declaration)
            .into_iter()
            .filter_map(|declarator| declarator.field("name"))
            .filter(|name| name.kind() == "identifier")
            .map(|name| file.text(name).to_owned())
            .collect(),
        _ => file
            .field_text(declaration, "name")
            .map(str::to_owned)
            .into_iter()
            .collect(),
    }
}
