//! Rust structs that derive serde's `Serialize`/`Deserialize`: the bodies a handler takes or
//! returns as `Json<T>`. Field names are the ones on the wire: `#[serde(rename_all = …)]` on the
//! struct and `#[serde(rename = …)]` on a field applied; `Option<T>` fields and
//! `#[serde(default)]` ones are optional. Linking keeps the structs the run's endpoints name.

use tree_sitter::Node;

use super::{Base, PendingShape};
use crate::bridge::extract::syntax::rust::{attribute_arguments, attribute_name, attributes_before};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, named_children};
use crate::bridge::facts::{Field, Shape};

/// Reads the serde structs of one Rust file into `out`. A field of a generic parameter's type
/// has the parameter's default as its type (`struct Body<T = Article> { article: T }` holds an
/// `Article`).
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, out: &mut Vec<PendingShape>) {
    index.each(&["struct_item"], |item| {
        let Some(name) = file.field_text(item, "name") else {
            return;
        };
        let attributes = attributes_before(item);
        let derives_serde = attributes.iter().any(|attribute| {
            attribute_name(file, *attribute) == "derive" && {
                let text = file.text(*attribute);
                text.contains("Serialize") || text.contains("Deserialize")
            }
        });
        if !derives_serde {
            return;
        }
        let rename_all = serde_option(file, &attributes, "rename_all");
        let defaults = item
            .field("type_parameters")
            .map(|params| generic_defaults(file, params))
            .unwrap_or_default();
        let mut fields = item
            .field("body")
            .filter(|body| body.kind() == "field_declaration_list")
            .map(|body| fields(file, body, rename_all.as_deref()))
            .unwrap_or_default();
        for field in &mut fields {
            if let Some((_, default)) = defaults
                .iter()
                .find(|(param, _)| field.data_type.as_deref() == Some(param.as_str()))
            {
                field.data_type = Some(default.clone());
            }
        }
        out.push(PendingShape {
            shape: Shape {
                name: name.to_owned(),
                kind: "serde".into(),
                fields,
                file: file.path.to_owned(),
            },
            bases: Vec::<Base>::new(),
            env_prefix: None,
            validation: None,
        });
    });
}

/// `#[serde(key = "value")]` among `attributes`.
fn serde_option(file: &ParsedFile<'_>, attributes: &[Node<'_>], key: &str) -> Option<String> {
    attributes
        .iter()
        .filter(|a| attribute_name(file, **a) == "serde")
        .find_map(|a| {
            attribute_arguments(file, *a)
                .1
                .into_iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
        })
}

fn fields(file: &ParsedFile<'_>, body: Node<'_>, rename_all: Option<&str>) -> Vec<Field> {
    named_children(body)
        .into_iter()
        .filter(|field| field.kind() == "field_declaration")
        .filter_map(|field| {
            let name = file.field_text(field, "name")?;
            let attributes = attributes_before(field);
            if serde_flag(file, &attributes, "skip") || serde_flag(file, &attributes, "flatten") {
                return None;
            }
            let data_type = file.field_text(field, "type").map(str::to_owned);
            let optional = data_type.as_deref().is_some_and(|t| t.starts_with("Option<"))
                || serde_flag(file, &attributes, "default");
            let wire = serde_option(file, &attributes, "rename").unwrap_or_else(|| renamed(name, rename_all));
            Some(Field {
                name: wire,
                data_type,
                optional,
            })
        })
        .collect()
}

/// `#[serde(skip)]`, `#[serde(default)]`: a bare flag among `attributes`.
fn serde_flag(file: &ParsedFile<'_>, attributes: &[Node<'_>], flag: &str) -> bool {
    attributes
        .iter()
        .filter(|a| attribute_name(file, **a) == "serde")
        .any(|a| {
            attribute_arguments(file, *a)
                .1
                .iter()
                .any(|(k, v)| k == flag && v.is_empty())
        })
}

/// `struct Body<T = Article>` → `[(T, Article)]`.
fn generic_defaults(file: &ParsedFile<'_>, params: Node<'_>) -> Vec<(String, String)> {
    named_children(params)
        .into_iter()
        .filter_map(|param| {
            let (name, default) = file.text(param).split_once('=')?;
            Some((name.trim().to_owned(), default.trim().to_owned()))
        })
        .collect()
}

/// A snake_case field name as serde's `rename_all` writes it.
pub fn renamed(name: &str, rename_all: Option<&str>) -> String {
    let words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
    let capital = |word: &str| {
        let mut chars = word.chars();
        chars
            .next()
            .map(|first| first.to_uppercase().chain(chars).collect::<String>())
            .unwrap_or_default()
    };
    match rename_all {
        Some("camelCase") => words
            .iter()
            .enumerate()
            .map(|(at, w)| if at == 0 { w.to_string() } else { capital(w) })
            .collect(),
        Some("PascalCase") => words.iter().map(|w| capital(w)).collect(),
        Some("kebab-case") => words.join("-"),
        Some("SCREAMING_SNAKE_CASE") => name.to_ascii_uppercase(),
        Some("lowercase") => name.to_ascii_lowercase(),
        Some("UPPERCASE") => name.to_ascii_uppercase(),
        _ => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::renamed;

    #[test]
    fn wire_names_and_optional_fields() {
        let text = "#[derive(Deserialize)]\n#[serde(rename_all = \"camelCase\")]\nstruct NewUser {\n    display_name: String,\n    #[serde(default)]\n    newsletter: bool,\n    #[serde(rename = \"e-mail\")]\n    email: Option<String>,\n    #[serde(skip)]\n    cache: u8,\n}\n";
        let file = crate::bridge::extract::syntax::tests::parsed("a.rs", text);
        let index = crate::bridge::extract::syntax::NodeIndex::of(&file);
        let mut out = Vec::new();
        super::scan(&file, &index, &mut out);
        let fields: Vec<String> = out[0]
            .shape
            .fields
            .iter()
            .map(|f| format!("{}{}", f.name, if f.optional { "?" } else { "" }))
            .collect();
        assert_eq!(fields, ["displayName", "newsletter?", "e-mail?"]);
    }

    #[test]
    fn rename_all_writes_the_wire_names() {
        assert_eq!(renamed("created_at", Some("camelCase")), "createdAt");
        assert_eq!(renamed("created_at", Some("PascalCase")), "CreatedAt");
        assert_eq!(renamed("created_at", Some("kebab-case")), "created-at");
        assert_eq!(renamed("created_at", Some("SCREAMING_SNAKE_CASE")), "CREATED_AT");
        assert_eq!(renamed("created_at", None), "created_at");
    }
}
