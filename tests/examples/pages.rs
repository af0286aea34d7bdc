//! What each page's examples run against: the sandbox a page's console blocks share, filled
//! with the fixtures the tests already use, so that baton prints what the page shows.

use serde_json::json;

use crate::bridge::copy_project;
use crate::common::{Sandbox, git_repo, git_with, gsd, native, post_tool_use};
use crate::context::forecast::{Transcript, payload};
use crate::window::{SESSION, a_session_reading};

/// The file the sessions of the window, monitor and report pages read (outside `src/`, which
/// the citation test would take for the repository's).
const DUMP: &str = "db/billing/ledger_dump.sql";

/// The dates of the store page's commit, so that its id (which `baton ctx log` shows) is
/// the same on every run.
const COMMIT_DATE: &str = "2026-11-30T18:00:00Z";

/// Fills `sandbox` for the examples of `page` (a path from the repository's root).
pub fn prepare(page: &str, sandbox: &Sandbox) {
    match page {
        // A GSD project on branch main, 150k of Sonnet 4.5's 200k used, growing 5k a request.
        "docs/statusline.md" => {
            sandbox.with_planning_state();
            sandbox.write(".git/HEAD", "ref: refs/heads/main\n");
            let mut transcript = Transcript::starting_at(20_000);
            transcript.grow_all(&[5_000; 26]);
            let path = transcript.write(sandbox);
            let mut sent = payload(sandbox, &path, transcript.used, "claude-sonnet-4-5", 200_000);
            sent["model"]["display_name"] = json!("Sonnet 4.5");
            sandbox.write("payload.json", &sent.to_string());
        }
        // A session of a few tool calls in the project's transcript folder.
        "docs/window.md" => {
            a_session_reading(sandbox, DUMP).write(sandbox, SESSION);
        }
        // The window page's session, then the model reads a long spec: 140k of 200k in use.
        "docs/monitor.md" => {
            let cwd = native(std::fs::canonicalize(&sandbox.project).unwrap());
            let spec = json!({"file_path": format!("{cwd}/design/spec.md")});
            let mut session = a_session_reading(sandbox, DUMP);
            session.prompt("check it against the spec");
            session
                .reply(63_400, Some(("Read", spec)))
                .result(280_000)
                .reply(140_000, None);
            let path = session.write(sandbox, SESSION);
            let sent = post_tool_use(sandbox, SESSION, Some(&path));
            sandbox.write("posttooluse.json", &sent.to_string());
        }
        // A git project whose session read a dump and ran the tests.
        "docs/report.md" => {
            git_repo(&sandbox.project, &[("README.md", "# proj\n")]);
            a_session_reading(sandbox, DUMP).write(sandbox, SESSION);
        }
        // GSD's planning files: six phases, phase 3 at 1 of 3 plans, the balanced profile;
        // for continuity, committed, and one new file not yet.
        "docs/orchestration.md" => gsd::write_project(sandbox),
        "docs/continuity.md" => {
            gsd::write_project(sandbox);
            gsd::git_init(sandbox);
            sandbox.write("web/cart/tax.ts", "export const TAX_RATE = 0.2;\n");
        }
        // A git project with the brief the analyst wrote and BMAD's workflow step.
        "docs/store.md" => {
            sandbox.write(
                "artifacts/project-brief.md",
                "# Project brief\n\nTask management for teams.\n",
            );
            sandbox.write("workflow.yaml", include_str!("../fixtures/bmad/workflow-step.yaml"));
            let dated = [("GIT_AUTHOR_DATE", COMMIT_DATE), ("GIT_COMMITTER_DATE", COMMIT_DATE)];
            for args in [&["init", "-q"][..], &["add", "-A"], &["commit", "-q", "-m", "brief"]] {
                git_with(&sandbox.project, args, &dated);
            }
        }
        // The Postgres migrations a db agent wrote, and the story it worked on.
        "docs/bridge.md" => {
            copy_project(sandbox, "db-postgres");
            sandbox.write(
                "docs/stories/1.3.story.md",
                "---\nid: BILL-12\ntitle: Invoices\n---\n\n# Story 1.3: Invoices\n",
            );
        }
        // A settings.json of the user's own, which install keeps and backs up.
        "docs/install.md" => {
            let settings = json!({"permissions": {"allow": ["Bash(npm test)"]}});
            let path = sandbox.home.join(".claude/settings.json");
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, serde_json::to_string_pretty(&settings).unwrap()).unwrap();
        }
        // A home where baton was never installed, and a misspelt key in baton's config.
        "docs/troubleshooting.md" => {
            let config = sandbox.home.join(".config/baton/config.json");
            std::fs::create_dir_all(config.parent().unwrap()).unwrap();
            std::fs::write(config, r#"{"statusline": {"forcast": false}}"#).unwrap();
        }
        _ => {}
    }
}
