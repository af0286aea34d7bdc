//! gsd-core's external-job manifests, `.planning/async-jobs/<job>.json`: a plan handed to a
//! job that runs outside the session (a cluster, a CI run). While its job is `submitted` or
//! `running` the plan is waiting, not unfinished. The commands a manifest names are the
//! manifest's, not baton's: they are shown, never run.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Project;
use crate::json::lenient::lenient_text;

/// Most manifests read.
const MAX_MANIFESTS: usize = 200;
/// Largest manifest read.
const MAX_MANIFEST_BYTES: u64 = 64 * 1024;

/// One job, as its manifest (or a handoff's `async_jobs` entry) describes it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Job {
    #[serde(deserialize_with = "lenient_text")]
    pub job_id: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub plan_id: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub backend: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub status: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub verification_command: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub resume_command: Option<String>,
    /// The manifest's path relative to the project (`.planning/async-jobs/<job>.json`).
    #[serde(deserialize_with = "lenient_text")]
    pub manifest: Option<String>,
}

impl Job {
    /// Still running outside the session (`submitted` or `running`).
    pub fn is_live(&self) -> bool {
        matches!(self.status.as_deref(), Some("submitted" | "running"))
    }

    /// Reads a handoff's `async_jobs` entry; `None` for anything but an object.
    pub fn from_value(value: &Value) -> Option<Self> {
        value
            .as_object()
            .and_then(|_| serde_json::from_value(value.clone()).ok())
    }

    /// One line for a person: which job, for which plan, where it stands, and the manifest's
    /// own commands (marked as the manifest's).
    pub fn describe(&self) -> String {
        let mut text = format!("external job {}", self.job_id.as_deref().unwrap_or("(no id)"));
        if let Some(backend) = &self.backend {
            text.push_str(&format!(" on {backend}"));
        }
        if let Some(plan) = &self.plan_id {
            text.push_str(&format!(" for plan {plan}"));
        }
        text.push_str(&format!(": {}", self.status.as_deref().unwrap_or("status unknown")));
        let commands: Vec<String> = [("check", &self.verification_command), ("resume", &self.resume_command)]
            .into_iter()
            .filter_map(|(what, command)| command.as_ref().map(|c| format!("{what}: `{c}`")))
            .collect();
        if !commands.is_empty() {
            text.push_str(&format!(
                " (the manifest's commands, run only if you trust them: {})",
                commands.join(", ")
            ));
        }
        if let Some(manifest) = &self.manifest {
            text.push_str(&format!(" [{manifest}]"));
        }
        text
    }
}

/// `<root>/.planning/async-jobs`.
pub fn dir(project: &Project) -> PathBuf {
    project.planning_dir().join("async-jobs")
}

/// Every readable manifest, by file name; unreadable or foreign files are left out.
pub fn read(project: &Project) -> Vec<Job> {
    manifests(project).into_iter().map(|(job, _)| job).collect()
}

/// [`read`], with each manifest as written (and its path under `manifest`), for a handoff.
pub fn manifests(project: &Project) -> Vec<(Job, Value)> {
    let dir = dir(project);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .take(MAX_MANIFESTS)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths.iter().filter_map(|path| read_one(project, path)).collect()
}

fn read_one(project: &Project, path: &Path) -> Option<(Job, Value)> {
    let bytes = crate::fsx::read_regular(path, MAX_MANIFEST_BYTES).ok()?;
    let mut value: Value = serde_json::from_slice(&bytes).ok()?;
    let relative = crate::platform::path::below(path, &project.root);
    value
        .as_object_mut()?
        .insert("manifest".to_owned(), Value::from(relative));
    Some((Job::from_value(&value)?, value))
}

/// The live job a plan (`03-02`) waits on, if any.
pub fn waiting_on<'a>(jobs: &'a [Job], plan: &str) -> Option<&'a Job> {
    let key = super::number::plan_key(plan);
    jobs.iter()
        .find(|j| j.is_live() && j.plan_id.as_deref().is_some_and(|p| super::number::plan_key(p) == key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_manifests_and_says_which_plan_waits() {
        let tmp = tempfile::tempdir().unwrap();
        let project = Project {
            root: tmp.path().to_path_buf(),
        };
        let jobs = dir(&project);
        fs::create_dir_all(&jobs).unwrap();
        fs::write(
            jobs.join("train.json"),
            r#"{"version":"1.0","plan_id":"03-02","phase":"3","job_id":"train","backend":"slurm","status":"running",
               "submit_command":"sbatch x","expected_artifacts":["m.bin"],"verification_command":"ls m.bin",
               "resume_command":"gsd-tools job resume train"}"#,
        )
        .unwrap();
        fs::write(
            jobs.join("old.json"),
            r#"{"plan_id":"03-01","job_id":"old","status":"failed"}"#,
        )
        .unwrap();
        fs::write(jobs.join("junk.json"), "not json").unwrap();
        let read = read(&project);
        assert_eq!(read.len(), 2);
        assert_eq!(
            waiting_on(&read, "3-2").and_then(|j| j.job_id.as_deref()),
            Some("train")
        );
        assert_eq!(waiting_on(&read, "03-01"), None, "a failed job is not waited on");
        let line = waiting_on(&read, "03-02").unwrap().describe();
        assert!(
            line.starts_with("external job train on slurm for plan 03-02: running")
                && line.contains("run only if you trust them: check: `ls m.bin`")
                && line.ends_with("[.planning/async-jobs/train.json]"),
            "{line}"
        );
    }
}
