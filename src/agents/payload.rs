//! The context payload of a plan: the project files an agent executing it must read
//! (STATE, ROADMAP, the phase's CONTEXT and RESEARCH, the plan, the SUMMARYs of the plans it
//! depends on), with sizes, as text to paste into a spawn prompt or as JSON.

use std::path::PathBuf;

use serde::Serialize;

use super::plans::{self, Plan, PlanKey};
use crate::error::Result;
use crate::planning::Project;
use crate::planning::phases;

/// One file of the payload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Artifact {
    /// What it is: `state`, `roadmap`, `context`, `research`, `plan`, `summary of 03-01`.
    pub role: String,
    /// Relative to the project root, with `/` between its parts.
    pub path: String,
    /// Size in bytes; `None` when the file does not exist.
    pub bytes: Option<u64>,
}

/// The payload of one plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Payload {
    pub plan: String,
    pub root: PathBuf,
    /// Files that exist, in reading order.
    pub files: Vec<Artifact>,
    /// Expected files that do not exist (yet).
    pub missing: Vec<Artifact>,
    /// Dependencies without a SUMMARY: the plan should wait for them.
    pub waiting_on: Vec<String>,
    pub total_bytes: u64,
}

/// Builds the payload of plan `wanted` (`03-02`, `3-2` or a PLAN.md path).
pub fn build(project: &Project, wanted: &str) -> Result<Payload> {
    let (phase, plan) = plans::find_plan(project, wanted)?;
    let planning = project.live_dir();
    let mut wanted_files: Vec<(String, PathBuf)> = vec![
        ("state".into(), planning.join("STATE.md")),
        ("roadmap".into(), planning.join("ROADMAP.md")),
    ];
    // Missing phase files are named as GSD would: with the directory's own number prefix.
    let dir_name = phase
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let padded = dir_name.split('-').next().unwrap_or_default().to_owned();
    for kind in ["CONTEXT", "RESEARCH"] {
        let path = phase
            .phase_file(kind)
            .unwrap_or_else(|| phase.path.join(format!("{padded}-{kind}.md")));
        wanted_files.push((kind.to_lowercase(), path));
    }
    wanted_files.push(("plan".into(), plan.path.clone()));
    let mut waiting_on = Vec::new();
    for (role, path, done) in dependency_summaries(project, &plan)? {
        if !done {
            waiting_on.push(role.trim_start_matches("summary of ").to_owned());
        }
        wanted_files.push((role, path));
    }
    let mut payload = Payload {
        plan: plan.id.clone(),
        root: project.root.clone(),
        files: Vec::new(),
        missing: Vec::new(),
        waiting_on,
        total_bytes: 0,
    };
    for (role, path) in wanted_files {
        let bytes = std::fs::metadata(&path).ok().filter(|m| m.is_file()).map(|m| m.len());
        let artifact = Artifact {
            role,
            path: crate::platform::path::below(&path, &project.root),
            bytes,
        };
        match bytes {
            Some(n) => {
                payload.total_bytes += n;
                payload.files.push(artifact);
            }
            None => payload.missing.push(artifact),
        }
    }
    Ok(payload)
}

/// `(role, SUMMARY path, exists)` for each plan `plan` depends on, in any phase.
fn dependency_summaries(project: &Project, plan: &Plan) -> Result<Vec<(String, PathBuf, bool)>> {
    let dirs = phases::scan(project)?;
    let mut out = Vec::new();
    for (written, key) in plan.dependency_keys() {
        let found = key.as_ref().and_then(|key| {
            dirs.iter().find_map(|d| {
                let id = d
                    .plans
                    .iter()
                    .find(|id| PlanKey::parse(id, None).as_ref() == Some(key))?;
                Some((d, id.clone()))
            })
        });
        match found {
            Some((dir, id)) => {
                let done = dir.summaries.contains(&id);
                out.push((format!("summary of {id}"), dir.file(&id, "SUMMARY"), done));
            }
            None => crate::log::note(&format!("payload: {} depends on unknown plan '{written}'", plan.id)),
        }
    }
    Ok(out)
}

/// The payload as text to paste into an agent's prompt.
pub fn render(payload: &Payload) -> String {
    let mut text = format!(
        "Read these files before starting plan {} (paths relative to {}):\n",
        payload.plan,
        payload.root.display()
    );
    for file in &payload.files {
        text.push_str(&format!(
            "- {} ({}, {})\n",
            file.path,
            file.role,
            human_size(file.bytes.unwrap_or(0))
        ));
    }
    text.push_str(&format!(
        "Total: {} (~{} {})\n",
        human_size(payload.total_bytes),
        group_thousands(payload.total_bytes.div_ceil(4)),
        crate::words::noun(payload.total_bytes.div_ceil(4), "token", "tokens")
    ));
    if !payload.missing.is_empty() {
        text.push_str("Not there (yet):\n");
        for file in &payload.missing {
            text.push_str(&format!("- {} ({})\n", file.path, file.role));
        }
    }
    text
}

/// `512 B`, `3.4 KB`, `1.2 MB`.
pub fn human_size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{:.1} KB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn lists_what_exists_in_reading_order_and_what_is_still_missing() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let phase = root.join(".planning/phases/03-api");
        fs::create_dir_all(&phase).unwrap();
        fs::write(root.join(".planning/STATE.md"), "s".repeat(2000)).unwrap();
        fs::write(phase.join("03-CONTEXT.md"), "c").unwrap();
        fs::write(phase.join("03-01-PLAN.md"), "---\nwave: 1\n---\n").unwrap();
        fs::write(phase.join("03-01-SUMMARY.md"), "done").unwrap();
        fs::write(phase.join("03-02-PLAN.md"), "---\nwave: 1\n---\n").unwrap();
        fs::write(
            phase.join("03-03-PLAN.md"),
            "---\nwave: 2\ndepends_on: [\"01\", \"03-02\"]\n---\n",
        )
        .unwrap();
        let project = Project {
            root: root.to_path_buf(),
        };
        let p = build(&project, "3-3").unwrap();
        let roles: Vec<&str> = p.files.iter().map(|f| f.role.as_str()).collect();
        assert_eq!(roles, ["state", "context", "plan", "summary of 03-01"]);
        let missing: Vec<String> = p.missing.iter().map(|f| f.path.clone()).collect();
        assert_eq!(
            missing,
            [
                ".planning/ROADMAP.md",
                ".planning/phases/03-api/03-RESEARCH.md",
                ".planning/phases/03-api/03-02-SUMMARY.md"
            ]
        );
        assert_eq!(p.waiting_on, ["03-02"]);
        let text = render(&p);
        assert!(text.contains("- .planning/STATE.md (state, 2.0 KB)"), "{text}");
        assert!(text.contains("Total: 2.0 KB (~"), "{text}");
        assert_eq!(group_thousands(1234567), "1,234,567");
    }
}
