//! Joi schemas: `const createUser = { body: Joi.object().keys({ … }) }` (the shape Express's
//! `validate(createUser)` checks a request against: the `body` part is the request shape) and
//! `const user = Joi.object({ … })`, each field with its type and whether `.required()`.
//! Schemas that check only the query or the path are validation, not a body shape.

use tree_sitter::Node;

use super::{Base, PendingShape};
use crate::bridge::extract::code::modules::script::ScriptModule;
use crate::bridge::extract::syntax::literal::unwrap_parens;
use crate::bridge::extract::syntax::script::{member_chain, property, property_name, top_level_bindings};
use crate::bridge::extract::syntax::{Fields, ParsedFile, named_children};
use crate::bridge::facts::{Field, Guard, Shape};

/// Reads the top-level Joi schemas of one file: body shapes into `shapes`, query- or
/// path-only ones as validation guards into `guards`.
pub fn scan(file: &ParsedFile<'_>, module: &ScriptModule, shapes: &mut Vec<PendingShape>, guards: &mut Vec<Guard>) {
    let joi: Vec<&str> = module
        .imports
        .iter()
        .filter(|(_, import)| matches!(import.source.as_str(), "joi" | "@hapi/joi" | "celebrate"))
        .map(|(local, _)| local.as_str())
        .collect();
    if joi.is_empty() {
        return;
    }
    let reader = Reader { file, joi };
    for (name, value) in top_level_bindings(file) {
        let value = unwrap_parens(value);
        let (body, parts) = if value.kind() == "object" {
            let parts = ["body", "query", "params", "headers"]
                .iter()
                .filter(|part| property(file, value, part).is_some_and(|v| reader.fields(v).is_some()))
                .count();
            (
                property(file, value, "body").and_then(|body| reader.fields(body)),
                parts,
            )
        } else {
            (reader.fields(value), 0)
        };
        match body {
            Some(fields) => shapes.push(PendingShape {
                shape: Shape {
                    name: name.to_owned(),
                    kind: "joi".into(),
                    fields,
                    file: file.path.to_owned(),
                },
                bases: Vec::<Base>::new(),
                env_prefix: None,
                validation: Some("joi"),
            }),
            None if parts > 0 => guards.push(Guard {
                name: name.to_owned(),
                kind: "validation".into(),
                framework: Some("joi".into()),
                file: file.path.to_owned(),
                ..Guard::default()
            }),
            None => {}
        }
    }
}

struct Reader<'s, 'a> {
    file: &'s ParsedFile<'a>,
    joi: Vec<&'s str>,
}

impl Reader<'_, '_> {
    /// The fields of `Joi.object({…})` / `Joi.object().keys({…})`; `None` if it is no object schema.
    fn fields(&self, value: Node<'_>) -> Option<Vec<Field>> {
        let (base, calls) = member_chain(self.file, value);
        if !self.is_joi(base) || calls.first().is_none_or(|first| first.name != "object") {
            return None;
        }
        let mut fields = Vec::new();
        for call in &calls {
            if matches!(call.name.as_str(), "object" | "keys" | "append")
                && let Some(object) = call.args.first().filter(|o| o.kind() == "object")
            {
                fields.extend(self.entries(*object));
            }
        }
        Some(fields)
    }

    fn entries(&self, object: Node<'_>) -> Vec<Field> {
        named_children(object)
            .into_iter()
            .filter(|entry| entry.kind() == "pair")
            .filter_map(|pair| {
                let name = property_name(self.file, pair.field("key")?);
                let (base, calls) = member_chain(self.file, pair.field("value")?);
                let data_type = match calls.first() {
                    Some(first) if self.is_joi(base) => first.name.clone(),
                    _ => self.file.text(base).to_owned(),
                };
                let required = calls.iter().any(|call| call.name == "required");
                Some(Field {
                    name,
                    data_type: Some(data_type),
                    optional: !required,
                })
            })
            .collect()
    }

    fn is_joi(&self, node: Node<'_>) -> bool {
        self.joi.contains(&self.file.text(node))
    }
}
