//! A realistic GSD project for the continuity tests: two milestones, an inserted decimal
//! phase, plans with and without summaries, GSD's STATE.md template with CRLF-free text.

use super::Sandbox;

/// GSD's STATE.md, as its template lays it out.
pub const STATE_MD: &str = include_str!("../fixtures/gsd/STATE.md");

pub const ROADMAP_MD: &str = include_str!("../fixtures/gsd/ROADMAP.md");

/// Writes the project: 6 phases (1, 2 done; 3 at 1 of 3; 3.1 at 0 of 1; 4 and 5 unplanned).
pub fn write_project(sandbox: &Sandbox) {
    sandbox.write(
        ".planning/PROJECT.md",
        "# Shop\n\nPeople can buy what they put in the cart.\n",
    );
    sandbox.write(
        ".planning/config.json",
        "{\n  \"mode\": \"interactive\",\n  \"model_profile\": \"balanced\"\n}\n",
    );
    sandbox.write(".planning/STATE.md", STATE_MD);
    sandbox.write(".planning/ROADMAP.md", ROADMAP_MD);
    for file in [
        "phases/01-foundation/01-CONTEXT.md",
        "phases/01-foundation/01-01-PLAN.md",
        "phases/01-foundation/01-01-SUMMARY.md",
        "phases/01-foundation/01-02-PLAN.md",
        "phases/01-foundation/01-02-SUMMARY.md",
        "phases/01-foundation/01-VERIFICATION.md",
        "phases/02-catalog/02-01-PLAN.md",
        "phases/02-catalog/02-01-SUMMARY.md",
        "phases/03-cart/03-CONTEXT.md",
        "phases/03-cart/03-RESEARCH.md",
        "phases/03-cart/03-01-PLAN.md",
        "phases/03-cart/03-01-SUMMARY.md",
        "phases/03-cart/03-02-PLAN.md",
        "phases/03-cart/03-03-PLAN.md",
        "phases/03.1-cart-hotfix/03.1-01-PLAN.md",
    ] {
        sandbox.write(&format!(".planning/{file}"), &format!("# {file}\n"));
    }
    std::fs::create_dir_all(sandbox.project.join(".planning/phases/04-payments")).unwrap();
}

/// Makes the project a git repository with one commit of everything.
pub fn git_init(sandbox: &Sandbox) {
    git_init_at(&sandbox.project);
}

/// Makes `dir` a git repository with one commit of everything in it.
pub fn git_init_at(dir: &std::path::Path) {
    git_at(
        dir,
        &[&["init", "-q"][..], &["add", "-A"], &["commit", "-qm", "initial"]],
    );
}

/// Commits everything in the repository at `dir`.
pub fn commit_all(dir: &std::path::Path) {
    git_at(dir, &[&["add", "-A"][..], &["commit", "-qm", "work"]]);
}

fn git_at(dir: &std::path::Path, commands: &[&[&str]]) {
    for &args in commands {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
