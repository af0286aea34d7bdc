//! Single-file components (Vue `.vue`, Svelte `.svelte`): the file is a component named by
//! its file, and its `<script>` blocks, found with the HTML grammar, are code the rules read
//! in the language their `lang` names.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

use super::grammar::{Grammar, Parsers};
use super::hits::run;
use super::rule::Rule;
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

/// The rule finding a file's top-level `<script>` blocks (run here, on the HTML parse, not
/// among the catalog's).
static BLOCKS: LazyLock<Option<Rule>> = LazyLock::new(|| {
    Rule::read(
        "sfc/script-blocks",
        include_str!("families/sfc/script-blocks.scm"),
        |_| None,
    )
    .ok()
});

/// The file's top-level `<script>` blocks, each with the grammar its `lang` attribute names
/// (`ts` TypeScript, `tsx` TSX, anything else JavaScript).
pub fn script_blocks<'t>(source: &Source<'t>, parsers: &mut Parsers) -> Vec<Block<'t>> {
    let (Some(rule), Ok(tree)) = (BLOCKS.as_ref(), parsers.parse(Grammar::Html, source.text)) else {
        return Vec::new();
    };
    let hits = run(rule, Grammar::Html, &tree, source.text);
    let lang = |scope: &Range<usize>| {
        hits.iter()
            .filter(|hit| hit.get("block.scope").is_some_and(|have| have.range == *scope))
            .find_map(|hit| hit.text("block.lang"))
    };
    let mut blocks: Vec<(usize, Block<'t>)> = hits
        .iter()
        .filter_map(|hit| {
            let (scope, code) = (hit.get("block.scope")?, hit.text("block.code")?);
            let grammar = match lang(&scope.range).map(|lang| lang.trim_matches(['"', '\''])) {
                Some("ts" | "typescript") => Grammar::TypeScript,
                Some("tsx") => Grammar::Tsx,
                _ => Grammar::JavaScript,
            };
            let text = Cow::Borrowed(code);
            Some((scope.range.start, Block { grammar, text }))
        })
        .collect();
    blocks.sort_by_key(|(start, _)| *start);
    blocks.into_iter().map(|(_, block)| block).collect()
}
