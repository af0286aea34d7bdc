//! The string constants a file offers other files, by dotted name: top-level constants
//! (`API_PREFIX = "/api"`), the string properties of top-level object literals
//! (`config.api.prefix`, `default.prefix` for `export default {…}` and `module.exports = {…}`),
//! and in Python the string attributes of top-level classes (`Settings.API_V1_STR`), also
//! through a module-level instance (`settings = Settings()` gives `settings.API_V1_STR`).
//! Linking fills route prefixes written in another file with them.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{captured, top_level};
use crate::bridge::extract::syntax::literal::{Constants, unwrap_parens};
use crate::bridge::extract::syntax::{Grammar, ParsedFile, named_children};

/// How deep object literals are flattened.
const MAX_OBJECT_DEPTH: usize = 4;

/// Most constants one file offers (a generated table must not fill memory).
const MAX_CONSTANTS: usize = 2_000;

/// A file's string constants by dotted name.
pub type Exported = HashMap<String, String>;

impl Constants {
    /// Reads the top-level string constants of `file` (`const API = '/api'`, `PREFIX = "/v1"`,
    /// `const BASE: &str = "/api";`; `families/modules` finds them, see [`top_level`]).
    pub fn of(file: &ParsedFile<'_>) -> Constants {
        let mut constants = Constants::default();
        for hit in top_level(file)
            .iter()
            .filter(|hit| hit.text("constant.class").is_none())
        {
            if let (Some(name), Some(value)) = (hit.text("constant.name"), captured(file, hit, "constant.value"))
                && let Some(text) = constants.resolve(file, value)
            {
                constants.0.insert(name.to_owned(), text);
            }
        }
        constants
    }
}

/// The constants `file` offers, with its own top-level `constants` among them.
pub fn exported(file: &ParsedFile<'_>, constants: &Constants) -> Exported {
    let mut out: Exported = constants.0.clone();
    match file.grammar {
        Grammar::Python => python(file, constants, &mut out),
        Grammar::Rust => {}
        _ => script(file, constants, &mut out),
    }
    out
}

/// The objects of top-level constants, `export default {…}`, `module.exports = {…}` and
/// `module.exports.name = …` (a named constant too).
fn script(file: &ParsedFile<'_>, constants: &Constants, out: &mut Exported) {
    for hit in top_level(file) {
        if let (Some(name), Some(value)) = (hit.text("constant.name"), captured(file, hit, "constant.value")) {
            object(file, constants, value, name, 0, out);
            continue;
        }
        // The properties of `module.exports = { a, b: c }` are read as its object.
        let Some(value) = captured(file, hit, "export.value").filter(|_| hit.get("export.as").is_none()) else {
            continue;
        };
        let target = hit.text("export.target").unwrap_or("module.exports");
        if target == "module.exports" {
            object(file, constants, value, "default", 0, out);
        } else if let Some(name) = target
            .strip_prefix("module.exports.")
            .or_else(|| target.strip_prefix("exports."))
        {
            if let Some(text) = constants.resolve(file, value) {
                insert(out, name.to_owned(), text);
            }
            object(file, constants, value, name, 0, out);
        }
    }
}

/// The string properties of an object literal under `prefix.`.
fn object(
    file: &ParsedFile<'_>,
    constants: &Constants,
    value: Node<'_>,
    prefix: &str,
    depth: usize,
    out: &mut Exported,
) {
    let value = unwrap_parens(value);
    if value.kind() != "object" || depth > MAX_OBJECT_DEPTH {
        return;
    }
    for entry in named_children(value) {
        if entry.kind() != "pair" {
            continue;
        }
        let (Some(key), Some(inner)) = (entry.child_by_field_name("key"), entry.child_by_field_name("value")) else {
            continue;
        };
        if key.kind() == "computed_property_name" {
            continue;
        }
        // A string key unquoted, any other as written.
        let key = match key.kind() {
            "string" => constants.resolve(file, key).unwrap_or_default(),
            _ => file.text(key).to_owned(),
        };
        let name = format!("{prefix}.{key}");
        if let Some(text) = constants.resolve(file, inner) {
            insert(out, name.clone(), text);
        }
        object(file, constants, inner, &name, depth + 1, out);
    }
}

/// The string attributes of top-level classes, also through a module-level instance.
fn python(file: &ParsedFile<'_>, constants: &Constants, out: &mut Exported) {
    let hits = top_level(file);
    let mut classes: HashMap<&str, Vec<(&str, String)>> = HashMap::new();
    for hit in hits {
        if let (Some(class), Some(name), Some(value)) = (
            hit.text("constant.class"),
            hit.text("constant.name"),
            captured(file, hit, "constant.value"),
        ) && let Some(text) = constants.resolve(file, value)
        {
            insert(out, format!("{class}.{name}"), text.clone());
            classes.entry(class).or_default().push((name, text));
        }
    }
    // `settings = Settings()`: the instance has the class's attributes.
    for hit in hits.iter().filter(|hit| hit.text("constant.class").is_none()) {
        let (Some(name), Some(value)) = (hit.text("constant.name"), captured(file, hit, "constant.value")) else {
            continue;
        };
        let class = value.child_by_field_name("function").filter(|_| value.kind() == "call");
        for (attribute, text) in class
            .and_then(|class| classes.get(file.text(class)))
            .into_iter()
            .flatten()
        {
            insert(out, format!("{name}.{attribute}"), text.clone());
        }
    }
}

fn insert(out: &mut Exported, name: String, value: String) {
    if out.len() < MAX_CONSTANTS {
        out.insert(name, value);
    }
}
