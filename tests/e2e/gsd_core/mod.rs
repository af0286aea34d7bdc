//! Interop with gsd-core (npm `@opengsd/gsd-core`, the successor of `get-shit-done-cc`), run on
//! Node 24 from PyPI's wheel: its hooks and baton's share the bridge file both ways; projects
//! made with gsd-core's own tools read the same in baton as in gsd-core, and stay valid for
//! gsd-core after baton's pause and resume; model profiles resolve alike; both monitors wired
//! together warn once.

mod bridge;
mod continuity;
mod monitor;
mod profiles;
mod progress;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use super::sandbox::Sandbox;

const GSD_CORE: &str = "@opengsd/gsd-core@1.14.0";

/// The installed package's root, installed once under the target directory.
fn package() -> PathBuf {
    let dir = super::npm::install("gsd-core", GSD_CORE, |dir| {
        dir.join("node_modules/@opengsd/gsd-core/gsd-core/bin/gsd-tools.cjs")
            .is_file()
    });
    dir.join("node_modules/@opengsd/gsd-core")
}

/// Runs `program args` in `dir` with the sandbox's HOME and TMPDIR and `stdin`; returns
/// stdout, panicking with stderr when it fails.
fn run_in(sandbox: &Sandbox, dir: &Path, program: &Path, args: &[&str], stdin: &[u8]) -> String {
    run_with(dir, [&sandbox.home, &sandbox.tmp], program, args, stdin)
}

/// [`run_in`] with `HOME` and `TMPDIR` given.
fn run_with(dir: &Path, [home, tmp]: [&Path; 2], program: &Path, args: &[&str], stdin: &[u8]) -> String {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("TMPDIR", tmp)
        .env_remove("GSD_WORKSTREAM")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{} {args:?}: {}\n{}",
        program.display(),
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// gsd-core's `gsd-tools <args>` in the project, its JSON answer (null when it prints nothing).
fn tools(sandbox: &Sandbox, args: &[&str]) -> Value {
    let script = package().join("gsd-core/bin/gsd-tools.cjs");
    let mut all = vec![script.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = run_in(sandbox, &sandbox.project, &super::npm::node24(), &all, b"");
    if out.trim().is_empty() {
        return Value::Null;
    }
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("gsd-tools {args:?} gave no JSON ({e}): {out}"))
}

/// Runs gsd-core's installer for Claude Code into the sandbox's HOME (`~/.claude`: its
/// agents, skills, hooks and settings), as `npx @opengsd/gsd-core --claude --global` does;
/// returns the installed settings.json.
fn install_for_claude(sandbox: &Sandbox) -> Value {
    let installer = package().join("bin/install.js");
    let node = super::npm::node24();
    let args = [
        installer.to_str().unwrap(),
        "--claude",
        "--global",
        "--no-legacy-cleanup",
    ];
    run_in(sandbox, &sandbox.home, &node, &args, b"");
    let settings = std::fs::read_to_string(sandbox.home.join(".claude/settings.json")).unwrap();
    serde_json::from_str(&settings).unwrap()
}

/// baton `<args>` in the project; stdout.
fn baton(sandbox: &Sandbox, args: &[&str]) -> String {
    run_in(
        sandbox,
        &sandbox.project,
        Path::new(crate::common::baton_bin()),
        args,
        b"",
    )
}

/// `baton <args> --json` in the project.
fn baton_json(sandbox: &Sandbox, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = baton(sandbox, &all);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("baton {args:?} gave no JSON ({e}): {out}"))
}

fn write(sandbox: &Sandbox, relative: &str, text: &str) {
    let path = sandbox.project.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
}

/// PROJECT.md with the sections gsd-core's health check asks for.
const PROJECT_MD: &str = "# Shop\n\n## What This Is\n\nA shop.\n\n## Core Value\n\nPeople can buy what they put in the \
                          cart.\n\n## Requirements\n\n- Cart\n- Payments\n";

/// STATE.md as gsd-core's template starts it (its tools fill in the rest).
const STATE_MD: &str = "---\ngsd_state_version: '1.0'\nstatus: planning\n---\n\n# Project State\n\n## Current Position\n\n\
                        Phase: 1 of 3 (Setup)\nPlan: 0 of 2 in current phase\nStatus: Ready to plan\nLast activity: \
                        2026-11-20 — Roadmap created\n\nProgress: [░░░░░░░░░░] 0%\n\n## Accumulated Context\n\n### \
                        Decisions\n\nNone yet.\n\n### Pending Todos\n\nNone yet.\n\n### Blockers/Concerns\n\nNone yet.\n\n\
                        ## Session Continuity\n\nLast session: 2026-11-20\nStopped at: Roadmap created\nResume file: None\n";

/// ROADMAP.md as gsd-core's roadmapper writes it: one milestone of three phases.
const ROADMAP_MD: &str = "# Roadmap: Shop\n\n## Milestones\n\n- 🚧 **v1.0 MVP** - Phases 1-3 (in progress)\n\n\
                          ## 🚧 v1.0 MVP (In Progress)\n\n- [ ] **Phase 1: Setup** - scaffolding\n- [ ] **Phase 2: Cart** - \
                          cart\n- [ ] **Phase 3: Payments** - money\n\n## Phase Details\n\n### Phase 1: Setup\n**Goal**: A \
                          repo that builds\n**Plans**: 2 plans\n\nPlans:\n- [ ] 01-01: Scaffold\n- [ ] 01-02: CI\n\n\
                          ### Phase 2: Cart\n**Goal**: Users can fill a cart\n\n### Phase 3: Payments\n**Goal**: Take money\n";

/// Starts a project as gsd-core's new-project does (its files, `config-new-project`, a git
/// repository), then runs phase 1 with gsd-core's tools: the phase directory, `state
/// begin-phase`, two plans and their summaries with `state advance-plan` after each; the
/// phase is executed, not verified.
fn project_with_phase_1_executed(sandbox: &Sandbox) {
    write(sandbox, ".planning/PROJECT.md", PROJECT_MD);
    write(sandbox, ".planning/STATE.md", STATE_MD);
    write(sandbox, ".planning/ROADMAP.md", ROADMAP_MD);
    tools(sandbox, &["config-new-project", "{}"]);
    crate::common::gsd::git_init_at(&sandbox.project);
    tools(sandbox, &["scaffold", "phase-dir", "--phase", "1", "--name", "setup"]);
    tools(
        sandbox,
        &[
            "state",
            "begin-phase",
            "--phase",
            "1",
            "--name",
            "Setup",
            "--plans",
            "2",
        ],
    );
    for plan in ["01", "02"] {
        let front = format!("---\nphase: 01-setup\nplan: {plan}\nwave: 1\n---\n");
        write(
            sandbox,
            &format!(".planning/phases/01-setup/01-{plan}-PLAN.md"),
            &format!("{front}# Plan {plan}\n"),
        );
        write(
            sandbox,
            &format!(".planning/phases/01-setup/01-{plan}-SUMMARY.md"),
            &format!("{front}# Summary {plan}\n"),
        );
        tools(sandbox, &["state", "advance-plan"]);
    }
}

/// gsd-core's verifier's report for phase 1, with `status`.
fn verify_phase_1(sandbox: &Sandbox, status: &str) {
    tools(sandbox, &["scaffold", "verification", "--phase", "1"]);
    let report = ".planning/phases/01-setup/01-VERIFICATION.md";
    tools(
        sandbox,
        &["frontmatter", "set", report, "--field", "status", "--value", status],
    );
}
