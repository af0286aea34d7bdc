//! A rule's query rewritten before it compiles, matching exactly what it says: an inner node
//! pattern that a field or its own fields already pin down, `value: (arrow_function body: …)`,
//! becomes a wildcard, `value: (_ body: …) @_kind.arrow_function`, whose kind the match is
//! checked for after (`(#kind? @_kind.arrow_function)`, see `hits`).
//!
//! Why: compiling a query, tree-sitter walks its grammar's parse table from every state where
//! each parent node of each pattern can start, to learn which steps may fail; for an expression
//! node of a large grammar (TypeScript's `arrow_function`, `member_expression`) that walk costs
//! milliseconds per pattern, and a run compiles hundreds of them. A wildcard parent is not
//! walked. The root of a pattern keeps its kind: a wildcard there would be tried at every node
//! of every file. A node under a quantifier, a supertype (`expression`) and `kind/subtype`
//! patterns are left as written.

use tree_sitter::Language;

/// The capture name prefix of a lowered node; the rest of the name is its kind.
pub const KIND_CAPTURE: &str = "_kind.";

/// The predicate checking a lowered node's kind.
pub const KIND_PREDICATE: &str = "kind?";

/// One token of a query's text.
#[derive(Clone, Copy, PartialEq)]
enum Token {
    Open,
    Close,
    OpenAlt,
    CloseAlt,
    /// A string, a comment, blanks, or a word (node kind, `field:`, `@capture`, `#predicate`,
    /// quantifier, anchor, `!field`).
    Text,
}

/// The query text split into tokens, each with its byte range.
fn tokens(source: &str) -> Vec<(Token, usize, usize)> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        let token = match bytes[at] {
            b'(' => Token::Open,
            b')' => Token::Close,
            b'[' => Token::OpenAlt,
            b']' => Token::CloseAlt,
            _ => Token::Text,
        };
        at += 1;
        if token == Token::Text {
            match bytes[start] {
                b'"' => {
                    while at < bytes.len() && bytes[at] != b'"' {
                        at += if bytes[at] == b'\\' { 2 } else { 1 };
                    }
                    at = (at + 1).min(bytes.len());
                }
                b';' => {
                    while at < bytes.len() && bytes[at] != b'\n' {
                        at += 1;
                    }
                }
                first if first.is_ascii_whitespace() => {
                    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                        at += 1;
                    }
                }
                _ => {
                    while at < bytes.len() && !b"()[]\"; \t\r\n".contains(&bytes[at]) {
                        at += 1;
                    }
                }
            }
        }
        out.push((token, start, at));
    }
    out
}

/// An open `(` or `[` while the text is read.
struct Frame {
    /// The token index of the node's kind word; `None` for a group, an alternation or a
    /// predicate.
    kind: Option<usize>,
    /// A field names the place of this node (or of the alternation it is a branch of).
    fielded: bool,
    /// Some child of it is a node, a string or an alternation: it is a parent step.
    parent: bool,
    /// Some child of it is preceded by a field.
    fielded_child: bool,
    /// An anchor (`.`) pins it to its place (or the alternation it is a branch of): a rule
    /// anchors a node to end a match at once where the node is not there (a call chained
    /// on a call has no plain function first), which a wildcard would wait through.
    anchored: bool,
    /// Nodes (not groups) above it: 0 for a pattern's root.
    depth: usize,
    /// Nodes inside it to lower or to mark, kept unless it is quantified or an alternation
    /// with a branch that may match what a lowered one matches.
    lowered: Vec<Lowered>,
    /// For an alternation: its branches, the kinds of those that are nodes to lower, and
    /// those that are childless nodes of a kind.
    branches: usize,
    lowered_kinds: Vec<usize>,
    leaves: Vec<Lowered>,
}

/// A node pattern the query will check the kind of after the match.
#[derive(Clone, Copy)]
struct Lowered {
    /// Token index of its kind word.
    kind: usize,
    /// Byte offset where the node pattern ends (its capture goes there).
    end: usize,
    /// Made a wildcard; else only captured, to tell its branch apart.
    wildcard: bool,
}

