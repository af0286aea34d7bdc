//! Words in what baton prints. Counted nouns: `1 plan`, `2 plans`, `0 plans`, the one rule
//! for every plural, so no message says "1 waves" or "thing(s)"; and [`width`], the terminal
//! cells a text takes, for every view cut to a terminal's width.

pub mod width;

use std::fmt::Display;

/// The noun in the number `n` takes: `noun(1, "wave", "waves")` is `wave`.
pub fn noun<'a>(n: impl TryInto<u64>, one: &'a str, many: &'a str) -> &'a str {
    if n.try_into().ok() == Some(1) { one } else { many }
}

/// `n` and its noun: `count(2, "plan", "plans")` is `2 plans`.
pub fn count<N: Copy + Display + TryInto<u64>>(n: N, one: &str, many: &str) -> String {
    format!("{n} {}", noun(n, one, many))
}

/// `done of total` and the noun the total takes: `of_total(0, 1, "plan", "plans")` is
/// `0 of 1 plan`.
pub fn of_total<N: Copy + Display + TryInto<u64>>(done: N, total: N, one: &str, many: &str) -> String {
    format!("{done} of {}", count(total, one, many))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "wave", "waves"), "1 wave");
        assert_eq!(count(0, "wave", "waves"), "0 waves");
        assert_eq!(count(2usize, "summary", "summaries"), "2 summaries");
        assert_eq!(of_total(0, 1, "plan", "plans"), "0 of 1 plan");
        assert_eq!(of_total(1, 3, "plan", "plans"), "1 of 3 plans");
    }
}
