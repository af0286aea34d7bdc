//! A class's lineage: [`ancestry`] walks any class's bases (a JPA lender's, a Django
//! class-based view's, a Rails controller's, a shape's).

/// `start` and the classes it extends, however deep (`max_depth` bases at most), each once:
/// a class before its bases, a base's own bases before the next base (Python's method
/// resolution order, near enough).
pub fn ancestry<T: PartialEq>(start: T, max_depth: usize, parents: impl Fn(&T) -> Vec<T>) -> Vec<T> {
    let mut out = Vec::new();
    let mut pending = vec![(start, 0)];
    while let Some((class, depth)) = pending.pop() {
        if out.contains(&class) {
            continue;
        }
        if depth < max_depth {
            pending.extend(parents(&class).into_iter().rev().map(|parent| (parent, depth + 1)));
        }
        out.push(class);
    }
    out
}
