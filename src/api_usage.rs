//! `message.usage` as the API reports it, and the token counts by kind that it means.

use crate::accounting::totals::TokenCounts;

/// The counts of one `message.usage` object; absent, `null` or wrongly typed reads as `None`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Usage {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub cache_creation_input_tokens: Option<u64>,
    pub cache_read_input_tokens: Option<u64>,
    /// `cache_creation.ephemeral_5m_input_tokens` (newer clients split cache writes).
    pub ephemeral_5m_input_tokens: Option<u64>,
    /// `cache_creation.ephemeral_1h_input_tokens`.
    pub ephemeral_1h_input_tokens: Option<u64>,
}

impl Usage {
    /// The counts by kind. Cache writes: the 5m/1h split when given; the total
    /// `cache_creation_input_tokens` wins when both are given and disagree (1h kept, the
    /// rest 5m); without a split every cache write counts as 5m.
    pub fn tokens(&self) -> TokenCounts {
        let (five, one) = (self.ephemeral_5m_input_tokens, self.ephemeral_1h_input_tokens);
        let (cache_write_5m, cache_write_1h) = match (self.cache_creation_input_tokens, five, one) {
            (total, None, None) => (total.unwrap_or(0), 0),
            (None, five, one) => (five.unwrap_or(0), one.unwrap_or(0)),
            (Some(total), five, one) => {
                let one = one.unwrap_or(0).min(total);
                match five {
                    Some(five) if five + one == total => (five, one),
                    _ => (total - one, one),
                }
            }
        };
        TokenCounts {
            input: self.input_tokens.unwrap_or(0),
            output: self.output_tokens.unwrap_or(0),
            cache_write_5m,
            cache_write_1h,
            cache_read: self.cache_read_input_tokens.unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writes(total: Option<u64>, five: Option<u64>, one: Option<u64>) -> (u64, u64) {
        let usage = Usage {
            cache_creation_input_tokens: total,
            ephemeral_5m_input_tokens: five,
            ephemeral_1h_input_tokens: one,
            ..Usage::default()
        };
        let t = usage.tokens();
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
        let usage = Usage {
            input_tokens: Some(3),
            output_tokens: Some(7),
            cache_read_input_tokens: Some(100),
            ..Usage::default()
        };
        assert_eq!(
            usage.tokens(),
            TokenCounts {
                input: 3,
                output: 7,
                cache_read: 100,
                ..TokenCounts::default()
            }
        );
    }
}
