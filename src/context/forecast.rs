//! How much work still fits: the tokens a session's context has been growing by per model
//! request, from the last requests in its transcript's tail, and how many more requests fit at
//! that rate before the limit where Claude Code compacts (`window::limit`).
//!
//! The history is the main chain's (or a subagent's own) replies since the last compact
//! boundary and since the context last shrank, newest first, one figure per API response.
//! The rate is the mean of the last [`MAX_DELTAS`] request-to-request growths with the
//! largest clipped to the second largest: one huge tool result does not count, growth that
//! keeps coming in bursts does. Fewer than [`MIN_REQUESTS`] requests: no forecast.

use std::ops::ControlFlow;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::context::transcript::{self, Chain, LineFigure};

/// Requests needed before a rate means anything (two growths).
pub const MIN_REQUESTS: usize = 3;
/// The growths the rate is taken over.
pub const MAX_DELTAS: usize = 8;
/// The statusline shows more than this as `99+`.
const SHOWN_MAX: u64 = 99;

/// The forecast the bridge file carries and the statusline and monitor show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forecast {
    /// Context tokens added per request, recently.
    pub tokens_per_request: u64,
    /// Requests that still start below the limit at that rate (0: the next one compacts).
    pub requests_left: u64,
}

impl Forecast {
    /// The forecast at `used` tokens of `limit`, from request figures newest first; `None`
    /// with too little history, a context that shrank since, or no growth. A figure up to
    /// `slack` tokens below the newest request is that request's (a figure rebuilt from a
    /// whole percentage, or one read before the transcript's newest reply); further below, the
    /// context shrank since and the history no longer applies.
    pub fn from_history(figures: &[u64], used: u64, slack: u64, limit: u64) -> Option<Self> {
        let newest = *figures.first()?;
        if used.saturating_add(slack) < newest {
            return None;
        }
        let used = used.max(newest);
        let rate = tokens_per_request(figures)?;
        let requests_left = if used >= limit {
            0
        } else {
            (limit - used).div_ceil(rate)
        };
        Some(Self {
            tokens_per_request: rate,
            requests_left,
        })
    }

    /// `≈3 left`, `≈99+ left`: for the statusline.
    pub fn short(&self) -> String {
        if self.requests_left > SHOWN_MAX {
            format!("≈{SHOWN_MAX}+ left")
        } else {
            format!("≈{} left", self.requests_left)
        }
    }

    /// The monitor's advisory sentence.
    pub fn sentence(&self) -> String {
        let rate = crate::context::window::short_tokens(self.tokens_per_request);
        match self.requests_left {
            0 => format!(
                "At the recent rate (about {rate} tokens per request), compaction is likely at the next request."
            ),
            1 => format!(
                "At the recent rate (about {rate} tokens per request), about 1 more request fits before compaction."
            ),
            n => format!(
                "At the recent rate (about {rate} tokens per request), about {n} more requests fit before compaction."
            ),
        }
    }
}

/// Tokens added per request from request figures newest first (non-increasing going back):
/// the mean of up to [`MAX_DELTAS`] growths with the largest clipped to the second largest.
pub fn tokens_per_request(figures: &[u64]) -> Option<u64> {
    if figures.len() < MIN_REQUESTS {
        return None;
    }
    let mut deltas: Vec<u64> = figures
        .windows(2)
        .take(MAX_DELTAS)
        .map(|pair| pair[0].checked_sub(pair[1]))
        .collect::<Option<_>>()?;
    deltas.sort_unstable();
    let n = deltas.len();
    deltas[n - 1] = deltas[n - 2];
    let sum: u64 = deltas.iter().sum();
    let rate = (sum as f64 / n as f64).round() as u64;
    (rate > 0).then_some(rate)
}

/// A session's recent requests, from its transcript's tail.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct History {
    /// Context figures, newest first.
    pub figures: Vec<u64>,
    /// `message.model` of the newest request.
    pub model: Option<String>,
}

impl History {
    /// The last requests of `chain` in the transcript's tail: one figure per API response
    /// (lines sharing `message.id` are one), back to the last compact boundary or the last time
    /// the context shrank, at most `MAX_DELTAS + 1`, within the last
    /// [`transcript::HISTORY_TAIL_BYTES`]. Empty when the transcript cannot be read.
    pub fn read(path: &Path, chain: Chain) -> Self {
        let mut model = None;
        let figures = recent_figures(path, chain, &mut model);
        Self { figures, model }
    }

    /// The history of requests the client reported one by one (baton's mod), oldest first:
    /// the same cut as [`History::read`], back to the last time the context shrank, at most
    /// `MAX_DELTAS + 1`.
    pub fn from_requests(oldest_first: &[u64], model: Option<String>) -> Self {
        let mut figures = Vec::new();
        for tokens in oldest_first.iter().rev() {
            if take_older(&mut figures, *tokens).is_break() {
                break;
            }
        }
        Self { figures, model }
    }

    /// The forecast at `used` tokens of `limit` (see [`Forecast::from_history`] for `slack`).
    pub fn forecast(&self, used: u64, slack: u64, limit: u64) -> Option<Forecast> {
        Forecast::from_history(&self.figures, used, slack, limit)
    }
}

