//! TypeBox schemas and plain JSON schemas, the way Fastify routes validate bodies:
//! `const CreateTask = Type.Object({ name: Type.String(), due: Type.Optional(Type.String()) })`
//! and `const createTask = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }`.

use tree_sitter::Node;

use super::{Base, PendingShape};
use crate::bridge::extract::code::modules::script::ScriptModule;
use crate::bridge::extract::syntax::literal::{string, unwrap_parens};
use crate::bridge::extract::syntax::script::{arguments, property, property_name, top_level_bindings};
use crate::bridge::extract::syntax::{Fields, ParsedFile, named_children};
use crate::bridge::facts::{Field, Shape};

/// Packages TypeBox's `Type` comes from.
const TYPEBOX: &[&str] = &["@sinclair/typebox", "typebox", "@fastify/type-provider-typebox"];

/// How deep field types are read.
const MAX_DEPTH: usize = 6;

/// Reads the top-level TypeBox and JSON object schemas of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, module: &ScriptModule, out: &mut Vec<PendingShape>) {
    let types: Vec<&str> = module
        .imports
        .iter()
        .filter(|(_, import)| TYPEBOX.contains(&import.source.as_str()))
        .map(|(local, _)| local.as_str())
        .collect();
    let reader = Reader { file, types };
    for (name, value) in top_level_bindings(file) {
        let value = unwrap_parens(value);
        let found = match value.kind() {
            "call_expression" => reader.object(value).map(|fields| (fields, "typebox")),
            "object" => json_schema(file, value).map(|fields| (fields, "json-schema")),
            _ => None,
        };
        if let Some((fields, kind)) = found {
            out.push(PendingShape {
                shape: Shape {
                    name: name.to_owned(),
                    kind: kind.into(),
                    fields,
                    file: file.path.to_owned(),
                },
                bases: Vec::<Base>::new(),
                env_prefix: None,
                validation: Some(kind),
            });
        }
    }
}

struct Reader<'s, 'a> {
    file: &'s ParsedFile<'a>,
    types: Vec<&'s str>,
}

impl Reader<'_, '_> {
    /// `Type.X(args)` → (`X`, args) when `Type` is TypeBox's.
    fn call<'t>(&self, node: Node<'t>) -> Option<(&str, Vec<Node<'t>>)> {
        let node = unwrap_parens(node);
        let function = node.field("function").filter(|f| f.kind() == "member_expression")?;
        let object = self.file.text(function.field("object")?);
        self.types.contains(&object).then(|| {
            (
                self.file.text(function.field("property").unwrap_or(function)),
                arguments(node),
            )
        })
    }

    /// The fields of `Type.Object({…})`; `None` for anything else.
    fn object(&self, node: Node<'_>) -> Option<Vec<Field>> {
        let (name, args) = self.call(node)?;
        if name != "Object" {
            return None;
        }
        let object = args.first().filter(|o| o.kind() == "object")?;
        Some(
            named_children(*object)
                .into_iter()
                .filter(|entry| entry.kind() == "pair")
                .filter_map(|pair| {
                    let name = property_name(self.file, pair.field("key")?);
                    let (data_type, optional) = self.field_type(pair.field("value")?, 0);
                    Some(Field {
                        name,
                        data_type: Some(data_type),
                        optional,
                    })
                })
                .collect(),
        )
    }

    /// `Type.String()` → `string`, `Type.Array(Type.Number())` → `number[]`,
    /// `Type.Optional(X)` → X and optional, another schema's name as it is.
    fn field_type(&self, node: Node<'_>, depth: usize) -> (String, bool) {
        let Some((name, args)) = self.call(node) else {
            return (self.file.text(node).to_owned(), false);
        };
        let inner = |at: usize| match args.get(at) {
            Some(arg) if depth < MAX_DEPTH => self.field_type(*arg, depth + 1).0,
            _ => "unknown".to_owned(),
        };
        let kind = match name {
            "Optional" => return (inner(0), true),
            "Array" => format!("{}[]", inner(0)),
            "Literal" => args.first().map(|v| self.file.text(*v).to_owned()).unwrap_or_default(),
            "Union" => match args.first() {
                Some(list) if depth < MAX_DEPTH => named_children(*list)
                    .into_iter()
                    .map(|option| self.field_type(option, depth + 1).0)
                    .collect::<Vec<_>>()
                    .join(" | "),
                _ => "union".into(),
            },
            other => other.to_ascii_lowercase(),
        };
        (kind, false)
    }
}

/// `{ type: 'object', required: [...], properties: { a: { type: 'string' } } }` → its fields.
fn json_schema(file: &ParsedFile<'_>, object: Node<'_>) -> Option<Vec<Field>> {
    if property(file, object, "type").and_then(|t| string(file, t)).as_deref() != Some("object") {
        return None;
    }
    let properties = property(file, object, "properties").filter(|p| p.kind() == "object")?;
    let required: Vec<String> = property(file, object, "required")
        .map(|list| {
            named_children(list)
                .into_iter()
                .filter_map(|r| string(file, r))
                .collect()
        })
        .unwrap_or_default();
    Some(
        named_children(properties)
            .into_iter()
            .filter(|entry| entry.kind() == "pair")
            .filter_map(|pair| {
                let name = property_name(file, pair.field("key")?);
                let data_type = pair
                    .field("value")
                    .and_then(|value| property(file, value, "type"))
                    .and_then(|t| string(file, t));
                Some(Field {
                    optional: !required.contains(&name),
                    name,
                    data_type,
                })
            })
            .collect(),
    )
}
