//! TypeScript shapes: DTO classes (class-validator decorators, a `Dto` name, or Nest's
//! mapped types `PartialType`/`OmitType`/`PickType`), exported interfaces and object types.

use tree_sitter::Node;

use super::{Base, PendingShape};
use crate::bridge::extract::syntax::literal::{string, unwrap_parens};
use crate::bridge::extract::syntax::script::{annotation_text, arguments, class_members, decorator_name, has_token};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children};
use crate::bridge::facts::{Field, Shape};

/// Decorators that mark a field as optional.
const OPTIONAL_DECORATORS: &[&str] = &["IsOptional", "ApiPropertyOptional"];

/// How deep mapped types (`PartialType(OmitType(X, …))`) are unwrapped.
const MAX_MAPPED: usize = 4;

/// Reads the DTO classes, interfaces and object types of one file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingShape>) {
    index.each(
        &["class_declaration", "interface_declaration", "type_alias_declaration"],
        |node| match node.kind() {
            "class_declaration" => {
                if let Some(shape) = dto(file, node) {
                    out.push(shape);
                }
            }
            "interface_declaration" if exported(node) => {
                let Some(name) = file.field_text(node, "name") else {
                    return;
                };
                let bases = named_children(node)
                    .into_iter()
                    .filter(|child| child.kind() == "extends_type_clause")
                    .flat_map(|clause| type_names(file, clause))
                    .map(|name| Base::all(&name))
                    .collect();
                let fields = node
                    .field("body")
                    .map(|body| signatures(file, body))
                    .unwrap_or_default();
                out.push(pending(file, name, "interface", fields, bases));
            }
            "type_alias_declaration" if exported(node) => {
                let (Some(name), Some(value)) = (file.field_text(node, "name"), node.field("value")) else {
                    return;
                };
                let parts = if value.kind() == "intersection_type" {
                    named_children(value)
                } else {
                    vec![value]
                };
                if !parts.iter().any(|part| part.kind() == "object_type") {
                    return;
                }
                let mut fields = Vec::new();
                let mut bases = Vec::new();
                for part in parts {
                    match part.kind() {
                        "object_type" => fields.extend(signatures(file, part)),
                        "type_identifier" => bases.push(Base::all(file.text(part))),
                        _ => {}
                    }
                }
                out.push(pending(file, name, "type", fields, bases));
            }
            _ => {}
        },
    );
}

fn exported(node: Node<'_>) -> bool {
    node.parent().is_some_and(|parent| parent.kind() == "export_statement")
}

fn pending(file: &ParsedFile<'_>, name: &str, kind: &str, fields: Vec<Field>, bases: Vec<Base>) -> PendingShape {
    PendingShape {
        shape: Shape {
            name: name.to_owned(),
            kind: kind.to_owned(),
            fields,
            file: file.path.to_owned(),
        },
        bases,
        env_prefix: None,
        validation: None,
    }
}

/// The type names an `extends` clause lists (`extends A, B<C>` → A, B).
pub fn type_names(file: &ParsedFile<'_>, clause: Node<'_>) -> Vec<String> {
    named_children(clause)
        .into_iter()
        .filter_map(|kind| match kind.kind() {
            "type_identifier" => Some(file.text(kind).to_owned()),
            "generic_type" => file.field_text(kind, "name").map(str::to_owned),
            _ => None,
        })
        .collect()
}

/// The property signatures of an interface body or object type.
fn signatures(file: &ParsedFile<'_>, body: Node<'_>) -> Vec<Field> {
    named_children(body)
        .into_iter()
        .filter(|member| member.kind() == "property_signature")
        .filter_map(|member| {
            Some(Field {
                name: file.field_text(member, "name")?.to_owned(),
                data_type: member.field("type").map(|t| annotation_text(file, t).to_owned()),
                optional: has_token(member, "?"),
            })
        })
        .collect()
}

