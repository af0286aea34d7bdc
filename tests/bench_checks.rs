//! `bench/hooks.sh --check` and `bench/report.sh --check` fail, saying why, when they cannot
//! measure what they promise: a build that fails (never a stale binary measured instead), or
//! a tool to compare against (GSD, ccusage) that npm could not install; and
//! `bench/bridge.sh --check` fails when the bridge misses a target (the full run against the
//! bare parse floor, the typical agent run). Stand-ins for cargo, rustc,
//! npm and rg on PATH make each case happen without a build or the network.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::baton_bin;

const TRIPLE: &str = "x86_64-unknown-linux-gnu";

/// A directory of stand-in tools put first on PATH, and a target dir holding a binary from
/// an earlier build (where a plain `cargo build --release` puts it).
struct Bench {
    _root: tempfile::TempDir,
    tools: PathBuf,
    target: PathBuf,
}

impl Bench {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        let tools = root.path().join("tools");
        let target = root.path().join("target");
        let stale = target.join("release/baton");
        std::fs::create_dir_all(&tools).unwrap();
        std::fs::create_dir_all(stale.parent().unwrap()).unwrap();
        std::fs::copy(baton_bin(), &stale).unwrap();
        let bench = Self {
            _root: root,
            tools,
            target,
        };
        bench.tool("rustc", &format!("echo 'host: {TRIPLE}'"));
        bench
    }

    fn tool(&self, name: &str, body: &str) {
        let path = self.tools.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        crate::common::os::make_executable(&path);
    }

    /// Runs `bench/<script>` with `args`; a run that does not end within two minutes is
    /// killed (it went on to measure instead of stopping).
    fn run(&self, script: &str, args: &[&str]) -> (Option<i32>, String, String) {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = format!("{}:{}", self.tools.display(), std::env::var("PATH").unwrap_or_default());
        let mut child = Command::new(repo.join("bench").join(script))
            .args(args)
            .env("PATH", path)
            .env("CARGO_TARGET_DIR", &self.target)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(120) {
                let _ = child.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

#[test]
fn a_failed_build_fails_the_benchmarks_instead_of_measuring_an_old_binary() {
    // Small data sets, so a script that goes on to measure the old binary ends soon.
    for (script, small) in [("hooks.sh", ["--big-mb", "1"]), ("report.sh", ["--gb", "0.001"])] {
        let bench = Bench::new();
        bench.tool("cargo", "echo 'error: could not compile `baton`' >&2; exit 101");
        bench.tool("npm", "exit 1");
        let (code, stdout, stderr) = bench.run(script, &["--quick", "--check", small[0], small[1]]);
        assert!(
            matches!(code, Some(c) if c != 0),
            "{script}: {code:?}\n{stdout}\n{stderr}"
        );
        assert!(stderr.contains("the build failed"), "{script}: {stderr}");
        assert!(
            !stdout.contains("PASS") && !stdout.contains("median"),
            "{script} measured:\n{stdout}"
        );
    }
}

#[test]
fn a_comparison_tool_npm_cannot_install_fails_the_check() {
    for (script, tool) in [("hooks.sh", "GSD"), ("report.sh", "ccusage")] {
        let bench = Bench::new();
        bench.tool("npm", "echo 'npm ERR! network request failed' >&2; exit 1");
        let (code, stdout, stderr) = bench.run(script, &["--no-build", "--quick", "--check"]);
        assert_eq!(code, Some(1), "{script}: {stdout}\n{stderr}");
        assert!(
            stderr.contains("npm could not install")
                && stderr.contains(&format!("the {tool}"))
                && stderr.contains("FAIL"),
            "{script}: {stderr}"
        );
        assert!(
            !stdout.contains("SKIP") && !stdout.contains("PASS"),
            "{script}:\n{stdout}"
        );
    }
}

#[test]
fn a_baton_over_the_every_segment_target_fails_the_check_naming_the_row() {
    // A baton that takes 50 ms more than itself is far over "within 1.5x of /bin/true" on
    // any machine: the every-segment rows must say FAIL and --check exit 1. (Whether the
    // real binary meets the targets is the benchmark's to say, not a test's.)
    let bench = Bench::new();
    let slow = bench.tools.join("slow-baton");
    std::fs::write(&slow, format!("#!/bin/sh\nsleep 0.05\nexec '{}' \"$@\"\n", baton_bin())).unwrap();
    crate::common::os::make_executable(&slow);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = bench.target.join("bench");
    let out = Command::new("python3")
        .arg(repo.join("bench/hooks.py"))
        .args([
            "--baton",
            &slow.to_string_lossy(),
            "-n",
            "3",
            "--warmup",
            "1",
            "--check",
        ])
        .args(["--big-mb", "1", "--no-rss", "--work", &work.to_string_lossy()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    for row in [
        "FAIL  statusline, every segment, within 1.5x of a no-op",
        "FAIL  monitor, warning with forecast, within 1.5x",
        "PASS  sanity: baton statusline all shows the forecast and every segment",
        "PASS  sanity: baton monitor all warns with the forecast",
    ] {
        assert!(stdout.contains(row), "{row:?} missing:\n{stdout}");
    }
}

#[test]
fn the_bridge_check_fails_when_a_target_is_missed_and_passes_when_met() {
    // The targets given impossibly tight, then loosely: the verdicts and the exit code follow
    // the figures. The generated repository is small, so each run is short; rg is a
    // reference only, so a stand-in that answers at once changes no verdict.
    for (targets, code, verdicts) in [
        (
            ["--max-ratio", "0.001", "--max-typical-ms", "0.001"],
            Some(1),
            [
                "FAIL  full run within 0.001x of the floor's process",
                "FAIL  typical agent run under 0.001 ms",
            ],
        ),
        (
            ["--max-ratio", "1000000", "--max-typical-ms", "1000000"],
            Some(0),
            [
                "PASS  full run within 1e+06x of the floor's process",
                "PASS  typical agent run under 1e+06 ms",
            ],
        ),
    ] {
        let bench = Bench::new();
        bench.tool("rg", "exit 1");
        let mut args = vec!["--no-build", "--check", "--files", "200", "-n", "1"];
        args.extend_from_slice(&targets);
        let (got, stdout, stderr) = bench.run("bridge.sh", &args);
        assert_eq!(got, code, "{targets:?}:\n{stdout}\n{stderr}");
        for verdict in verdicts {
            assert!(stdout.contains(verdict), "{verdict:?} missing:\n{stdout}");
        }
        assert!(
            stdout.contains("PASS  baton extracted every generated table"),
            "{targets:?}:\n{stdout}"
        );
    }
}
