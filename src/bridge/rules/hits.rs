//! Running one rule over one tree: each match of its query becomes a [`Hit`], the captures by
//! name with their text and place, and the `#set!` values of the pattern that matched.

use std::collections::HashSet;
use std::ops::Range;

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Query, QueryCursor, QueryMatch, QueryPredicateArg, QueryProperty, Tree};

use super::grammar::Grammar;
use super::lower;
use super::rule::Rule;
use crate::bridge::code_model::guards::names::{is_auth_name, is_check_name};

/// In-progress matches a query may keep at once; a pathological file stops matching there
/// instead of taking time and memory without bound.
const MATCH_LIMIT: u32 = 256;

/// One match of a rule's query.
pub struct Hit<'t> {
    pub rule: &'static Rule,
    pub captures: Vec<Capture<'t>>,
    /// The `#set! key value` lines of the pattern that matched.
    props: &'static [QueryProperty],
    /// The indices of the captures the match holds (also `_` ones): a `#set! @capture key
    /// value` holds only when its capture is among them.
    present: Vec<u32>,
}

/// One captured node: the capture's name (`endpoint.path`), its text and its byte range.
#[derive(Debug, Clone)]
pub struct Capture<'t> {
    pub name: &'static str,
    pub text: &'t str,
    pub range: Range<usize>,
}

impl<'t> Hit<'t> {
    /// The first capture named `name`.
    pub fn get(&self, name: &str) -> Option<&Capture<'t>> {
        self.captures.iter().find(|capture| capture.name == name)
    }

    /// The text of the first capture named `name`.
    pub fn text(&self, name: &str) -> Option<&'t str> {
        self.get(name).map(|capture| capture.text)
    }

    /// Every capture named `name`, in the file's order.
    pub fn all<'h>(&'h self, name: &'h str) -> impl Iterator<Item = &'h Capture<'t>> + 'h {
        self.captures.iter().filter(move |capture| capture.name == name)
    }

    /// True if some capture's name starts with `prefix.` (the fact the hit is about).
    pub fn is(&self, fact: &str) -> bool {
        self.captures.iter().any(|capture| {
            capture
                .name
                .strip_prefix(fact)
                .is_some_and(|rest| rest.starts_with('.'))
        })
    }

    /// The value the pattern `#set!`s for `key`: `(#set! key value)`, or `(#set! @capture key
    /// value)` when the match holds that capture (the branch of an alternation it is in).
    pub fn prop(&self, key: &str) -> Option<&'static str> {
        self.props
            .iter()
            .filter(|property| {
                property
                    .capture_id
                    .is_none_or(|id| self.present.iter().any(|have| *have as usize == id))
            })
            .find(|property| &*property.key == key)
            .and_then(|property| property.value.as_deref())
    }

    /// The facts' framework: the pattern's `#set! framework`, else the rule file's.
    pub fn framework(&self) -> &'static str {
        self.prop("framework").unwrap_or(&self.rule.framework)
    }
}

/// True if `range` lies within `scope` (and is not the scope itself).
pub fn inside(range: &Range<usize>, scope: &Range<usize>) -> bool {
    scope.start <= range.start && range.end <= scope.end && range != scope
}

/// Every match of `rule` in `tree` (the parse of `text` in `grammar`).
pub fn run<'t>(rule: &'static Rule, grammar: Grammar, tree: &Tree, text: &'t str) -> Vec<Hit<'t>> {
    let query = rule.query(grammar);
    query.map_or_else(Vec::new, |query| run_query(query, tree, text, |_| Some(rule)))
}

/// Every match of `query` in `tree` (the parse of `text`) whose pattern `owner` gives a rule
/// for (a joined query's patterns come from several rules, and a file wants some of them).
pub fn run_query<'t>(
    query: &'static Query,
    tree: &Tree,
    text: &'t str,
    owner: impl Fn(usize) -> Option<&'static Rule>,
) -> Vec<Hit<'t>> {
    run_from(query, tree.root_node(), text, None, owner)
}

/// [`run_query`] below `root` (a tree's root or one of its nodes), with matches starting at
/// most `max_start_depth` levels below it (the cursor then skips the subtrees no pattern can
/// reach).
pub fn run_from<'t>(
    query: &'static Query,
    root: Node<'_>,
    text: &'t str,
    max_start_depth: Option<u32>,
    owner: impl Fn(usize) -> Option<&'static Rule>,
) -> Vec<Hit<'t>> {
    let names = query.capture_names();
    let mut cursor = QueryCursor::new();
    cursor.set_match_limit(MATCH_LIMIT);
    cursor.set_max_start_depth(max_start_depth);
    let mut matches = cursor.matches(query, root, text.as_bytes());
    let mut hits = Vec::new();
    // What each match holds but the kinds of lowered nodes: matches differing only there are
    // one (as tree-sitter makes them one when those nodes are not captured).
    let mut seen: HashSet<(usize, Vec<(u32, usize)>)> = HashSet::new();
    while let Some(found) = matches.next() {
        let Some(rule) = owner(found.pattern_index) else {
            continue;
        };
        if !predicates_hold(query, found, text) {
            continue;
        }
        let is_kind = |index: u32| {
            names
                .get(index as usize)
                .is_some_and(|name| name.starts_with(lower::KIND_CAPTURE))
        };
        if found.captures.iter().any(|capture| is_kind(capture.index)) {
            let held: Vec<(u32, usize)> = found
                .captures
                .iter()
                .filter(|capture| !is_kind(capture.index))
                .map(|capture| (capture.index, capture.node.id()))
                .collect();
            if !seen.insert((found.pattern_index, held)) {
                continue;
            }
        }
        let mut captures: Vec<Capture<'t>> = found
            .captures
            .iter()
            .filter_map(|capture| {
                let name = *names.get(capture.index as usize)?;
                // `_name` captures only serve predicates.
                (!name.starts_with('_')).then(|| Capture {
                    name,
                    text: text.get(capture.node.byte_range()).unwrap_or(""),
                    range: capture.node.byte_range(),
                })
            })
            .collect();
        captures.sort_by_key(|capture| capture.range.start);
        hits.push(Hit {
            rule,
            captures,
            props: query.property_settings(found.pattern_index),
            present: found.captures.iter().map(|capture| capture.index).collect(),
        });
    }
    hits
}