/// Takes the next older request into `figures` (newest first): stops before one holding more
/// than the request after it (the context shrank after it), and once the rate has enough.
fn take_older(figures: &mut Vec<u64>, tokens: u64) -> ControlFlow<()> {
    if figures.last().is_some_and(|newer| tokens > *newer) {
        return ControlFlow::Break(());
    }
    figures.push(tokens);
    if figures.len() > MAX_DELTAS {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

fn recent_figures(path: &Path, chain: Chain, newest_model: &mut Option<String>) -> Vec<u64> {
    let mut figures: Vec<u64> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let scanned = transcript::scan_tail(
        path,
        transcript::HISTORY_TAIL_BYTES,
        |line| match transcript::figure_in_line(line, chain) {
            Some(LineFigure::Boundary { .. }) => ControlFlow::Break(()),
            Some(LineFigure::Reply {
                tokens,
                message_id,
                model,
            }) => {
                if let Some(id) = message_id {
                    if seen.contains(&id) {
                        return ControlFlow::Continue(());
                    }
                    seen.push(id);
                }
                if figures.is_empty() {
                    *newest_model = model;
                }
                take_older(&mut figures, tokens)
            }
            None => ControlFlow::Continue(()),
        },
    );
    if let Err(e) = scanned {
        crate::log::note(&format!("forecast: transcript unreadable: {e}"));
        figures.clear();
    }
    figures
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Request figures newest first from growths oldest first, starting at `start`.
    fn history(start: u64, growths: &[u64]) -> Vec<u64> {
        let mut figures = vec![start];
        for g in growths {
            figures.push(figures.last().unwrap() + g);
        }
        figures.reverse();
        figures
    }

    #[test]
    fn steady_growth_is_the_rate() {
        let h = history(20_000, &[10_000; 5]);
        assert_eq!(tokens_per_request(&h), Some(10_000));
        let f = Forecast::from_history(&h, 70_000, 0, 167_000).unwrap();
        assert_eq!(f.requests_left, 10, "97k to go at 10k: the 10th request starts at 160k");
    }

    #[test]
    fn one_huge_tool_result_does_not_set_the_rate() {
        let h = history(20_000, &[10_000, 10_000, 60_000, 10_000, 10_000]);
        assert_eq!(tokens_per_request(&h), Some(10_000));
        // Even when it is one of only two growths.
        assert_eq!(tokens_per_request(&history(20_000, &[10_000, 60_000])), Some(10_000));
    }

    #[test]
    fn growth_in_repeated_bursts_counts() {
        let h = history(20_000, &[4_000, 4_000, 22_000, 4_000, 4_000, 22_000, 4_000, 4_000]);
        let rate = tokens_per_request(&h).unwrap();
        assert!((8_000..=10_000).contains(&rate), "{rate}");
    }

    #[test]
    fn too_little_or_no_growth_gives_no_forecast() {
        assert_eq!(tokens_per_request(&history(20_000, &[10_000])), None, "two requests");
        assert_eq!(tokens_per_request(&[]), None);
        assert_eq!(tokens_per_request(&history(20_000, &[0, 0, 0])), None, "no growth");
        assert_eq!(tokens_per_request(&[30_000, 40_000, 20_000]), None, "not a history");
        let h = history(20_000, &[10_000; 4]);
        assert_eq!(Forecast::from_history(&h, 50_000, 0, 167_000), None, "shrank since");
    }

    #[test]
    fn at_or_past_the_limit_nothing_is_left() {
        let h = history(137_000, &[10_000; 3]);
        assert_eq!(
            Forecast::from_history(&h, 170_000, 0, 167_000).unwrap().requests_left,
            0
        );
        let h = history(127_000, &[10_000; 3]);
        assert_eq!(
            Forecast::from_history(&h, 166_000, 0, 167_000).unwrap().requests_left,
            1
        );
    }

    #[test]
    fn a_figure_within_its_slack_below_the_newest_request_is_that_request() {
        let h = history(100_000, &[10_000; 4]); // newest 140,000
        // 70% of 200k rebuilt from a whole percentage: 140,000 stands for up to 140,999.
        let rounded = Forecast::from_history(&h, 139_500, 1_000, 180_000).unwrap();
        assert_eq!(rounded.requests_left, 4, "from 140k, not 139.5k");
        assert_eq!(
            Forecast::from_history(&h, 139_500, 0, 180_000),
            None,
            "exact: it shrank"
        );
        // A figure read a reply behind the transcript: the transcript's newest counts.
        let behind = Forecast::from_history(&h, 130_000, u64::MAX, 167_000).unwrap();
        assert_eq!(
            behind.requests_left, 3,
            "from 140k: 150k and 160k start below 167k, then 170k"
        );
    }

    #[test]
    fn requests_handed_over_one_by_one_are_cut_where_the_context_shrank() {
        let h = History::from_requests(&[90_000, 100_000, 20_000, 30_000, 40_000, 50_000], None);
        assert_eq!(
            h.figures,
            [50_000, 40_000, 30_000, 20_000],
            "newest first, since the shrink"
        );
        let long: Vec<u64> = (1..=20).map(|n| n * 10_000).collect();
        let h = History::from_requests(&long, Some("claude-sonnet-4-5".into()));
        assert_eq!(h.figures.len(), MAX_DELTAS + 1);
        assert_eq!(h.figures[0], 200_000);
        assert_eq!(h.forecast(200_000, 0, 250_000).unwrap().requests_left, 5);
        assert!(History::from_requests(&[], None).figures.is_empty());
    }

    #[test]
    fn words_for_the_statusline_and_the_monitor() {
        let f = |left| Forecast {
            tokens_per_request: 10_000,
            requests_left: left,
        };
        assert_eq!(f(3).short(), "≈3 left");
        assert_eq!(f(250).short(), "≈99+ left");
        assert_eq!(
            f(3).sentence(),
            "At the recent rate (about 10k tokens per request), about 3 more requests fit before compaction."
        );
        assert!(f(1).sentence().contains("about 1 more request fits"));
        assert!(f(0).sentence().contains("compaction is likely at the next request"));
    }
}
