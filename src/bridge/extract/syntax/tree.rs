//! Walking a parsed tree without recursion (deep nesting cannot overflow the stack), and its
//! named children read with one cursor.

use tree_sitter::Node;

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

/// The named children of a node, read with one cursor (indexing children is quadratic).
pub fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|child| !child.is_extra())
        .collect()
}
