//! Token and cost totals per model against an independent computation: de-duplication,
//! subagents, unpriced models, price overrides, damaged lines.

use serde_json::json;

use super::*;

#[test]
fn token_and_cost_totals_per_model_equal_an_independent_computation() {
    let sandbox = Sandbox::new();
    let (text, expected) = generated_session(7, 400, &[OPUS, SONNET, HAIKU, OPUS_41], 0);
    sandbox.session_transcript(SESSION, &text);
    let report = report_json(&sandbox, &[]);
    assert_eq!(report["session_id"], SESSION);
    assert_eq!(report["resources"]["models"].as_array().unwrap().len(), expected.len());
    for (model, e) in &expected {
        assert_row(&report, model, e);
    }
    let total_cost: f64 = expected.values().map(|e| e.cost).sum();
    let got = report["resources"]["total"]["cost_usd"].as_f64().unwrap();
    assert!((got - total_cost).abs() < 1e-6, "total {got}, expected {total_cost}");
    let requests: u64 = expected.values().map(|e| e.requests).sum();
    assert_eq!(report["resources"]["total"]["requests"], requests);
    assert_eq!(report["resources"]["scan"]["skipped_lines"], 0);
}

#[test]
fn streamed_repeats_count_once_but_a_reused_message_id_with_another_request_is_another_response() {
    let sandbox = Sandbox::new();
    let mut first = Reply::new(SONNET, 1);
    first.input = 100;
    let mut lines = Vec::new();
    for output in [1, 5, 40] {
        first.output = output;
        lines.push(first.line());
    }
    let mut retry = first.clone();
    retry.request_id = Some("req_retry".into());
    lines.push(retry.line());
    let text = lines.join("\n") + "\n";
    sandbox.session_transcript(SESSION, &text);
    let report = report_json(&sandbox, &[]);
    let row = model_row(&report, SONNET);
    assert_eq!(
        (row["requests"].as_u64(), row["tokens"]["input"].as_u64()),
        (Some(2), Some(200))
    );
    assert_eq!(row["tokens"]["output"], 80);
    assert_eq!(report["resources"]["scan"]["repeated_lines"], 2);
}

#[test]
fn the_real_clients_transcript_repeats_msg_1_over_four_requests_without_request_ids() {
    // The captured session made four requests (distinct tool calls, outputs 20, 20, 20, 5)
    // that all carry message id msg_1 and no requestId: they cannot be told apart from
    // streamed repeats by id, so each counts, as the API billed them.
    let sandbox = Sandbox::new();
    let text = std::fs::read_to_string(fixture_path("transcript-headless-3-tools.jsonl")).unwrap();
    sandbox.session_transcript(SESSION, &text);
    let report = report_json(&sandbox, &[]);
    let row = model_row(&report, "claude-sonnet-4-5");
    assert_eq!(
        (row["requests"].as_u64(), row["tokens"]["input"].as_u64()),
        (Some(4), Some(600_000))
    );
    assert_eq!(row["tokens"]["output"], 65);
    let expected = 600_000.0 * 3.0 / 1e6 + 65.0 * 15.0 / 1e6;
    assert!((row["cost_usd"].as_f64().unwrap() - expected).abs() < 1e-9);
}

