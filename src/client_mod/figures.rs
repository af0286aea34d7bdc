//! A loop's figures as baton's mod hands them over: the context of each request the client
//! answered (the main conversation's or one subagent's own), oldest first, the newest being the
//! one that made the tool call, with the model and window the client reported. From them the
//! same window math and forecast as everywhere else.

use serde::Deserialize;

use crate::config::Config;
use crate::context::forecast::{Forecast, History};
use crate::context::window::limit::Limit;
use crate::context::window::{self, ContextUsage, UsageSource};

/// More requests than this are not read (the forecast uses the last nine).
const MAX_REQUESTS: usize = 64;

/// The figures of one loop.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Figures {
    /// The model that answered the newest request.
    pub model: Option<String>,
    /// The window of that model, as the client reports it.
    pub window: Option<u64>,
    /// Input tokens of each request (uncached, cache-written, cache-read), oldest first.
    pub requests: Vec<u64>,
}

impl Figures {
    /// The newest request's context in its window; `None` before any request.
    pub fn usage(&self, config: &Config) -> Option<ContextUsage> {
        let used = *self.requests.last()?;
        let window = window::window_size(
            self.window,
            self.model.as_deref(),
            config.context_window_size(),
            Some(used),
        );
        Some(ContextUsage {
            used_tokens: used,
            window,
            source: UsageSource::Mod,
        })
    }

    /// Where the client compacts this loop's context.
    pub fn limit(&self, usage: &ContextUsage, config: &Config) -> Limit {
        Limit::for_session(usage.window, self.model.as_deref(), config)
    }

    /// The forecast at `usage` from the loop's recent requests.
    pub fn forecast(&self, usage: &ContextUsage, config: &Config) -> Option<Forecast> {
        let recent = &self.requests[self.requests.len().saturating_sub(MAX_REQUESTS)..];
        let history = History::from_requests(recent, self.model.clone());
        history.forecast(usage.used_tokens, 0, self.limit(usage, config).tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(requests: &[u64], window: Option<u64>) -> Figures {
        Figures {
            model: Some("claude-sonnet-4-5".into()),
            window,
            requests: requests.to_vec(),
        }
    }

    #[test]
    fn the_newest_request_is_the_figure_in_the_clients_window() {
        let config = Config::default();
        let usage = figures(&[100_000, 140_000], Some(200_000)).usage(&config).unwrap();
        assert_eq!(
            (usage.used_tokens, usage.window, usage.remaining_percent()),
            (140_000, 200_000, 30)
        );
        let big = figures(&[300_000], Some(1_000_000)).usage(&config).unwrap();
        assert_eq!(big.window, 1_000_000);
        assert!(figures(&[], None).usage(&config).is_none());
    }

    #[test]
    fn the_forecast_counts_toward_where_the_client_compacts() {
        let config = Config::default();
        // claude-sonnet-4-5 does not compact on its own: the limit is the window less 20k.
        let f = figures(&[100_000, 110_000, 120_000, 130_000, 140_000], Some(200_000));
        let usage = f.usage(&config).unwrap();
        let forecast = f.forecast(&usage, &config).unwrap();
        assert_eq!((forecast.tokens_per_request, forecast.requests_left), (10_000, 4));
        assert!(figures(&[140_000], Some(200_000)).forecast(&usage, &config).is_none());
    }
}