/// `source` with its inner node patterns lowered to checked wildcards for `language`.
pub fn lower(source: &str, language: &Language) -> String {
    let tokens = tokens(source);
    let word = |index: usize| tokens.get(index).map_or("", |(_, from, to)| &source[*from..*to]);
    let significant = |from: usize| (from..tokens.len()).find(|&at| !is_blank(word(at)) || tokens[at].0 != Token::Text);
    // Edits: (byte offset, text inserted there, bytes replaced).
    let mut edits: Vec<(usize, String, usize)> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut kinds: Vec<String> = Vec::new();
    // Where the current top-level pattern starts (byte) and whether it is a group.
    let mut top: Option<(usize, bool)> = None;
    let mut previous_field = false;
    let mut previous_anchor = false;
    let mut index = 0;
    while index < tokens.len() {
        let (token, from, to) = tokens[index];
        let text = &source[from..to];
        match token {
            Token::Open | Token::OpenAlt => {
                // A node that is a branch of an alternation is placed as the alternation is.
                let alternation = stack
                    .last()
                    .filter(|frame| token == Token::Open && frame.kind.is_none());
                let fielded = previous_field || alternation.is_some_and(|frame| frame.fielded);
                let anchored = previous_anchor || alternation.is_some_and(|frame| frame.anchored);
                let next = significant(index + 1);
                let node = token == Token::Open
                    && next.is_some_and(|at| tokens[at].0 == Token::Text && is_node_word(word(at)));
                let depth = stack.iter().filter(|frame| frame.kind.is_some()).count();
                if let Some(parent) = stack.last_mut() {
                    parent.parent |= node || token == Token::OpenAlt;
                    parent.fielded_child |= previous_field;
                    parent.branches += 1;
                }
                if stack.is_empty() {
                    let group = token == Token::Open && !node;
                    top = Some((from, group));
                }
                stack.push(Frame {
                    kind: if node { next } else { None },
                    fielded,
                    parent: false,
                    fielded_child: false,
                    anchored,
                    depth,
                    lowered: Vec::new(),
                    branches: 0,
                    lowered_kinds: Vec::new(),
                    leaves: Vec::new(),
                });
                previous_field = false;
                previous_anchor = false;
            }
            Token::Close | Token::CloseAlt => {
                let Some(mut frame) = stack.pop() else {
                    return source.to_owned();
                };
                let after = significant(index + 1);
                let quantified = after.is_some_and(|at| matches!(word(at), "*" | "+" | "?"));
                let mut lowered_here = None;
                let mut leaf = None;
                if let Some(at) = frame.kind {
                    let plain = !quantified && is_plain_kind(word(at), language);
                    if plain
                        && frame.depth > 0
                        && frame.parent
                        && !frame.anchored
                        && (frame.fielded || frame.fielded_child)
                    {
                        let node = Lowered {
                            kind: at,
                            end: to,
                            wildcard: true,
                        };
                        frame.lowered.push(node);
                        lowered_here = Some(at);
                    } else if plain && !frame.parent {
                        leaf = Some(Lowered {
                            kind: at,
                            end: to,
                            wildcard: false,
                        });
                    }
                }
                // A node matched some times, or in one branch of an alternation, may leave a
                // state of the match without its kind's capture beside one with it (a wildcard
                // of the wrong kind matched): tree-sitter keeps the state holding more captures
                // and drops the other, which the kind check could not bring back. So a
                // quantified node keeps its kind, and an alternation is lowered only when each
                // of its branches is a node to lower or a childless node of another kind, which
                // is then captured too: no state of one branch holds another's captures.
                let whole = match token {
                    Token::CloseAlt => {
                        let apart = |leaf: &Lowered| !frame.lowered_kinds.iter().any(|at| word(*at) == word(leaf.kind));
                        frame.branches > 0
                            && frame.branches == frame.lowered_kinds.len() + frame.leaves.len()
                            && frame.leaves.iter().all(apart)
                    }
                    _ => true,
                };
                if whole && token == Token::CloseAlt && !frame.lowered_kinds.is_empty() {
                    frame.lowered.append(&mut frame.leaves);
                }
                if !quantified && whole {
                    match stack.last_mut() {
                        Some(parent) => {
                            parent.lowered_kinds.extend(lowered_here);
                            parent.leaves.extend(leaf);
                            parent.lowered.append(&mut frame.lowered)
                        }
                        None => {
                            for node in frame.lowered.drain(..) {
                                let kind = word(node.kind);
                                if node.wildcard {
                                    edits.push((tokens[node.kind].1, "_".to_owned(), kind.len()));
                                }
                                edits.push((node.end, format!(" @{KIND_CAPTURE}{kind}"), 0));
                                if !kinds.iter().any(|have| have == kind) {
                                    kinds.push(kind.to_owned());
                                }
                            }
                        }
                    }
                }
                if stack.is_empty() {
                    let (end, next) = trailing(source, &tokens, index + 1, to);
                    if let (Some((start, group)), false) = (top.take(), kinds.is_empty()) {
                        let checks: String = kinds
                            .drain(..)
                            .map(|kind| format!(" (#{KIND_PREDICATE} @{KIND_CAPTURE}{kind})"))
                            .collect();
                        if group {
                            // Before the group's own `)`.
                            edits.push((from, checks, 0));
                        } else {
                            edits.push((start, "(".to_owned(), 0));
                            edits.push((end, format!("{checks})"), 0));
                        }
                    }
                    index = next;
                    previous_field = false;
                    continue;
                }
                previous_field = false;
            }
            Token::Text => {
                let pattern = text.starts_with('"') || text == "_";
                if let (true, Some(parent)) = (pattern, stack.last_mut()) {
                    parent.branches += 1;
                }
                if !is_blank(text) {
                    let field = text.ends_with(':') && !text.starts_with('"');
                    previous_anchor = text == "." || (field && previous_anchor);
                    previous_field = field;
                }
            }
        }
        index += 1;
    }
    if !stack.is_empty() {
        return source.to_owned();
    }
    apply(source, edits)
}