#[test]
fn subagent_transcripts_and_sidechain_lines_are_included() {
    let sandbox = Sandbox::new();
    let (main, mut expected) = generated_session(1, 50, &[OPUS], 0);
    let mut sidechain = Reply::new(HAIKU, 900);
    sidechain.sidechain = true;
    sidechain.input = 7;
    sidechain.output = 3;
    sandbox.session_transcript(SESSION, &format!("{main}{}\n", sidechain.line()));
    let (agent_a, expected_a) = generated_session(2, 30, &[SONNET, HAIKU], 1000);
    let (agent_b, expected_b) = generated_session(3, 20, &[HAIKU], 2000);
    sandbox.subagent_transcript(SESSION, "a1b2", &agent_a);
    sandbox.subagent_transcript(SESSION, "c3d4", &agent_b);
    // An agent that made no request, and a file that is not a transcript.
    let empty = sandbox.subagent_transcript(SESSION, "empty", "");
    std::fs::write(empty.with_file_name("notes.txt"), "usage").unwrap();
    let mut subagents = Expected::default();
    for (model, e) in expected_a.into_iter().chain(expected_b).chain([(HAIKU.to_owned(), {
        let mut e = Expected::default();
        e.add(&sidechain);
        e
    })]) {
        let total = expected.entry(model).or_default();
        total.requests += e.requests;
        for (sum, n) in total.tokens.iter_mut().zip(e.tokens) {
            *sum += n;
        }
        total.cost += e.cost;
        subagents.requests += e.requests;
        subagents.cost += e.cost;
    }
    let report = report_json(&sandbox, &[]);
    for (model, e) in &expected {
        assert_row(&report, model, e);
    }
    let r = &report["resources"];
    assert_eq!(
        r["scan"]["subagent_transcripts"], 3,
        "agent-a1b2, agent-c3d4, agent-empty"
    );
    assert_eq!(r["subagents"]["requests"], subagents.requests);
    assert!((r["subagents"]["cost_usd"].as_f64().unwrap() - subagents.cost).abs() < 1e-6);
}

