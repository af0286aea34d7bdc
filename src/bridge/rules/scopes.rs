//! Which of a file's scopes (syntax nodes' byte ranges, nested in one another or apart)
//! holds a place: a column's table, a field's shape, an operation's block.

use std::cmp::Reverse;
use std::ops::Range;

/// The innermost of `scopes` holding `range` or being it: the one starting last, the
/// shortest of those starting there.
pub fn innermost<'s, T>(scopes: impl IntoIterator<Item = (&'s Range<usize>, T)>, range: &Range<usize>) -> Option<T> {
    scopes
        .into_iter()
        .filter(|(scope, _)| scope.start <= range.start && range.end <= scope.end)
        .max_by_key(|(scope, _)| (scope.start, Reverse(scope.end)))
        .map(|(_, item)| item)
}

/// The innermost of `scopes` around `range` (holding it, not being it).
pub fn around<'s, T>(scopes: impl IntoIterator<Item = (&'s Range<usize>, T)>, range: &Range<usize>) -> Option<T> {
    innermost(scopes.into_iter().filter(|(scope, _)| *scope != range), range)
}

/// Ranges of syntax nodes (nested in one another or apart) and which of them hold a place,
/// in time bounded by their nesting, not their number.
pub struct Nest {
    /// `(range, index given)`, by start, outer first.
    ranges: Vec<(Range<usize>, usize)>,
    /// The innermost range holding each (by place in `ranges`).
    parent: Vec<Option<usize>>,
}

impl Nest {
    pub fn of(given: Vec<Range<usize>>) -> Nest {
        let mut ranges: Vec<(Range<usize>, usize)> = given.into_iter().enumerate().map(|(at, r)| (r, at)).collect();
        ranges.sort_by(|(a, _), (b, _)| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
        ranges.dedup_by(|(a, _), (b, _)| a == b);
        let mut parent = Vec::with_capacity(ranges.len());
        let mut open: Vec<usize> = Vec::new();
        for (at, (range, _)) in ranges.iter().enumerate() {
            while open.last().is_some_and(|&top| ranges[top].0.end < range.end) {
                open.pop();
            }
            parent.push(open.last().copied());
            open.push(at);
        }
        Nest { ranges, parent }
    }

    /// The innermost range holding `range` (or equal to it), by its place in `ranges`.
    fn holder(&self, range: &Range<usize>) -> Option<usize> {
        let mut at = self
            .ranges
            .partition_point(|(r, _)| r.start <= range.start)
            .checked_sub(1)?;
        loop {
            let held = &self.ranges[at].0;
            if held.start <= range.start && range.end <= held.end {
                return Some(at);
            }
            at = self.parent[at]?;
        }
    }

    /// The innermost range holding `range`, by the index it was given at.
    pub fn innermost(&self, range: &Range<usize>) -> Option<usize> {
        self.holder(range).map(|at| self.ranges[at].1)
    }

    /// How many ranges hold `range` (counted up to 2).
    pub fn depth(&self, range: &Range<usize>) -> usize {
        match self.holder(range) {
            None => 0,
            Some(at) => 1 + usize::from(self.parent[at].is_some()),
        }
    }
}

/// The items of `sorted` (by where they start) that lie inside `range`.
pub fn placed_in<'a, T>(
    sorted: &'a [T],
    range: &'a Range<usize>,
    at: fn(&T) -> &Range<usize>,
) -> impl Iterator<Item = &'a T> + 'a {
    let from = sorted.partition_point(|item| at(item).start < range.start);
    sorted[from..]
        .iter()
        .take_while(move |item| at(item).start < range.end)
        .filter(move |item| super::hits::inside(at(item), range))
}
