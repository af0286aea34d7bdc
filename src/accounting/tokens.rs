//! Token counts by kind (fresh input, output, cache writes by lifetime, cache reads), and
//! what one API `usage` object counts. Sums saturate: no transcript can make them wrap.

use serde::Serialize;

use crate::api_usage::ApiUsage;

/// More tokens of one kind than any one API response can carry: a thousand times the largest
/// context window (1M). A transcript line claiming more is damaged and left out of the totals.
pub const MAX_TOKENS_PER_RESPONSE: u64 = 1_000_000_000;

/// Token counts of one or more API responses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TokenCounts {
    pub input: u64,
    pub output: u64,
    pub cache_write_5m: u64,
    pub cache_write_1h: u64,
    pub cache_read: u64,
}

impl TokenCounts {
    /// Adds `other` field by field (saturating).
    pub fn add(&mut self, other: &Self) {
        self.input = self.input.saturating_add(other.input);
        self.output = self.output.saturating_add(other.output);
        self.cache_write_5m = self.cache_write_5m.saturating_add(other.cache_write_5m);
        self.cache_write_1h = self.cache_write_1h.saturating_add(other.cache_write_1h);
        self.cache_read = self.cache_read.saturating_add(other.cache_read);
    }

    /// Whether one response could really have these counts: none above
    /// [`MAX_TOKENS_PER_RESPONSE`].
    pub fn is_plausible(&self) -> bool {
        [
            self.input,
            self.output,
            self.cache_write_5m,
            self.cache_write_1h,
            self.cache_read,
        ]
        .iter()
        .all(|&n| n <= MAX_TOKENS_PER_RESPONSE)
    }

    /// Keeps the larger of each field: a streamed response's later lines carry the final
    /// `output_tokens`, its earlier ones a partial count.
    pub fn absorb(&mut self, other: &Self) {
        self.input = self.input.max(other.input);
        self.output = self.output.max(other.output);
        self.cache_write_5m = self.cache_write_5m.max(other.cache_write_5m);
        self.cache_write_1h = self.cache_write_1h.max(other.cache_write_1h);
        self.cache_read = self.cache_read.max(other.cache_read);
    }

    /// The request's whole input: fresh, cache writes and cache reads.
    pub fn prompt(&self) -> u64 {
        self.input
            .saturating_add(self.cache_write_5m)
            .saturating_add(self.cache_write_1h)
            .saturating_add(self.cache_read)
    }

    /// Every token, input and output.
    pub fn total(&self) -> u64 {
        self.prompt().saturating_add(self.output)
    }
}

impl From<&ApiUsage> for TokenCounts {
    /// The counts by kind. Cache writes: the 5m/1h split when given; the total
    /// `cache_creation_input_tokens` wins when both are given and disagree (1h kept, the
    /// rest 5m); without a split every cache write counts as 5m.
    fn from(usage: &ApiUsage) -> Self {
        let (five, one) = (usage.cache_write_5m(), usage.cache_write_1h());
        let (cache_write_5m, cache_write_1h) = match (usage.cache_creation_input_tokens, five, one) {
            (total, None, None) => (total.unwrap_or(0), 0),
            (None, five, one) => (five.unwrap_or(0), one.unwrap_or(0)),
            (Some(total), five, one) => {
                let one = one.unwrap_or(0).min(total);
                match five {
                    Some(five) if five.checked_add(one) == Some(total) => (five, one),
                    _ => (total - one, one),
                }
            }
        };
        TokenCounts {
            input: usage.input_tokens.unwrap_or(0),
            output: usage.output_tokens.unwrap_or(0),
            cache_write_5m,
            cache_write_1h,
            cache_read: usage.cache_read_input_tokens.unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api_usage::CacheCreation;

    fn writes(total: Option<u64>, five: Option<u64>, one: Option<u64>) -> (u64, u64) {
        let usage = ApiUsage {
            cache_creation_input_tokens: total,
            cache_creation: Some(CacheCreation {
                ephemeral_5m_input_tokens: five,
                ephemeral_1h_input_tokens: one,
            }),
            ..ApiUsage::default()
        };
        let t = TokenCounts::from(&usage);
        (t.cache_write_5m, t.cache_write_1h)
    }

    #[test]
    fn cache_writes_without_a_split_count_as_5m() {
        assert_eq!(writes(Some(40), None, None), (40, 0));
        assert_eq!(writes(None, None, None), (0, 0));
    }

    #[test]
    fn the_split_is_used_when_it_adds_up_and_the_total_wins_otherwise() {
        assert_eq!(writes(Some(40), Some(10), Some(30)), (10, 30));
        assert_eq!(writes(Some(40), Some(0), Some(0)), (40, 0));
        assert_eq!(writes(Some(40), None, Some(15)), (25, 15));
        assert_eq!(writes(Some(10), Some(0), Some(99)), (0, 10));
        assert_eq!(writes(None, Some(4), Some(6)), (4, 6));
    }

    #[test]
    fn every_other_kind_is_taken_as_given() {
        let usage = ApiUsage {
            input_tokens: Some(3),
            output_tokens: Some(7),
            cache_read_input_tokens: Some(100),
            ..ApiUsage::default()
        };
        assert_eq!(
            TokenCounts::from(&usage),
            TokenCounts {
                input: 3,
                output: 7,
                cache_read: 100,
                ..TokenCounts::default()
            }
        );
    }
}