#[test]
fn an_unknown_model_is_listed_as_unpriced_and_left_out_of_the_cost() {
    let sandbox = Sandbox::new();
    let mut known = Reply::new(OPUS, 1);
    known.input = 1_000_000;
    let mut unknown = Reply::new("claude-experimental-9", 2);
    unknown.input = 5_000_000;
    let mut synthetic = Reply::new("<synthetic>", 3);
    synthetic.input = 1;
    sandbox.session_transcript(
        SESSION,
        &format!("{}\n{}\n{}\n", known.line(), unknown.line(), synthetic.line()),
    );
    let report = report_json(&sandbox, &[]);
    assert_eq!(report["resources"]["unpriced_models"], json!(["claude-experimental-9"]));
    assert!(model_row(&report, "claude-experimental-9")["cost_usd"].is_null());
    assert_eq!(report["resources"]["total"]["cost_usd"], 5.0);
    assert_eq!(report["resources"]["total"]["tokens"]["input"], 6_000_000);
    assert_eq!(
        report["resources"]["models"].as_array().unwrap().len(),
        2,
        "<synthetic> is skipped"
    );

    let out = sandbox.run(&["report"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let text = std::fs::read_to_string(sandbox.project.join(".baton/reports/SESSION_REPORT.md")).unwrap();
    assert!(text.contains("| claude-experimental-9 | 1 | 5,000,000 |"), "{text}");
    assert!(text.contains("| unpriced |"), "{text}");
    assert!(text.contains("**Unpriced:** claude-experimental-9"), "{text}");
}

#[test]
fn prices_are_overridden_by_the_config_and_then_by_a_price_file() {
    let sandbox = Sandbox::new();
    let mut opus = Reply::new(OPUS, 1);
    opus.input = 1_000_000;
    opus.cache_read = 1_000_000;
    let mut local = Reply::new("my-local-model", 2);
    local.output = 2_000_000;
    sandbox.session_transcript(SESSION, &format!("{}\n{}\n", opus.line(), local.line()));
    let config = sandbox.home.join(".config/baton/config.json");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        r#"{"prices": {"claude-opus-4-5": {"input": 4, "output": 20}}}"#,
    )
    .unwrap();
    let report = report_json(&sandbox, &[]);
    // input 4, cache read defaults to a tenth of input: 4 + 0.4.
    assert!((model_row(&report, OPUS)["cost_usd"].as_f64().unwrap() - 4.4).abs() < 1e-9);
    assert!(model_row(&report, "my-local-model")["cost_usd"].is_null());

    let prices = sandbox.write("prices.json", r#"{"my-local-model": {"input": 0.5, "output": 1.5}}"#);
    let report = report_json(&sandbox, &["--prices", prices.to_str().unwrap()]);
    assert!((model_row(&report, "my-local-model")["cost_usd"].as_f64().unwrap() - 3.0).abs() < 1e-9);
    assert!((report["resources"]["total"]["cost_usd"].as_f64().unwrap() - 7.4).abs() < 1e-9);
    assert_eq!(report["resources"]["price_overrides"].as_array().unwrap().len(), 2);

    let bad = sandbox.write("bad.json", r#"{"my-local-model": {"input": "cheap"}}"#);
    let out = sandbox.run(&["report", "--prices", bad.to_str().unwrap()], b"");
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("USD per million tokens"), "{}", out.stderr);
}

#[test]
fn malformed_truncated_and_binary_lines_are_skipped_and_counted() {
    let sandbox = Sandbox::new();
    let (good, expected) = generated_session(11, 40, &[SONNET], 0);
    let mut bytes = good.into_bytes();
    bytes.extend_from_slice(b"{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tokens\":5}\n");
    bytes.extend_from_slice(b"\x00\x01\xff\xfe binary junk \"usage\" \"assistant\" \x80\x81\n");
    bytes.extend_from_slice(b"not json at all\n\n");
    bytes.extend_from_slice(&[0xffu8; 300]);
    bytes.push(b'\n');
    let mut cut = Reply::new(SONNET, 9999);
    cut.input = 123;
    let cut = cut.line();
    bytes.extend_from_slice(&cut.as_bytes()[..cut.len() - 20]);
    let path = sandbox.claude_project_dir().join(format!("{SESSION}.jsonl"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let report = report_json(&sandbox, &[]);
    assert_row(&report, SONNET, &expected[SONNET]);
    assert_eq!(
        report["resources"]["scan"]["skipped_lines"], 3,
        "the unclosed object, the junk with both words, the cut line"
    );

    let out = sandbox.run(&["report"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let text = std::fs::read_to_string(host_path(out.stdout.trim())).unwrap();
    assert!(text.contains("3 unreadable lines skipped"), "{text}");
}

/// The Markdown table's cells of the row starting with `first` (after the model name).
fn table_row(text: &str, first: &str) -> Vec<String> {
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("| {first} |")))
        .unwrap_or_else(|| panic!("no row {first}:\n{text}"));
    line.trim_matches('|')
        .split('|')
        .skip(1)
        .map(|c| c.trim().trim_matches('*').to_owned())
        .collect()
}

fn number(cell: &str) -> u64 {
    cell.replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {cell}"))
}

#[test]
fn counts_that_cannot_be_read_or_be_true_are_left_out_and_every_total_is_its_rows() {
    let sandbox = Sandbox::new();
    let mut lines = Vec::new();
    let mut good = Reply::new(OPUS, 1);
    good.input = 1000;
    good.output = 10;
    lines.push(good.line());
    // Near u64::MAX: two of these would wrap a sum to almost nothing.
    for (n, input) in [(2, u64::MAX), (3, u64::MAX - 7), (4, 1u64 << 63)] {
        let mut huge = Reply::new(OPUS, n);
        huge.input = input;
        lines.push(huge.line());
    }
    // Beyond u64: both of baton's readers take it as the largest count, which cannot be true.
    lines.push(
        Reply::new(SONNET, 5)
            .line()
            .replace("\"input_tokens\":0", "\"input_tokens\":18446744073709551616"),
    );
    // Wrong types and negative numbers, on an otherwise fine line each.
    lines.push(
        Reply::new(SONNET, 6)
            .line()
            .replace("\"input_tokens\":0", "\"input_tokens\":\"150000\""),
    );
    lines.push(
        Reply::new(SONNET, 7)
            .line()
            .replace("\"output_tokens\":0", "\"output_tokens\":-40"),
    );
    lines.push(
        Reply::new(SONNET, 8)
            .line()
            .replace("\"cache_read_input_tokens\":0", "\"cache_read_input_tokens\":[1]"),
    );
    // A model that is not a string, and a null count (absent, which is fine).
    let mut odd = Reply::new("x", 9);
    odd.input = 5;
    lines.push(odd.line().replace("\"model\":\"x\"", "\"model\":7"));
    let mut sonnet = Reply::new(SONNET, 10);
    sonnet.input = 2000;
    sonnet.output = 20;
    lines.push(
        sonnet
            .line()
            .replace("\"cache_read_input_tokens\":0", "\"cache_read_input_tokens\":null"),
    );
    sandbox.session_transcript(SESSION, &(lines.join("\n") + "\n"));
    let mut agent = Reply::new(HAIKU, 11);
    agent.input = 300;
    let mut agent_huge = Reply::new(HAIKU, 12);
    agent_huge.cache_read = u64::MAX;
    sandbox.subagent_transcript(SESSION, "a1", &format!("{}\n{}\n", agent.line(), agent_huge.line()));

    let report = report_json(&sandbox, &[]);
    let r = &report["resources"];
    assert_eq!(r["scan"]["rejected_lines"], 8, "{}", r["scan"]);
    assert_eq!(r["scan"]["usage_lines"], 4);
    let models = r["models"].as_array().unwrap();
    let field = |v: &Value, k: &str| v["tokens"][k].as_u64().unwrap();
    for kind in ["input", "output", "cache_write_5m", "cache_write_1h", "cache_read"] {
        let rows: u64 = models.iter().map(|m| field(m, kind)).sum();
        assert_eq!(field(&r["total"], kind), rows, "total {kind}");
        let agents: u64 = models
            .iter()
            .map(|m| m["subagent_tokens"][kind].as_u64().unwrap())
            .sum();
        assert_eq!(
            r["subagents"]["tokens"][kind].as_u64().unwrap(),
            agents,
            "subagents {kind}"
        );
    }
    assert_eq!(field(&r["total"], "input"), 1000 + 2000 + 5 + 300);
    let requests: u64 = models.iter().map(|m| m["requests"].as_u64().unwrap()).sum();
    assert_eq!((r["total"]["requests"].as_u64(), requests), (Some(4), 4));
    let cost: f64 = models.iter().filter_map(|m| m["cost_usd"].as_f64()).sum();
    let expected = (1000.0 * 5.0 + 10.0 * 25.0 + 2000.0 * 3.0 + 20.0 * 15.0 + 300.0 * 1.0) / 1e6;
    assert!((r["total"]["cost_usd"].as_f64().unwrap() - cost).abs() < 1e-12);
    assert!((cost - expected).abs() < 1e-12, "{cost} vs {expected}");

    let out = sandbox.run(&["report"], b"");
    assert_eq!(out.code, Some(0), "{out:?}");
    let text = std::fs::read_to_string(host_path(out.stdout.trim())).unwrap();
    assert!(
        text.contains("**Left out:** 8 usage lines whose token counts"),
        "{text}"
    );
    let total = table_row(&text, "**Total**");
    for (column, cell) in total.iter().enumerate().take(6) {
        let rows: u64 = models
            .iter()
            .map(|m| number(&table_row(&text, m["model"].as_str().unwrap())[column]))
            .sum();
        assert_eq!(number(cell), rows, "column {column} of\n{text}");
    }
}

#[test]
fn a_negative_or_absurd_price_is_refused_naming_the_model_and_the_field() {
    let sandbox = Sandbox::new();
    sandbox.session_transcript(SESSION, &format!("{}\n", Reply::new(OPUS, 1).line()));
    for (prices, says) in [
        (
            r#"{"claude-opus-4-5": {"input": -5, "output": 25}}"#,
            "claude-opus-4-5: input is -5",
        ),
        (
            r#"{"my-model": {"input": 1, "output": 1e7}}"#,
            "my-model: output is 10000000",
        ),
        (
            r#"{"claude-sonnet-4-5": {"input": 3, "output": 15, "long_context": {"input": 6, "output": -1}}}"#,
            "claude-sonnet-4-5: long_context.output is -1",
        ),
    ] {
        let file = sandbox.write("prices.json", prices);
        let out = sandbox.run(&["report", "--json", "--prices", file.to_str().unwrap()], b"");
        assert_eq!(out.code, Some(1), "{out:?}");
        assert!(
            out.stderr.contains(says) && out.stderr.contains("USD per million tokens"),
            "{}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
    let config = sandbox.home.join(".config/baton/config.json");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        r#"{"prices": {"claude-opus-4-5": {"input": 5, "output": -25}}}"#,
    )
    .unwrap();
    let out = sandbox.run(&["report", "--json"], b"");
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stderr.contains("claude-opus-4-5: output is -25"), "{}", out.stderr);
}
