//! Environment variables the code reads: `process.env.X`, `process.env['X']`,
//! `const { X } = process.env`, `import.meta.env.X`; `os.environ['X']`, `os.environ.get('X')`,
//! `os.getenv('X')`; `std::env::var("X")`, `env::var_os("X")`, `env!("X")`, `option_env!("X")`.

use tree_sitter::Node;

use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::rust::last_segment;
use crate::bridge::extract::syntax::{Fields, Lang, NodeIndex, ParsedFile, named_children};
use crate::bridge::facts::EnvVar;

/// Reads the environment variables one file reads into `out`, each once per file.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<EnvVar>) {
    let mut found: Vec<EnvVar> = Vec::new();
    let mut add = |name: &str, source: &str| {
        if is_env_name(name) && !found.iter().any(|have| have.name == name) {
            found.push(EnvVar {
                name: name.to_owned(),
                source: source.to_owned(),
                file: file.path.to_owned(),
            });
        }
    };
    index.each(
        &[
            "member_expression",
            "subscript_expression",
            "variable_declarator",
            "subscript",
            "call",
            "call_expression",
            "macro_invocation",
        ],
        |node| match file.lang {
            Lang::TypeScript | Lang::Tsx | Lang::JavaScript => script(file, node, &mut add),
            Lang::Python => python(file, node, &mut add),
            Lang::Rust => rust(file, node, &mut add),
        },
    );
    out.extend(found);
}

/// Names the way environments spell them: letters, digits and `_`, not starting with a digit.
fn is_env_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn script(file: &ParsedFile<'_>, node: Node<'_>, add: &mut impl FnMut(&str, &str)) {
    let source = |object: Node<'_>| match file.text(object) {
        "process.env" => Some("process.env"),
        "import.meta.env" => Some("import.meta.env"),
        _ => None,
    };
    match node.kind() {
        "member_expression" => {
            if let (Some(object), Some(property)) = (node.field("object"), file.field_text(node, "property"))
                && let Some(from) = source(object)
            {
                add(property, from);
            }
        }
        "subscript_expression" => {
            if let (Some(object), Some(index)) = (node.field("object"), node.field("index"))
                && let Some(from) = source(object)
                && let Some(name) = string(file, index)
            {
                add(&name, from);
            }
        }
        "variable_declarator" => {
            if let (Some(pattern), Some(value)) = (node.field("name"), node.field("value"))
                && pattern.kind() == "object_pattern"
                && let Some(from) = source(value)
            {
                for property in named_children(pattern) {
                    match property.kind() {
                        "shorthand_property_identifier_pattern" => add(file.text(property), from),
                        "pair_pattern" | "object_assignment_pattern" => {
                            let key = property.field("key").or_else(|| property.field("left"));
                            if let Some(key) = key {
                                add(file.text(key), from);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        _ => {}
    }
}

fn python(file: &ParsedFile<'_>, node: Node<'_>, add: &mut impl FnMut(&str, &str)) {
    match node.kind() {
        "subscript" => {
            if let (Some(value), Some(index)) = (node.field("value"), node.field("subscript"))
                && matches!(file.text(value), "os.environ" | "environ")
                && let Some(name) = string(file, index)
            {
                add(&name, "os.environ");
            }
        }
        "call" => {
            let Some(function) = file.field_text(node, "function") else {
                return;
            };
            let source = match function {
                "os.environ.get" | "environ.get" | "os.environ.setdefault" => "os.environ",
                "os.getenv" | "getenv" => "os.getenv",
                _ => return,
            };
            let first = node.field("arguments").and_then(|args| args.named_child(0));
            if let Some(name) = first.and_then(|arg| string(file, arg)) {
                add(&name, source);
            }
        }
        _ => {}
    }
}

fn rust(file: &ParsedFile<'_>, node: Node<'_>, add: &mut impl FnMut(&str, &str)) {
    match node.kind() {
        "call_expression" => {
            let Some(function) = file.field_text(node, "function") else {
                return;
            };
            let reads_env = matches!(last_segment(function), "var" | "var_os")
                && (function.contains("env::")
                    || function.starts_with("dotenvy::")
                    || function.starts_with("dotenv::"));
            if !reads_env {
                return;
            }
            let first = node.field("arguments").and_then(|args| args.named_child(0));
            if let Some(name) = first.and_then(|arg| string(file, arg)) {
                add(&name, "std::env::var");
            }
        }
        "macro_invocation" => {
            let Some(name) = file.field_text(node, "macro") else {
                return;
            };
            if !matches!(last_segment(name), "env" | "option_env") {
                return;
            }
            let tokens = named_children(node)
                .into_iter()
                .find(|child| child.kind() == "token_tree");
            let first = tokens.and_then(|tokens| tokens.named_child(0));
            if let Some(value) = first.and_then(|token| string(file, token)) {
                add(&value, "env!");
            }
        }
        _ => {}
    }
}
