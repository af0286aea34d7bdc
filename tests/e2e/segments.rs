//! The statusline's optional segments on what the real client sends. Usage limits reach a
//! statusline only on subscription logins and gateways, which an API key is not: 2.1.332 reads
//! the API's `anthropic-ratelimit-unified-*` headers when its auth token is a gateway's (a JWT
//! whose `aud` is `claude-gateway`, read in its code and checked here), so the mock sends
//! those headers and the settings give such a token. The mock also reports most of each
//! request as read from the prompt cache, so 2.1.332's `prompt_cache` says warm. 2.1.197 sends
//! neither `rate_limits` nor `prompt_cache`: those segments are left out there.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::json;

use super::client::{LATEST, baton_command, version};
use super::mock::{Extras, Mock, Reply};
use super::poll;
use super::sandbox::Sandbox;
use super::tmux::{LIMIT, Tmux};

/// An unsigned JWT with `{"aud":"claude-gateway"}`: the client takes limits from headers then.
const GATEWAY_TOKEN: &str = "eyJhbGciOiJub25lIn0.eyJhdWQiOiJjbGF1ZGUtZ2F0ZXdheSJ9.e2e";

/// The headers of a subscription at 42.4% of its 5-hour window (resetting in 1h20m) and 12% of
/// its 7-day window (3d4h), as the API sends them: fractions and Unix seconds.
fn limit_headers(now: u64) -> Vec<(String, String)> {
    [
        ("anthropic-ratelimit-unified-status", "allowed".to_owned()),
        ("anthropic-ratelimit-unified-5h-utilization", "0.424".to_owned()),
        ("anthropic-ratelimit-unified-5h-reset", (now + 80 * 60).to_string()),
        ("anthropic-ratelimit-unified-7d-utilization", "0.12".to_owned()),
        (
            "anthropic-ratelimit-unified-7d-reset",
            (now + 3 * 86_400 + 4 * 3_600).to_string(),
        ),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value))
    .collect()
}

/// baton's row: from the model name on, without Claude Code's own "NN% context used" that
/// 2.1.197 prints at the right of the same row.
fn baton_row(screen: &str) -> Option<String> {
    let row = screen.lines().find(|line| line.contains("Sonnet 4.5 │"))?;
    let row = &row[row.find("Sonnet 4.5 │")?..];
    let own = row.find("   ").map_or(row, |footer| &row[..footer]);
    Some(own.trim_end().to_owned())
}

#[test]
fn limits_cache_cost_and_duration_from_the_clients_own_payload() {
    let sandbox = Sandbox::new("segments");
    sandbox.skip_first_run_dialogs(super::client::API_KEY);
    // The payloads are kept too, to check the client's field names and units.
    let payloads = sandbox.root.join("statusline-payloads.jsonl");
    let command = format!("tee -a '{}' | {}", payloads.display(), baton_command("statusline"));
    let statusline = json!({"type": "command", "command": command, "padding": 0});
    sandbox.project_settings(&json!({"statusLine": statusline, "env": {"ANTHROPIC_AUTH_TOKEN": GATEWAY_TOKEN}}));
    std::fs::create_dir_all(sandbox.project.join(".baton")).unwrap();
    std::fs::write(
        sandbox.project.join(".baton/config.json"),
        r#"{"statusline": {"segments": ["model", "context", "limits", "cost", "duration", "cache"]}}"#,
    )
    .unwrap();
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
    let extras = Extras {
        headers: limit_headers(now),
        cached: true,
    };
    let mock = Mock::start_with(extras, |_| Reply::text(150_000, "hello from the mock"));
    let tmux = Tmux::start(&sandbox, &mock);
    tmux.submit("say hi", &mock);

    let modern = version() == LATEST;
    let complete = |row: &String| row.contains("████████░░ 83%") && (!modern || row.contains("cache "));
    let shown = poll(LIMIT, || baton_row(&tmux.screen()).filter(complete));
    let row = shown.unwrap_or_else(|| panic!("no row with every segment; screen:\n{}", tmux.screen()));
    let parts: Vec<&str> = row.split(" │ ").collect();
    assert_eq!(parts[1], "████████░░ 83%", "{row}");
    let (cost, duration) = if modern {
        assert_eq!(parts.len(), 6, "model, context, limits, cost, duration, cache: {row}");
        // 42.4% shows as 42%; the resets a few seconds after the headers were made.
        let limits = parts[2];
        assert!(
            ["5h 42% ↻1h20m", "5h 42% ↻1h19m"].iter().any(|s| limits.starts_with(s))
                && [" · 7d 12% ↻3d4h", " · 7d 12% ↻3d3h"]
                    .iter()
                    .any(|s| limits.ends_with(s)),
            "{row}"
        );
        // A 5-minute cache, warm since the reply.
        assert!(["cache 5m", "cache 4m"].contains(&parts[5]), "{row}");
        (parts[3], parts[4])
    } else {
        assert_eq!(parts.len(), 4, "no limits and no cache from this client: {row}");
        (parts[2], parts[3])
    };
    assert!(
        cost.starts_with('$') && cost[1..].parse::<f64>().is_ok_and(|usd| usd > 0.0),
        "{row}"
    );
    assert!(duration.ends_with('s') || duration.ends_with('m'), "{row}");

    // What the client sent: percentages with one decimal, resets in Unix seconds.
    let text = std::fs::read_to_string(&payloads).unwrap();
    let sent = serde_json::Deserializer::from_str(&text).into_iter::<serde_json::Value>();
    let last = sent.map_while(Result::ok).last().expect("the statusline's payloads");
    if modern {
        let five = &last["rate_limits"]["five_hour"];
        assert_eq!(five["used_percentage"], 42.4, "{last}");
        assert_eq!(five["resets_at"], now + 80 * 60, "{last}");
        assert_eq!(last["rate_limits"]["seven_day"]["used_percentage"], 12, "{last}");
        let cache = &last["prompt_cache"];
        assert_eq!(
            (&cache["warm"], &cache["caching_observed"]),
            (&json!(true), &json!(true)),
            "{last}"
        );
        assert!(
            cache["expires_at"]
                .as_u64()
                .is_some_and(|at| at > now && at <= now + 400),
            "{last}"
        );
    } else {
        assert!(
            last.get("rate_limits").is_none() && last.get("prompt_cache").is_none(),
            "{last}"
        );
    }
}
