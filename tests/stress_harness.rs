//! `scripts/stress-e2e.sh` counts what it promises: every scenario's passes per client over the
//! rounds, a failure in any round fails the run (and keeps its log), the integration suite run
//! alongside counts too. Stand-ins for cargo and the test binary (on PATH and in the target dir)
//! make each case happen without a build, a client or stress-ng.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A target dir with a stand-in test binary, and a stand-in cargo on PATH that "builds" it.
struct Harness {
    _root: tempfile::TempDir,
    tools: PathBuf,
    target: PathBuf,
}

impl Harness {
    /// `tests` is the stand-in test binary's shell body; it gets the test binary's arguments,
    /// `$BATON_E2E_CLAUDE_VERSION`, and `$round` (how many times it was run for e2e on that client).
    /// Run without an absolute path to an executable baton in `$BATON_TEST_BIN` (the tests run
    /// it from other directories), it fails as a whole.
    fn new(tests: &str) -> Self {
        let root = tempfile::tempdir().unwrap();
        let tools = root.path().join("tools");
        let target = root.path().join("target");
        let deps = target.join("debug/deps");
        std::fs::create_dir_all(&tools).unwrap();
        std::fs::create_dir_all(&deps).unwrap();
        write_executable(&target.join("debug/baton"), "#!/bin/sh\n");
        let binary = deps.join("integration-0123456789abcdef");
        let counter = root.path().join("rounds");
        let body = format!(
            "#!/bin/sh\n\
             case \"$1\" in --list) echo 'e2e::a: test'; echo 'e2e::b: test'; exit 0;; --exact) exit 0;; esac\n\
             case \"$BATON_TEST_BIN\" in /*) [ -x \"$BATON_TEST_BIN\" ] || exit 3;; *) exit 3;; esac\n\
             round=0\n\
             if [ \"$1\" != --skip ]; then\n\
               f='{counter}-'$BATON_E2E_CLAUDE_VERSION; round=$(($(cat \"$f\" 2>/dev/null || echo 0) + 1)); echo $round > \"$f\"\n\
             fi\n\
             {tests}\n",
            counter = counter.display()
        );
        write_executable(&binary, &body);
        let artifact = format!(
            r#"{{"reason":"compiler-artifact","target":{{"kind":["test"],"crate_types":["bin"],"name":"integration"}},"executable":"{}"}}"#,
            binary.display()
        );
        write_executable(
            &tools.join("cargo"),
            &format!("#!/bin/sh\ncase \"$*\" in *--no-run*) echo '{artifact}';; esac\nexit 0\n"),
        );
        Self {
            _root: root,
            tools,
            target,
        }
    }

    /// Runs the script with `args`: its exit code and stdout.
    fn run(&self, args: &[&str]) -> (Option<i32>, String) {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = format!("{}:{}", self.tools.display(), std::env::var("PATH").unwrap_or_default());
        let out = Command::new(repo.join("scripts/stress-e2e.sh"))
            .args(args)
            .env("PATH", path)
            .env("CARGO_TARGET_DIR", &self.target)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn logs(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.target.join("stress-e2e"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".log"))
            .collect();
        names.sort();
        names
    }
}

fn write_executable(path: &Path, body: &str) {
    std::fs::write(path, body).unwrap();
    crate::common::os::make_executable(path);
}

/// The table's row for `client` and `scenario`: `passed/runs`.
fn row<'a>(stdout: &'a str, client: &str, scenario: &str) -> Option<&'a str> {
    stdout.lines().find_map(|line| {
        let cells: Vec<&str> = line.split_whitespace().collect();
        (cells.len() == 3 && cells[0] == client && cells[1] == scenario).then(|| cells[2])
    })
}

const PASS_A_FAIL_B_ON_2_1_197_ROUND_2: &str = "\
    [ \"$1\" = --skip ] && { echo 'test result: ok. 9 passed'; exit 0; }\n\
    echo 'test e2e::a ... ok'\n\
    if [ \"$BATON_E2E_CLAUDE_VERSION\" = 2.1.197 ] && [ $round = 2 ]; then\n\
      echo 'test e2e::b ... FAILED'; echo 'test result: FAILED. 1 passed; 1 failed'; exit 101\n\
    fi\n\
    echo 'test e2e::b ... ok'; echo 'test result: ok. 2 passed'";

#[test]
fn every_scenario_is_counted_per_client_and_one_failed_round_fails_the_run() {
    let harness = Harness::new(PASS_A_FAIL_B_ON_2_1_197_ROUND_2);
    let (code, stdout) = harness.run(&["3", "--no-load"]);
    assert_eq!(code, Some(1), "a failed round fails the run\n{stdout}");
    assert_eq!(row(&stdout, "2.1.332", "e2e::a"), Some("3/3"), "{stdout}");
    assert_eq!(row(&stdout, "2.1.332", "e2e::b"), Some("3/3"), "{stdout}");
    assert_eq!(row(&stdout, "2.1.197", "e2e::a"), Some("3/3"), "{stdout}");
    assert_eq!(row(&stdout, "2.1.197", "e2e::b"), Some("2/3"), "{stdout}");
    assert_eq!(harness.logs(), ["2.1.197-2.log"], "only the failed round's log is kept");
}

#[test]
fn all_rounds_passing_passes_and_the_suite_alongside_counts_too() {
    let harness = Harness::new(
        "[ \"$1\" = --skip ] && { echo 'test kill::x ... FAILED'; echo 'test kill::y ... ok'; exit 101; }\n\
         echo 'test e2e::a ... ok'; echo 'test e2e::b ... ok'; echo 'test result: ok. 2 passed'",
    );
    let (code, stdout) = harness.run(&["2", "--no-load", "--clients", "2.1.332"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert_eq!(row(&stdout, "2.1.332", "e2e::b"), Some("2/2"), "{stdout}");
    assert_eq!(row(&stdout, "2.1.197", "e2e::b"), None, "one client asked for");

    let (code, stdout) = harness.run(&["2", "--no-load", "--clients", "2.1.332", "--with-integration"]);
    assert_eq!(code, Some(1), "the integration suite failed alongside\n{stdout}");
    assert_eq!(
        row(&stdout, "2.1.332", "alongside:(the-integration-suite)"),
        Some("0/2"),
        "{stdout}"
    );
    assert_eq!(row(&stdout, "2.1.332", "alongside:kill::x"), Some("0/2"), "{stdout}");
    assert_eq!(
        row(&stdout, "2.1.332", "alongside:kill::y"),
        None,
        "passing tests alongside are not listed"
    );
    assert_eq!(row(&stdout, "2.1.332", "e2e::a"), Some("2/2"), "{stdout}");
}
