//! A large transcript is read in flat memory (a generous bound, not a timing claim).

use std::path::Path;

use serde_json::Value;

use super::*;

/// Runs baton and returns its stdout and its peak resident memory in KiB.
fn run_measuring_memory(sandbox: &Sandbox, args: &[&str]) -> (String, u64) {
    crate::common::os::run_measuring_memory(sandbox.command(args), b"")
}

/// Writes a transcript of about `megabytes` MB: replies with their own ids between long
/// tool results, as real sessions are mostly tool output. Returns the expected requests.
fn write_large_transcript(path: &Path, megabytes: usize) -> u64 {
    use std::io::Write;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut file = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path).unwrap());
    let filler = "x\\n\\\"y\\\" ".repeat(100_000 / 8);
    let tool_result = format!(
        r#"{{"type":"user","message":{{"role":"user","content":[{{"type":"tool_result","content":"{filler}"}}]}}}}"#
    );
    let mut requests = 0;
    let mut written = 0;
    let mut n = 0;
    while written < megabytes << 20 {
        let mut reply = Reply::new(OPUS, n);
        reply.input = 10;
        reply.output = 1;
        let line = reply.line();
        for _ in 0..2 {
            file.write_all(line.as_bytes()).unwrap();
            file.write_all(b"\n").unwrap();
        }
        file.write_all(tool_result.as_bytes()).unwrap();
        file.write_all(b"\n").unwrap();
        written += 2 * line.len() + tool_result.len() + 3;
        requests += 1;
        n += 1;
    }
    file.flush().unwrap();
    requests
}

#[test]
fn a_large_transcript_is_read_in_flat_memory() {
    let small = Sandbox::new();
    let small_requests = write_large_transcript(&small.claude_project_dir().join(format!("{SESSION}.jsonl")), 20);
    let large = Sandbox::new();
    let large_requests = write_large_transcript(&large.claude_project_dir().join(format!("{SESSION}.jsonl")), 200);
    let (small_out, small_kib) = run_measuring_memory(&small, &["report", "--json"]);
    let (large_out, large_kib) = run_measuring_memory(&large, &["report", "--json"]);
    let requests = |out: &str| serde_json::from_str::<Value>(out).unwrap()["resources"]["total"]["requests"].as_u64();
    assert_eq!(requests(&small_out), Some(small_requests));
    assert_eq!(requests(&large_out), Some(large_requests));
    // What fills the context is read from the end of a large transcript, and says so.
    let whole = |out: &str| serde_json::from_str::<Value>(out).unwrap()["context"]["whole_transcript"].as_bool();
    assert_eq!(whole(&small_out), Some(true));
    assert_eq!(whole(&large_out), Some(false));
    eprintln!("peak RSS: 20 MB transcript {small_kib} KiB, 200 MB transcript {large_kib} KiB");
    // Generous bounds, not a timing claim: ten times the data, at most a few MiB more.
    assert!(
        large_kib < small_kib + 16 * 1024,
        "200 MB: {large_kib} KiB, 20 MB: {small_kib} KiB"
    );
    assert!(large_kib < 64 * 1024, "200 MB transcript took {large_kib} KiB");
}

#[test]
fn a_two_gigabyte_transcript_with_junk_is_reported_with_a_skipped_count() {
    use std::io::Write;
    let sandbox = Sandbox::new();
    let path = sandbox.claude_project_dir().join(format!("{SESSION}.jsonl"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut file = std::fs::File::create(&path).unwrap();
    let mut expected = 0;
    for n in 0..3 {
        writeln!(file, "{}", Reply::new(OPUS, n).line()).unwrap();
        expected += 1;
    }
    // 2 GiB of binary zeros (a sparse hole: no disk used), then junk, a malformed usage line,
    // a real reply and a truncated last line.
    let len = file.metadata().unwrap().len();
    file.set_len(len + (2 << 30)).unwrap();
    let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(b"\n\xff\xfe\x00binary junk\n").unwrap();
    writeln!(file, r#"{{"type":"assistant","message":{{"usage":{{"input_tokens":"#).unwrap();
    writeln!(file, "{}", Reply::new(OPUS, 3).line()).unwrap();
    expected += 1;
    let last = Reply::new(OPUS, 4).line();
    file.write_all(&last.as_bytes()[..last.len() / 2]).unwrap();
    drop(file);

    let (out, kib) = run_measuring_memory(&sandbox, &["report", "--json"]);
    // The same binary on a three-reply transcript: its own footprint (which grows with what
    // is linked in, such as the bridge's grammars), beside which the 2 GB run is measured.
    let small = Sandbox::new();
    let small_path = small.claude_project_dir().join(format!("{SESSION}.jsonl"));
    std::fs::create_dir_all(small_path.parent().unwrap()).unwrap();
    let replies: String = (0..3).map(|n| Reply::new(OPUS, n).line() + "\n").collect();
    std::fs::write(&small_path, replies).unwrap();
    let (_, base_kib) = run_measuring_memory(&small, &["report", "--json"]);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        report["resources"]["total"]["requests"].as_u64(),
        Some(expected),
        "{report:#}"
    );
    let skipped = report["resources"]["scan"]["skipped_lines"]
        .as_u64()
        .unwrap_or_else(|| panic!("no skipped count: {report:#}"));
    assert!(skipped >= 2, "the malformed and truncated lines are counted: {skipped}");
    assert!(
        kib < base_kib + 56 * 1024,
        "2 GB transcript took {kib} KiB, a three-reply one {base_kib} KiB"
    );
}
