//! zod schemas: `const createUser = z.object({ … })` with each field's type and optionality,
//! and schemas built from others (`base.extend({ … })`, `.merge()`, `.partial()`, `.pick()`,
//! `.omit()`).

use tree_sitter::Node;

use super::{Base, PendingShape};
use crate::bridge::extract::code::modules::script::ScriptModule;
use crate::bridge::extract::syntax::literal::string;
use crate::bridge::extract::syntax::script::{ChainCall, keys, member_chain, property_name, top_level_bindings};
use crate::bridge::extract::syntax::{Fields, ParsedFile, named_children};
use crate::bridge::facts::{Field, Shape};

/// How deep nested field types (`z.array(z.array(…))`) are read.
const MAX_TYPE_DEPTH: usize = 6;

/// Reads the top-level zod object schemas of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, module: &ScriptModule, out: &mut Vec<PendingShape>) {
    let zod: Vec<&str> = module
        .imports
        .iter()
        .filter(|(_, import)| import.source == "zod" || import.source.starts_with("zod/"))
        .map(|(local, _)| local.as_str())
        .collect();
    if zod.is_empty() {
        return;
    }
    let reader = Reader { file, zod };
    for (name, value) in top_level_bindings(file) {
        if let Some((fields, bases)) = reader.object(value, 0) {
            out.push(PendingShape {
                shape: Shape {
                    name: name.to_owned(),
                    kind: "zod".into(),
                    fields,
                    file: file.path.to_owned(),
                },
                bases,
                env_prefix: None,
                validation: Some("zod"),
            });
        }
    }
}

struct Reader<'s, 'a> {
    file: &'s ParsedFile<'a>,
    zod: Vec<&'s str>,
}

impl Reader<'_, '_> {
    /// The fields and bases of an object schema expression; `None` if it is no object schema.
    fn object(&self, value: Node<'_>, depth: usize) -> Option<(Vec<Field>, Vec<Base>)> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let (base, calls) = member_chain(self.file, value);
        let (mut fields, mut bases, rest) = match calls.split_first() {
            Some((first, rest)) if self.is_zod(base) && is_object(&first.name) => {
                (self.fields(first.args.first().copied()?), Vec::new(), rest)
            }
            Some(_) if base.kind() == "identifier" && !self.is_zod(base) => {
                (Vec::new(), vec![Base::all(self.file.text(base))], calls.as_slice())
            }
            _ => return None,
        };
        for call in rest {
            self.apply(call, &mut fields, &mut bases, depth)?;
        }
        Some((fields, bases))
    }

    /// One chained call on an object schema; `None` if it turns the schema into something else.
    fn apply(&self, call: &ChainCall<'_>, fields: &mut Vec<Field>, bases: &mut Vec<Base>, depth: usize) -> Option<()> {
        let mask = || {
            call.args
                .first()
                .map(|object| keys(self.file, *object))
                .unwrap_or_default()
        };
        match call.name.as_str() {
            "extend" => fields.extend(self.fields(call.args.first().copied()?)),
            "merge" => {
                let other = call.args.first()?;
                match self.object(*other, depth + 1) {
                    Some((more, more_bases)) => {
                        fields.extend(more);
                        bases.extend(more_bases);
                    }
                    None => bases.push(Base::all(self.file.text(*other))),
                }
            }
            "partial" | "deepPartial" | "required" => {
                let optional = call.name != "required";
                fields.iter_mut().for_each(|field| field.optional = optional);
                bases.iter_mut().for_each(|base| base.optional = Some(optional));
            }
            "pick" => {
                let keep = mask();
                fields.retain(|field| keep.contains(&field.name));
                bases.iter_mut().for_each(|base| base.pick = Some(keep.clone()));
            }
            "omit" => {
                let drop = mask();
                fields.retain(|field| !drop.contains(&field.name));
                bases.iter_mut().for_each(|base| base.omit.extend(drop.iter().cloned()));
            }
            "strict" | "passthrough" | "strip" | "refine" | "superRefine" | "describe" | "openapi" | "catchall"
            | "brand" | "readonly" => {}
            _ => return None,
        }
        Some(())
    }

    fn is_zod(&self, node: Node<'_>) -> bool {
        let text = self.file.text(node);
        let root = text.split('.').next().unwrap_or(text);
        self.zod.contains(&root)
    }

    /// The fields of a `{ name: z.string(), … }` literal.
    fn fields(&self, object: Node<'_>) -> Vec<Field> {
        named_children(object)
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
            .collect()
    }

    /// `z.string().email()` → `string`; `z.array(z.number())` → `number[]`; `.optional()` → optional.
    fn field_type(&self, value: Node<'_>, depth: usize) -> (String, bool) {
        let (base, calls) = member_chain(self.file, value);
        let (mut kind, modifiers) = if self.is_zod(base) {
            let Some((first, rest)) = calls.split_first() else {
                return ("unknown".into(), false);
            };
            (self.zod_type(first, depth), rest)
        } else {
            (self.file.text(base).to_owned(), calls.as_slice())
        };
        let mut optional = false;
        for call in modifiers {
            match call.name.as_str() {
                "optional" | "nullish" | "default" | "catch" => optional = true,
                "nullable" => kind.push_str(" | null"),
                "array" => kind.push_str("[]"),
                _ => {}
            }
        }
        (kind, optional)
    }

    fn zod_type(&self, call: &ChainCall<'_>, depth: usize) -> String {
        let inner = |at: usize| -> String {
            match call.args.get(at) {
                Some(arg) if depth < MAX_TYPE_DEPTH => self.field_type(*arg, depth + 1).0,
                _ => "unknown".into(),
            }
        };
        match call.name.as_str() {
            "array" => format!("{}[]", inner(0)),
            "enum" => {
                let values: Vec<String> = call
                    .args
                    .first()
                    .map(|list| {
                        named_children(*list)
                            .into_iter()
                            .filter_map(|v| string(self.file, v))
                            .collect()
                    })
                    .unwrap_or_default();
                if values.is_empty() {
                    "enum".into()
                } else {
                    values.iter().map(|v| format!("'{v}'")).collect::<Vec<_>>().join(" | ")
                }
            }
            "literal" => call
                .args
                .first()
                .map(|v| self.file.text(*v).to_owned())
                .unwrap_or_default(),
            "union" => match call.args.first() {
                Some(list) if depth < MAX_TYPE_DEPTH => named_children(*list)
                    .into_iter()
                    .map(|option| self.field_type(option, depth + 1).0)
                    .collect::<Vec<_>>()
                    .join(" | "),
                _ => "union".into(),
            },
            "nativeEnum" => call
                .args
                .first()
                .map(|e| self.file.text(*e).to_owned())
                .unwrap_or_default(),
            "record" => format!("record<string, {}>", inner(call.args.len().saturating_sub(1))),
            "email" | "uuid" | "url" | "cuid" | "iso" => "string".into(),
            name if is_object(name) => "object".into(),
            name => name.to_owned(),
        }
    }
}

fn is_object(name: &str) -> bool {
    matches!(name, "object" | "strictObject" | "looseObject")
}
