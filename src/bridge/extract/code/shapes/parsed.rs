//! Request shapes a handler states by validating its body: `Schema.parse(await req.json())`,
//! `const json = await request.json(); postPatchSchema.parse(json)`, `schema.safeParse(req.body)`,
//! `Value.Parse(Schema, body)` (TypeBox), `Schema.parse(Object.fromEntries(await request.formData()))`.

use tree_sitter::Node;

use crate::bridge::extract::syntax::literal::unwrap_parens;
use crate::bridge::extract::syntax::script::arguments;
use crate::bridge::extract::syntax::{Fields, ParsedFile, Walk, walk};

/// Methods of a schema that validate a value (zod, yup, superstruct, valibot's `parse(schema, v)`).
const PARSE_METHODS: &[&str] = &[
    "parse",
    "parseAsync",
    "safeParse",
    "safeParseAsync",
    "validate",
    "validateSync",
];

/// TypeBox's `Value.Parse(Schema, value)` and friends: the schema comes first.
const VALUE_FUNCTIONS: &[&str] = &["Value.Parse", "Value.Check", "Value.Decode", "Value.Assert"];

/// Most nodes of one handler searched.
const MAX_NODES: usize = 20_000;

/// How a request body is read: `await req.json()`, `req.body`, `await request.formData()`.
fn reads_body(text: &str) -> bool {
    text.contains(".json()") || text.contains(".body") || text.contains("formData()") || text == "body"
}

/// The names of the schemas a handler function validates its request body with, in order.
pub fn parsed_bodies(file: &ParsedFile<'_>, function: Node<'_>) -> Vec<String> {
    let function = unwrap_parens(function);
    // Most handlers validate nothing: no walk without a call that could.
    let text = file.text(function);
    if !(text.contains("arse") || text.contains("alidate") || text.contains("Value.")) {
        return Vec::new();
    }
    if !matches!(
        function.kind(),
        "arrow_function" | "function_expression" | "function" | "function_declaration" | "method_definition"
    ) {
        return Vec::new();
    }
    let mut bodies: Vec<String> = Vec::new();
    let mut schemas: Vec<String> = Vec::new();
    let mut budget = MAX_NODES;
    walk(function, |node| {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            return Walk::Stop;
        }
        match node.kind() {
            "variable_declarator" => {
                if let (Some(name), Some(value)) = (node.field("name"), node.field("value"))
                    && name.kind() == "identifier"
                    && reads_body(file.text(value))
                {
                    bodies.push(file.text(name).to_owned());
                }
            }
            "call_expression" => {
                if let Some(schema) = validated_schema(file, node, &bodies)
                    && !schemas.contains(&schema)
                {
                    schemas.push(schema);
                }
            }
            _ => {}
        }
        Walk::Enter
    });
    schemas
}

/// The schema a call validates a body with, if it is such a call.
fn validated_schema(file: &ParsedFile<'_>, call: Node<'_>, bodies: &[String]) -> Option<String> {
    let function = call.field("function")?;
    let args = arguments(call);
    let is_body = |arg: &Node<'_>| {
        let text = file.text(unwrap_parens(*arg));
        reads_body(text) || bodies.iter().any(|body| body == text)
    };
    if VALUE_FUNCTIONS.contains(&file.text(function)) {
        let (schema, value) = (args.first()?, args.get(1)?);
        return (is_body(value) && matches!(schema.kind(), "identifier" | "member_expression"))
            .then(|| file.text(*schema).to_owned());
    }
    if function.kind() != "member_expression" {
        return None;
    }
    let method = file.text(function.field("property")?);
    let schema = function.field("object")?;
    (PARSE_METHODS.contains(&method)
        && matches!(schema.kind(), "identifier" | "member_expression")
        && args.first().is_some_and(is_body))
    .then(|| file.text(schema).to_owned())
}
