//! One test's private world: a temp HOME (with its own TMPDIR) and a project directory, the
//! settings files the client reads there, and the session transcripts it writes back.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

/// Seeds `<home>/.claude.json` so the client starts straight at its prompt: onboarding done,
/// `api_key` approved, `project` trusted.
pub fn skip_first_run_dialogs(home: &Path, project: &Path, api_key: &str) {
    // The client remembers an approved key by its last 20 characters (observed on
    // 2.1.197: the whole key is not recognised and the approval dialog appears).
    let tail = &api_key[api_key.len().saturating_sub(20)..];
    let project = project.to_string_lossy();
    write_json(
        &home.join(".claude.json"),
        &json!({"hasCompletedOnboarding": true,
                "customApiKeyResponses": {"approved": [tail], "rejected": []},
                "projects": {project: {"hasTrustDialogAccepted": true}}}),
    );
}

/// Directories owned by one test; removed on drop unless the test failed (then kept and named).
pub struct Sandbox {
    /// Holds everything below; a test may keep its own files here too.
    pub root: PathBuf,
    /// `$HOME` for the client and every hook it runs.
    pub home: PathBuf,
    /// `$TMPDIR` (inside the temp HOME), where baton keeps its per-session state.
    pub tmp: PathBuf,
    /// The project the client is started in.
    pub project: PathBuf,
}

impl Sandbox {
    /// Creates fresh, empty directories whose names start with `name`.
    pub fn new(name: &str) -> Sandbox {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let unique = format!(
            "baton-e2e-{name}-{}-{}-{nanos}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::SeqCst)
        );
        let base = std::env::temp_dir().canonicalize().expect("the test's temp dir exists");
        Sandbox::at(base.join(unique), "project")
    }

    /// Creates fresh, empty directories under `root`, the project's named `project`.
    pub fn at(root: PathBuf, project: &str) -> Sandbox {
        let home = root.join("home");
        let tmp = home.join("tmp");
        let project = root.join(project);
        for dir in [&tmp, &project.join(".claude")] {
            fs::create_dir_all(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
        }
        Sandbox {
            root,
            home,
            tmp,
            project,
        }
    }

    /// Writes the project's `.claude/settings.json`.
    pub fn project_settings(&self, settings: &Value) {
        write_json(&self.project.join(".claude/settings.json"), settings);
    }

    /// Seeds `~/.claude.json` so the interactive client starts straight at its prompt:
    /// onboarding done, `api_key` approved, the project trusted.
    pub fn skip_first_run_dialogs(&self, api_key: &str) {
        skip_first_run_dialogs(&self.home, &self.project, api_key);
    }

    /// Installs baton as `npx baton-cc install` does (`baton install --copy --yes`: the binary
    /// under test copied to `~/.local/bin` and wired); returns what it printed, and panics with
    /// that unless it succeeds.
    pub fn install_baton_copy(&self) -> String {
        let out = std::process::Command::new(crate::common::baton_bin())
            .args(["install", "--copy", "--yes"])
            .env("HOME", &self.home)
            .env("TMPDIR", &self.tmp)
            .env_remove("BATON_PREFIX")
            .env_remove("CLAUDE_CONFIG_DIR")
            .current_dir(&self.project)
            .output()
            .unwrap();
        super::client::succeeded(out, "baton install --copy --yes")
    }

    /// Every line of every session transcript under `~/.claude/projects`, parsed.
    pub fn transcript_lines(&self) -> Vec<Value> {
        let mut files = Vec::new();
        collect_jsonl(&self.home.join(".claude/projects"), &mut files);
        files.sort();
        let texts = files.iter().filter_map(|file| fs::read_to_string(file).ok());
        let lines: Vec<String> = texts
            .flat_map(|text| text.lines().map(str::to_owned).collect::<Vec<_>>())
            .collect();
        lines
            .iter()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect()
    }

    /// The `attachment` objects the client logged for hook runs (`hook_success`, errors, …).
    pub fn hook_attachments(&self) -> Vec<Value> {
        let lines = self.transcript_lines().into_iter();
        let attachments = lines
            .filter(|line| line["type"] == "attachment")
            .map(|line| line["attachment"].clone());
        attachments
            .filter(|attachment| attachment.get("hookEvent").is_some())
            .collect()
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if thread::panicking() {
            eprintln!("e2e: kept the failed test's files in {}", self.root.display());
        } else {
            // Best effort, retried: a client being torn down may still be writing.
            for _ in 0..5 {
                if fs::remove_dir_all(&self.root).is_ok() || !self.root.exists() {
                    break;
                }
                thread::sleep(Duration::from_millis(200));
            }
        }
    }
}

fn write_json(path: &Path, value: &Value) {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    }
    let text = serde_json::to_string_pretty(value).expect("serialize JSON");
    fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

fn collect_jsonl(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_jsonl(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "jsonl") {
            files.push(path);
        }
    }
}