/// Where a top-level pattern whose last bracket closes at byte `to` ends, after its trailing
/// quantifier and captures (tokens from `from` on), and the token after it.
fn trailing(source: &str, tokens: &[(Token, usize, usize)], from: usize, to: usize) -> (usize, usize) {
    let (mut end, mut next) = (to, from);
    for (at, (token, start, stop)) in tokens.iter().enumerate().skip(from) {
        let text = &source[*start..*stop];
        if *token != Token::Text {
            break;
        }
        if text.starts_with('@') || matches!(text, "*" | "+" | "?") {
            (end, next) = (*stop, at + 1);
        } else if !is_blank(text) {
            break;
        }
    }
    (end, next)
}

/// The top-level patterns of a query's text, each with its captures and predicates (comments
/// between them left out); `None` if the brackets do not balance.
pub fn patterns(source: &str) -> Option<Vec<&str>> {
    let tokens = tokens(source);
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = None;
    let mut index = 0;
    while let Some(&(token, from, to)) = tokens.get(index) {
        index += 1;
        match token {
            Token::Open | Token::OpenAlt => {
                start.get_or_insert(from);
                depth += 1;
            }
            Token::Close | Token::CloseAlt => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let (end, next) = trailing(source, &tokens, index, to);
                    out.push(&source[start.take()?..end]);
                    index = next;
                }
            }
            Token::Text if depth == 0 && !is_blank(&source[from..to]) => out.push(&source[from..to]),
            Token::Text => {}
        }
    }
    (depth == 0).then_some(out)
}

/// True for blanks and comments.
fn is_blank(text: &str) -> bool {
    text.starts_with(';') || text.trim().is_empty()
}

/// True if `word` after `(` starts a node pattern (not a group, a predicate or a string).
fn is_node_word(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && !word.ends_with(':')
}

/// True for a node kind a wildcard and a kind check can stand for: named, not `_`, not a
/// supertype, not `kind/subtype`, not tree-sitter's own `ERROR`/`MISSING`.
fn is_plain_kind(kind: &str, language: &Language) -> bool {
    if kind == "_" || kind.contains('/') || kind == "ERROR" || kind == "MISSING" {
        return false;
    }
    let id = language.id_for_node_kind(kind, true);
    id != 0 && !language.node_kind_is_supertype(id)
}

