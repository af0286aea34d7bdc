//! Walking a parsed tree without recursion (deep nesting cannot overflow the stack), the
//! one-walk index of a file's nodes every scanner reads, and cheap child lookups by field.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::OnceLock;

use tree_sitter::Node;

use super::{Lang, ParsedFile};

/// What a walk does after visiting a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    /// Visit the node's children next.
    Enter,
    /// Go on with the node's next sibling.
    Skip,
    /// End the walk.
    Stop,
}

/// Visits `root` and its descendants in document order with a cursor (no recursion, so deeply
/// nested input cannot overflow the stack); `visit` decides whether to enter each node.
pub fn walk<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> Walk) {
    let mut cursor = root.walk();
    loop {
        let step = visit(cursor.node());
        if step == Walk::Stop {
            return;
        }
        if step == Walk::Enter && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == root {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// Visits every node under `root` that parsed cleanly (no error or missing token inside it),
/// in document order. Complete statements the parser kept inside an error-recovered region
/// are visited; the broken pieces around them are not, so a fact is only read from code that parsed.
pub fn walk_clean<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>)) {
    walk(root, |node| {
        if !node.has_error() {
            visit(node);
        }
        Walk::Enter
    });
}

/// The clean named nodes of a file in document order, each with its kind: collected in one
/// walk so that every scanner reads the same list instead of walking the tree again.
pub struct NodeIndex<'t> {
    nodes: Vec<(&'static str, Node<'t>)>,
}

impl<'t> NodeIndex<'t> {
    /// Walks `file`'s tree once (see [`walk_clean`]).
    pub fn of(file: &'t ParsedFile<'_>) -> NodeIndex<'t> {
        let names = kind_names(file.lang);
        let mut nodes = Vec::new();
        walk_clean(file.root(), |node| {
            if node.is_named() {
                let kind = names.get(usize::from(node.kind_id())).copied().unwrap_or_default();
                nodes.push((kind, node));
            }
        });
        NodeIndex { nodes }
    }

    /// Calls `visit` with every node whose kind is one of `kinds`, in document order.
    pub fn each(&self, kinds: &[&str], mut visit: impl FnMut(Node<'t>)) {
        for (kind, node) in &self.nodes {
            if kinds.contains(kind) {
                visit(*node);
            }
        }
    }
}

/// Every node kind's name of a grammar, by kind id (`Node::kind` measures and checks the
/// name's bytes on each call).
fn kind_names(lang: Lang) -> &'static [&'static str] {
    static NAMES: [OnceLock<Vec<&'static str>>; 5] = [const { OnceLock::new() }; 5];
    let slot = match lang {
        Lang::TypeScript => 0,
        Lang::Tsx => 1,
        Lang::JavaScript => 2,
        Lang::Python => 3,
        Lang::Rust => 4,
    };
    NAMES[slot].get_or_init(|| {
        let grammar = lang.grammar();
        (0..grammar.node_kind_count())
            .map(|id| {
                u16::try_from(id)
                    .ok()
                    .and_then(|id| grammar.node_kind_for_id(id))
                    .unwrap_or_default()
            })
            .collect()
    })
}

/// Looking a child up by field name: tree-sitter compares the name with every field name of
/// the grammar on each lookup, so the id each name stands for is kept per thread.
pub trait Fields<'t> {
    /// The child in field `name`.
    fn field(&self, name: &'static str) -> Option<Node<'t>>;
}

impl<'t> Fields<'t> for Node<'t> {
    fn field(&self, name: &'static str) -> Option<Node<'t>> {
        self.child_by_field_id(field_id(self, name)?)
    }
}

/// Field ids looked up so far, by grammar and field name (the name's address and length).
type FieldIds = HashMap<(u64, usize, usize), Option<u16>, BuildHasherDefault<WordHasher>>;

thread_local! {
    /// `(grammar, field name) → field id` as looked up so far on this thread.
    static FIELD_IDS: RefCell<FieldIds> = RefCell::new(FieldIds::default());
}

fn field_id(node: &Node<'_>, name: &'static str) -> Option<u16> {
    let language = node.language();
    let mut grammar = WordHasher::default();
    language.hash(&mut grammar);
    let key = (grammar.0, name.as_ptr() as usize, name.len());
    FIELD_IDS.with_borrow_mut(|ids| {
        *ids.entry(key)
            .or_insert_with(|| language.field_id_for_name(name).map(|id| id.get()))
    })
}

/// Hashes words with a rotate, a xor and a multiply each: the keys are addresses and lengths,
/// not text from the files, so the default SipHash's defence is not needed (and cost more than
/// the lookup it guarded). A grammar hashes as the one address it writes.
#[derive(Default)]
struct WordHasher(u64);

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.add(u64::from(*byte));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.add(word);
    }

    fn write_usize(&mut self, word: usize) {
        self.add(word as u64);
    }
}

/// The named children of a node, read with one cursor (indexing children is quadratic).
pub fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|child| !child.is_extra())
        .collect()
}

/// The named children of a node that sit in field `field`.
pub fn field_children<'t>(node: Node<'t>, field: &'static str) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children_by_field_name(field, &mut cursor).collect()
}

/// The closest ancestor of `node` (itself excluded) of kind `kind`, looking at most `limit` levels up.
pub fn ancestor<'t>(node: Node<'t>, kind: &str, limit: usize) -> Option<Node<'t>> {
    let mut current = node;
    for _ in 0..limit {
        current = current.parent()?;
        if current.kind() == kind {
            return Some(current);
        }
    }
    None
}