/// A class that is a DTO: validated fields, a `Dto` name, or a mapped-type base.
fn dto(file: &ParsedFile<'_>, class: Node<'_>) -> Option<PendingShape> {
    let name = file.field_text(class, "name")?;
    let body = class.field("body")?;
    let mut validated = false;
    let mut checked = false;
    let mut fields = Vec::new();
    for (decorators, member) in class_members(body) {
        if member.kind() != "public_field_definition" || has_modifier(file, member) {
            continue;
        }
        let Some(field_name) = member.field("name").filter(|n| n.kind() == "property_identifier") else {
            continue;
        };
        let names: Vec<&str> = decorators.iter().filter_map(|d| decorator_name(file, *d)).collect();
        validated |= !names.is_empty();
        checked |= names.iter().any(|n| is_class_validator(n));
        fields.push(Field {
            name: file.text(field_name).to_owned(),
            data_type: member.field("type").map(|t| annotation_text(file, t).to_owned()),
            optional: has_token(member, "?") || names.iter().any(|n| OPTIONAL_DECORATORS.contains(n)),
        });
    }
    let bases = heritage(file, class);
    let named_dto = name.ends_with("Dto") || name.ends_with("DTO");
    let mapped = bases.iter().any(|base| *base != Base::all(&base.name));
    let mut shape = (validated || named_dto || mapped).then(|| pending(file, name, "dto", fields, bases))?;
    shape.validation = checked.then_some("class-validator");
    Some(shape)
}

/// class-validator's decorators: `@IsEmail()`, `@IsNotEmpty()`, `@MinLength(8)`, `@ValidateNested()`, ….
fn is_class_validator(decorator: &str) -> bool {
    (decorator.starts_with("Is") && decorator.len() > 2 && decorator[2..].starts_with(char::is_uppercase))
        || matches!(
            decorator,
            "Min"
                | "Max"
                | "MinLength"
                | "MaxLength"
                | "Length"
                | "Matches"
                | "Contains"
                | "ValidateNested"
                | "ArrayMinSize"
                | "ArrayMaxSize"
                | "ArrayNotEmpty"
                | "Equals"
                | "NotEquals"
                | "ValidateIf"
        )
}

/// `static`, `private`, `protected` and `readonly`-less internals are not part of a DTO's shape.
fn has_modifier(file: &ParsedFile<'_>, member: Node<'_>) -> bool {
    (0..member.child_count())
        .filter_map(|at| member.child(at as u32))
        .any(|child| {
            child.kind() == "static"
                || child.kind() == "accessibility_modifier" && matches!(file.text(child), "private" | "protected")
        })
}

/// The bases of a class: `extends X`, `extends PartialType(X)`, `OmitType(X, ['a'])`, `PickType(…)`.
fn heritage(file: &ParsedFile<'_>, class: Node<'_>) -> Vec<Base> {
    let Some(heritage) = named_children(class).into_iter().find(|c| c.kind() == "class_heritage") else {
        return Vec::new();
    };
    let Some(value) = named_children(heritage)
        .into_iter()
        .find(|c| c.kind() == "extends_clause")
        .and_then(|clause| clause.field("value"))
    else {
        return Vec::new();
    };
    mapped_base(file, value, 0)
}

/// The bases a class's `extends` value names, mapped types applied from the inside out.
fn mapped_base(file: &ParsedFile<'_>, node: Node<'_>, depth: usize) -> Vec<Base> {
    match node.kind() {
        "identifier" => vec![Base::all(file.text(node))],
        "call_expression" if depth < MAX_MAPPED => {
            let args = arguments(node);
            let Some(function) = file.field_text(node, "function") else {
                return Vec::new();
            };
            if function == "IntersectionType" {
                return args.iter().flat_map(|arg| mapped_base(file, *arg, depth + 1)).collect();
            }
            let keys: Vec<String> = args
                .get(1)
                .map(|list| {
                    named_children(unwrap_parens(*list))
                        .into_iter()
                        .filter_map(|k| string(file, k))
                        .collect()
                })
                .unwrap_or_default();
            let mut inner = args
                .first()
                .map(|arg| mapped_base(file, *arg, depth + 1))
                .unwrap_or_default();
            for base in &mut inner {
                match function {
                    "PartialType" => base.optional = Some(true),
                    "OmitType" => base.omit.extend(keys.iter().cloned()),
                    "PickType" => base.pick = Some(keys.clone()),
                    _ => return Vec::new(),
                }
            }
            inner
        }
        _ => Vec::new(),
    }
}
