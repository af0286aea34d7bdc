//! `baton report` through the built binary: token and cost totals checked against a
//! computation done here from the lines the test writes (prices typed in again from
//! docs/report.md "Prices"), de-duplication, subagents, unpriced models, price overrides, damaged
//! transcripts, a large transcript in flat memory, and the report's other sections.

// The memory sampler (`common::os`) reads Linux's /proc.
#[cfg(target_os = "linux")]
mod memory;
mod sections;
mod totals;

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::common::*;

const SESSION: &str = "7d1c2b3a-0000-4000-8000-00000000abcd";
const OPUS: &str = "claude-opus-4-5-20251101";
const SONNET: &str = "claude-sonnet-4-5-20250929";
const HAIKU: &str = "claude-haiku-4-5";
const OPUS_41: &str = "claude-opus-4-1";

/// USD per million tokens: input, output, cache write 5m, cache write 1h, cache read.
fn rates(model: &str, long_context: bool) -> Option<[f64; 5]> {
    Some(match model {
        OPUS => [5.0, 25.0, 6.25, 10.0, 0.5],
        SONNET if long_context => [6.0, 22.5, 7.5, 12.0, 0.6],
        SONNET => [3.0, 15.0, 3.75, 6.0, 0.3],
        HAIKU => [1.0, 5.0, 1.25, 2.0, 0.1],
        OPUS_41 => [15.0, 75.0, 18.75, 30.0, 1.5],
        _ => return None,
    })
}

/// What the test expects for one model: requests, the five counts, the cost.
#[derive(Debug, Default, Clone, PartialEq)]
struct Expected {
    requests: u64,
    tokens: [u64; 5],
    cost: f64,
}

impl Expected {
    fn add(&mut self, r: &Reply) {
        let tokens = [r.input, r.output, r.cache_write_5m, r.cache_write_1h, r.cache_read];
        let prompt = r.input + r.cache_write_5m + r.cache_write_1h + r.cache_read;
        self.requests += 1;
        for (sum, n) in self.tokens.iter_mut().zip(tokens) {
            *sum += n;
        }
        if let Some(rates) = rates(&r.model, prompt > 200_000) {
            self.cost += tokens
                .iter()
                .zip(rates)
                .map(|(&n, rate)| n as f64 * rate / 1e6)
                .sum::<f64>();
        }
    }
}

/// A small deterministic generator (no dependency).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn report_json(sandbox: &Sandbox, args: &[&str]) -> Value {
    let mut all = vec!["report", "--json"];
    all.extend_from_slice(args);
    let out = sandbox.run(&all, b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stdout))
}

fn model_row<'a>(report: &'a Value, model: &str) -> &'a Value {
    report["resources"]["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["model"] == model)
        .unwrap_or_else(|| panic!("no row for {model}: {report}"))
}

#[track_caller]
fn assert_row(report: &Value, model: &str, expected: &Expected) {
    let row = model_row(report, model);
    let t = &row["tokens"];
    let got = [
        &t["input"],
        &t["output"],
        &t["cache_write_5m"],
        &t["cache_write_1h"],
        &t["cache_read"],
    ]
    .map(|v| v.as_u64().unwrap());
    assert_eq!(
        (row["requests"].as_u64().unwrap(), got),
        (expected.requests, expected.tokens),
        "{model}"
    );
    match rates(model, false) {
        Some(_) => {
            let cost = row["cost_usd"].as_f64().unwrap();
            assert!(
                (cost - expected.cost).abs() < 1e-6,
                "{model}: cost {cost}, expected {}",
                expected.cost
            );
        }
        None => assert!(row["cost_usd"].is_null(), "{model} must be unpriced: {row}"),
    }
}

/// Writes `count` responses spread over the models, each streamed as 1–3 lines with the
/// same ids (earlier lines carry a partial output count, as the client writes them), with
/// user lines between; returns the text and the expected totals per model.
fn generated_session(
    seed: u64,
    count: usize,
    models: &[&str],
    first_id: usize,
) -> (String, BTreeMap<String, Expected>) {
    let mut rng = Lcg(seed);
    let mut text = String::new();
    let mut expected: BTreeMap<String, Expected> = BTreeMap::new();
    let user = json!({"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"usage: x \"assistant\""}]}});
    for n in 0..count {
        let mut reply = Reply::new(models[rng.below(models.len() as u64) as usize], first_id + n);
        reply.input = rng.below(5000);
        reply.output = 1 + rng.below(4000);
        reply.cache_write_5m = rng.below(3000);
        reply.cache_write_1h = if rng.below(4) == 0 { rng.below(2000) } else { 0 };
        reply.cache_read = rng.below(150_000);
        if reply.model == SONNET && rng.below(10) == 0 {
            reply.cache_read = 200_001 + rng.below(100_000);
        }
        reply.split = rng.below(5) != 0;
        if !reply.split {
            reply.cache_write_1h = 0;
        }
        for _ in 0..rng.below(3) {
            let mut partial = reply.clone();
            partial.output = 1 + rng.below(reply.output);
            text.push_str(&partial.line());
            text.push('\n');
        }
        text.push_str(&reply.line());
        text.push('\n');
        text.push_str(&user.to_string());
        text.push('\n');
        expected.entry(reply.model.clone()).or_default().add(&reply);
    }
    (text, expected)
}