/// Whether a predicate holds for the texts its captures hold.
pub type Holds = fn(&[&str]) -> bool;

/// The predicates [`predicates_hold`] evaluates, by name: whether they hold for the texts
/// their captures hold.
pub const PREDICATES: &[(&str, Holds)] = &[
    ("auth-name?", |names| names.iter().all(|name| is_auth(name))),
    ("not-auth-name?", |names| !names.iter().any(|name| is_auth(name))),
    ("check-name?", |names| names.iter().all(|name| is_check_name(name))),
    ("guard-name?", |names| {
        names.iter().all(|name| is_auth(name) || names_a_credential(name))
    }),
];

/// True if a name ends in a credential's word (`partner_key`, `settings.api_token`,
/// `MetricsToken`): what a dependency reads to let a request in.
fn names_a_credential(name: &str) -> bool {
    let word_after_separator = ["token", "key", "bearer", "credentials"].iter().any(|word| {
        name.strip_suffix(word)
            .is_some_and(|rest| rest.is_empty() || rest.ends_with(['_', '.']))
    });
    let camel_word = ["Token", "Key", "Bearer", "Credentials"].iter().any(|word| {
        name.strip_suffix(word)
            .and_then(|rest| rest.chars().last())
            .is_some_and(|last| last.is_ascii_lowercase() || last.is_ascii_digit())
    });
    word_after_separator || camel_word
}

/// True if the guard a text names stands for an auth check.
fn is_auth(text: &str) -> bool {
    is_auth_name(&guard_name(text))
}

/// The predicates tree-sitter leaves to the program: `(#auth-name? @capture)` holds when the
/// captured name stands for an auth check (`requireAuth`, `JWTMiddleware`; see
/// `guards::names`), `(#not-auth-name? @capture)` when it does not, `(#check-name? @capture)`
/// when it is a check that rejects the request (`requireUserId`), `(#guard-name? @capture)`
/// when it stands for an auth check or names a credential (`partner_key`, `MetricsToken`). Like tree-sitter's own,
/// they hold in a match without their capture (another branch of an alternation matched).
/// `(#kind? @_kind.arrow_function)` holds when every node the capture holds is of the kind
/// its name says (a node [`lower`] made a wildcard).
fn predicates_hold(query: &Query, found: &QueryMatch<'_, '_>, text: &str) -> bool {
    let names = query.capture_names();
    query.general_predicates(found.pattern_index).iter().all(|predicate| {
        let mut captures = predicate.args.iter().filter_map(|arg| match arg {
            QueryPredicateArg::Capture(index) => Some(*index),
            QueryPredicateArg::String(_) => None,
        });
        if &*predicate.operator == lower::KIND_PREDICATE {
            return captures.all(|index| {
                let name = names.get(index as usize).unwrap_or(&"");
                let kind = name.strip_prefix(lower::KIND_CAPTURE).unwrap_or("");
                found.nodes_for_capture_index(index).all(|node| node.kind() == kind)
            });
        }
        let nodes = captures.flat_map(|index| found.nodes_for_capture_index(index));
        let texts: Vec<&str> = nodes.map(|node| text.get(node.byte_range()).unwrap_or("")).collect();
        // An operator no rule may use (the test compiling every rule names it) holds nowhere.
        PREDICATES
            .iter()
            .find(|(operator, _)| *operator == &*predicate.operator)
            .is_some_and(|(_, holds)| holds(&texts))
    })
}

/// The name a guard expression stands for: `middleware.RequireAuth(cfg)` → `RequireAuth`.
pub fn guard_name(text: &str) -> String {
    let callee = text.split('(').next().unwrap_or(text);
    let last = callee
        .rsplit(['.', ':', '\\'])
        .find(|part| !part.is_empty())
        .unwrap_or(callee);
    last.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'))
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::names_a_credential;

    #[test]
    fn a_credential_is_named_by_its_last_word() {
        for name in [
            "partner_key",
            "settings.api_token",
            "MetricsToken",
            "token",
            "HTTPCredentials2Key",
        ] {
            assert!(names_a_credential(name), "{name}");
        }
        for name in ["monkey", "get_tokens", "Key", "keyboard", "turkey_sandwich"] {
            assert!(!names_a_credential(name), "{name}");
        }
    }
}
