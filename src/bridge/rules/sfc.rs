//! Single-file components (Vue `.vue`, Svelte `.svelte`): the file is a component named by
//! its file, and its `<script>` blocks, found with the HTML grammar, are code the rules read
//! in the language their `lang` names.

use std::borrow::Cow;

use super::grammar::{Grammar, Parsers};
use crate::bridge::extract::syntax::{Walk, walk};
use crate::bridge::facts::Component;
use crate::bridge::source::Source;

/// The kinds of single-file component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Vue,
    Svelte,
}

impl Kind {
    /// The kind of a path by its extension.
    pub fn of_path(path: &str) -> Option<Kind> {
        let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "vue" => Some(Kind::Vue),
            "svelte" => Some(Kind::Svelte),
            _ => None,
        }
    }

    fn framework(self) -> &'static str {
        match self {
            Kind::Vue => "vue",
            Kind::Svelte => "svelte",
        }
    }
}

/// A block of code inside a component file.
pub struct Block<'t> {
    pub grammar: Grammar,
    /// The block's code: a slice of the file, or text made from it (ERB's tags).
    pub text: Cow<'t, str>,
}

/// The component a file is: named by its file name (`UserCard.vue` → `UserCard`), an `index`
/// file by its folder (`ArticleList/index.svelte` → `ArticleList`, the name it is imported
/// as). SvelteKit's `+page.svelte`, `+layout.svelte` and `+error.svelte` are routes, not
/// components.
pub fn component(source: &Source<'_>, kind: Kind) -> Option<Component> {
    let stem = source.file_name().rsplit_once('.')?.0;
    let stem = match source.path.rsplit('/').nth(1) {
        Some(folder) if stem == "index" => folder,
        _ => stem,
    };
    if stem.is_empty() || stem.starts_with('+') {
        return None;
    }
    Some(Component {
        name: stem.to_owned(),
        kind: kind.framework().to_owned(),
        file: source.path.to_owned(),
    })
}

/// The file's top-level `<script>` blocks, each with the grammar its `lang` attribute names
/// (`ts` TypeScript, `tsx` TSX, anything else JavaScript).
pub fn script_blocks<'t>(source: &Source<'t>, parsers: &mut Parsers) -> Vec<Block<'t>> {
    let Ok(tree) = parsers.parse(Grammar::Html, source.text) else {
        return Vec::new();
    };
    let text = |node: tree_sitter::Node<'_>| source.text.get(node.byte_range()).unwrap_or("");
    let mut blocks = Vec::new();
    walk(tree.root_node(), |node| {
        if node.kind() != "script_element" {
            return if node.kind() == "document" {
                Walk::Enter
            } else {
                Walk::Skip
            };
        }
        let mut grammar = Grammar::JavaScript;
        let mut code = None;
        let mut children = node.walk();
        for child in node.named_children(&mut children) {
            match child.kind() {
                "start_tag" => {
                    let mut attributes = child.walk();
                    for attribute in child
                        .named_children(&mut attributes)
                        .filter(|a| a.kind() == "attribute")
                    {
                        let mut parts = attribute.walk();
                        let parts: Vec<_> = attribute.named_children(&mut parts).collect();
                        let name = parts.first().map(|n| text(*n)).unwrap_or("");
                        let value = parts.get(1).map(|n| text(*n).trim_matches(['"', '\''])).unwrap_or("");
                        if name == "lang" {
                            grammar = match value {
                                "ts" | "typescript" => Grammar::TypeScript,
                                "tsx" => Grammar::Tsx,
                                _ => Grammar::JavaScript,
                            };
                        }
                    }
                }
                "raw_text" => code = Some(text(child)),
                _ => {}
            }
        }
        if let Some(code) = code {
            blocks.push(Block {
                grammar,
                text: Cow::Borrowed(code),
            });
        }
        Walk::Skip
    });
    blocks
}
