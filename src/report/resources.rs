//! The report's resource use: tokens and cost per model, main session and subagents, from
//! the usage scan priced by the one price table. Unknown models are listed as unpriced.

use serde::Serialize;

use crate::accounting::pricing::PriceTable;
use crate::accounting::scan::ScanStats;
use crate::accounting::tokens::TokenCounts;
use crate::accounting::totals::{Tally, UsageTotals};

/// One model's row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelCost {
    pub model: String,
    pub requests: u64,
    pub long_context_requests: u64,
    pub tokens: TokenCounts,
    /// `None` when the price table has no entry for the model.
    pub cost_usd: Option<f64>,
    /// The subagents' share of this model's requests, tokens and cost.
    pub subagent_requests: u64,
    pub subagent_long_context_requests: u64,
    pub subagent_tokens: TokenCounts,
    pub subagent_cost_usd: Option<f64>,
}

/// Totals over a set of models.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Totals {
    pub requests: u64,
    pub long_context_requests: u64,
    pub tokens: TokenCounts,
    /// The cost of the priced models only.
    pub cost_usd: f64,
}

impl Totals {
    /// The sum of the rows' shares: the one way every total of the report is made, so a
    /// total always equals its rows. An unpriced row adds its tokens, not a cost.
    fn of<'a>(shares: impl IntoIterator<Item = Share<'a>>) -> Self {
        let mut total = Self::default();
        for share in shares {
            total.requests = total.requests.saturating_add(share.requests);
            total.long_context_requests = total.long_context_requests.saturating_add(share.long_context_requests);
            total.tokens.add(share.tokens);
            total.cost_usd += share.cost_usd.unwrap_or(0.0);
        }
        total
    }
}

/// One row's part of a total: all of the model's use, or its subagents'.
struct Share<'a> {
    requests: u64,
    long_context_requests: u64,
    tokens: &'a TokenCounts,
    cost_usd: Option<f64>,
}

/// Everything the report says about resources.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resources {
    pub models: Vec<ModelCost>,
    pub total: Totals,
    pub subagents: Totals,
    /// Models without a price (their tokens are in the totals, their cost is not).
    pub unpriced_models: Vec<String>,
    pub scan: ScanStats,
    /// Price files or config files applied over the built-in table.
    pub price_overrides: Vec<String>,
}

impl Resources {
    /// Prices the scan's totals; rows in order of cost, then tokens.
    pub fn new(totals: &UsageTotals, scan: ScanStats, prices: &PriceTable) -> Self {
        let mut models: Vec<ModelCost> = totals
            .models
            .iter()
            .map(|usage| {
                let price = prices.price(&usage.model);
                let cost = |tally: &Tally| price.map(|p| p.cost(&tally.standard, &tally.long_context));
                let all = usage.combined();
                ModelCost {
                    model: usage.model.clone(),
                    requests: all.requests,
                    long_context_requests: all.long_context_requests,
                    tokens: all.tokens(),
                    cost_usd: cost(&all),
                    subagent_requests: usage.subagents.requests,
                    subagent_long_context_requests: usage.subagents.long_context_requests,
                    subagent_tokens: usage.subagents.tokens(),
                    subagent_cost_usd: cost(&usage.subagents),
                }
            })
            .collect();
        models.sort_by(|a, b| {
            let cost = |m: &ModelCost| m.cost_usd.unwrap_or(-1.0);
            cost(b)
                .total_cmp(&cost(a))
                .then(b.tokens.total().cmp(&a.tokens.total()))
        });
        let total = Totals::of(models.iter().map(|m| Share {
            requests: m.requests,
            long_context_requests: m.long_context_requests,
            tokens: &m.tokens,
            cost_usd: m.cost_usd,
        }));
        let subagents = Totals::of(models.iter().map(|m| Share {
            requests: m.subagent_requests,
            long_context_requests: m.subagent_long_context_requests,
            tokens: &m.subagent_tokens,
            cost_usd: m.subagent_cost_usd,
        }));
        let unpriced_models = models
            .iter()
            .filter(|m| m.cost_usd.is_none())
            .map(|m| m.model.clone())
            .collect();
        Self {
            models,
            total,
            subagents,
            unpriced_models,
            scan,
            price_overrides: prices.sources.overrides.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::totals::{Deduplicator, Response};

    #[test]
    fn prices_each_model_and_lists_unknown_ones_as_unpriced() {
        let mut totals = UsageTotals::default();
        let mut dedup = Deduplicator::default();
        let m = 1_000_000;
        let opus = totals.model_index("claude-opus-4-5-20251101");
        let odd = totals.model_index("my-local-model");
        let tokens = TokenCounts {
            input: m,
            output: m,
            ..TokenCounts::default()
        };
        dedup.add(
            None,
            Response {
                model: opus,
                subagent: false,
                tokens,
            },
            &mut totals,
        );
        dedup.add(
            None,
            Response {
                model: opus,
                subagent: true,
                tokens,
            },
            &mut totals,
        );
        dedup.add(
            None,
            Response {
                model: odd,
                subagent: false,
                tokens,
            },
            &mut totals,
        );
        dedup.finish(&mut totals);
        let r = Resources::new(&totals, ScanStats::default(), &PriceTable::default());
        assert_eq!(r.models[0].model, "claude-opus-4-5-20251101");
        assert_eq!(r.models[0].cost_usd, Some(60.0));
        assert_eq!(r.models[0].subagent_cost_usd, Some(30.0));
        assert_eq!(r.models[1].cost_usd, None);
        assert_eq!(r.unpriced_models, vec!["my-local-model".to_owned()]);
        assert_eq!(
            (r.total.requests, r.total.tokens.input, r.total.cost_usd),
            (3, 3 * m, 60.0)
        );
        assert_eq!((r.subagents.requests, r.subagents.cost_usd), (1, 30.0));
    }
}