/// `source` with the edits made (each at a byte offset, replacing some bytes).
fn apply(source: &str, mut edits: Vec<(usize, String, usize)>) -> String {
    edits.sort_by_key(|(at, _, replaced)| (*at, *replaced == 0));
    let mut out = String::with_capacity(source.len() + edits.len() * 24);
    let mut at = 0;
    for (offset, text, replaced) in edits {
        if offset < at {
            continue;
        }
        out.push_str(&source[at..offset]);
        out.push_str(&text);
        at = offset + replaced;
    }
    out.push_str(&source[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::rules::grammar::Grammar;

    fn typescript() -> Language {
        Grammar::TypeScript.language()
    }

    #[test]
    fn an_inner_node_a_field_places_becomes_a_checked_wildcard() {
        let lowered = lower(
            "(variable_declarator name: (identifier) @n value: (arrow_function body: (_) @b))",
            &typescript(),
        );
        assert_eq!(
            lowered,
            "((variable_declarator name: (identifier) @n value: (_ body: (_) @b) @_kind.arrow_function) \
             (#kind? @_kind.arrow_function))"
        );
    }

    #[test]
    fn roots_leaves_quantified_nodes_and_supertypes_stay() {
        let language = typescript();
        for kept in [
            "(call_expression function: (identifier) @f)",
            "(call_expression arguments: (arguments (string) @s)* @all)",
            "(call_expression function: (expression (identifier)))",
            "(program (comment) @c)",
        ] {
            assert_eq!(lower(kept, &language), kept);
        }
    }

    #[test]
    fn a_groups_checks_go_inside_it() {
        let lowered = lower(
            "((pair value: (arrow_function body: (_) @b)) (#eq? @b \"x\"))",
            &typescript(),
        );
        assert_eq!(
            lowered,
            "((pair value: (_ body: (_) @b) @_kind.arrow_function) (#eq? @b \"x\") (#kind? @_kind.arrow_function))"
        );
    }

    #[test]
    fn an_alternation_whose_branches_all_lower_is_lowered() {
        let lowered = lower(
            "(pair value: [(arrow_function body: (_) @b) (function_expression body: (_) @b)])",
            &typescript(),
        );
        assert_eq!(
            lowered,
            "((pair value: [(_ body: (_) @b) @_kind.arrow_function (_ body: (_) @b) @_kind.function_expression]) \
             (#kind? @_kind.arrow_function) (#kind? @_kind.function_expression))"
        );
    }

    #[test]
    fn a_childless_branch_of_another_kind_is_captured_beside_a_lowered_one() {
        let lowered = lower(
            "(pair value: [(arrow_function body: (_) @b) (identifier) @i])",
            &typescript(),
        );
        assert_eq!(
            lowered,
            "((pair value: [(_ body: (_) @b) @_kind.arrow_function (identifier) @_kind.identifier @i]) \
             (#kind? @_kind.arrow_function) (#kind? @_kind.identifier))"
        );
    }

    #[test]
    fn nodes_in_a_branch_or_under_a_quantifier_stay() {
        let language = typescript();
        for kept in [
            "(pair value: [(arrow_function body: (_) @b) (_)] @v)",
            "(pair value: [(arrow_function body: (_) @b) \"x\"] @v)",
            "(pair value: [(arrow_function body: (_) @b) (arrow_function) @a])",
            "(pair value: [(arrow_function body: (_) @b) (expression) @a])",
            "(pair value: [(arrow_function body: (_) @b) (function_expression body: (_))]? @v)",
            "(call_expression arguments: (arguments (arrow_function body: (_) @b))? @a)",
            "[(call_expression function: (member_expression object: (_) @o)) (identifier)]",
            "(call_expression . function: (member_expression object: (_) @o))",
            "(call_expression . function: [(identifier) (member_expression object: (_) @o)])",
        ] {
            assert_eq!(lower(kept, &language), kept);
        }
    }

    #[test]
    fn a_query_splits_into_its_patterns_with_their_captures_and_predicates() {
        let query = "; a comment (with a bracket\n(a) @x\n((b (c)) (#eq? @c \"))\"))\n[(d) (e)]+ @y @z\n";
        assert_eq!(
            patterns(query).unwrap(),
            ["(a) @x", "((b (c)) (#eq? @c \"))\"))", "[(d) (e)]+ @y @z"]
        );
        assert_eq!(patterns("(a))"), None);
    }

    #[test]
    fn text_that_is_no_query_is_handed_back() {
        let language = typescript();
        for broken in ["(call_expression", ")", "(a \"unterminated"] {
            assert_eq!(lower(broken, &language), broken);
        }
    }
}
