//! A realistic GSD project for the continuity tests: two milestones, an inserted decimal
//! phase, plans with and without summaries, GSD's STATE.md template with CRLF-free text.

use super::Sandbox;

/// GSD's STATE.md, as its template lays it out.
pub const STATE_MD: &str = "---
gsd_state_version: 1.0
milestone: v1.1
milestone_name: Checkout
current_phase: 3
current_phase_name: Cart
current_plan: 2
status: executing
stopped_at: Completed 03-01-PLAN.md
last_updated: \"2026-11-28T17:02:11Z\"
last_activity: 2026-11-28
progress:
  total_phases: 6
  completed_phases: 2
  total_plans: 7
  completed_plans: 4
  percent: 38
---

# Project State

## Project Reference

See: .planning/PROJECT.md (updated 2026-11-20)

**Core value:** People can buy what they put in the cart.
**Current focus:** Phase 3 — Cart

## Current Position

Phase: 3 of 6 (Cart)
Plan: 2 of 3 in current phase
Status: In progress
Last activity: 2026-11-28 — Completed 03-01-PLAN.md

Progress: [███░░░░░░░] 38%

## Performance Metrics

| Phase | Duration | Tasks | Files |
|-------|----------|-------|-------|
| Phase 03 P01 | 14min | 3 tasks | 6 files |

## Accumulated Context

### Decisions

- [Phase 1]: Postgres over SQLite for concurrent writes
- [Phase 3]: Cart lives server-side, keyed by session

### Pending Todos

None yet.

### Blockers/Concerns

- Payment provider sandbox account not approved yet

## Session Continuity

Last session: 2026-11-28 17:02
Stopped at: Completed 03-01-PLAN.md
Resume file: None
";

pub const ROADMAP_MD: &str = "# Roadmap: Shop

## Overview

A small shop, shipped in milestones.

## Milestones

- ✅ **v1.0 MVP** - Phases 1-2 (shipped 2026-11-10)
- 🚧 **v1.1 Checkout** - Phases 3-5 (in progress)

## Phases

<details>
<summary>✅ v1.0 MVP (Phases 1-2) - SHIPPED 2026-11-10</summary>

### v1.0 MVP

- [x] **Phase 1: Foundation** - Project skeleton, database
- [x] **Phase 2: Catalog** - Products and search

</details>

### 🚧 v1.1 Checkout (In Progress)

- [ ] **Phase 3: Cart** - Add, remove, persist
- [ ] **Phase 3.1: Cart hotfix** - INSERTED: race on quantity update
- [ ] **Phase 4: Payments** - Provider integration
- [ ] **Phase 5: Receipts** - Emails and PDFs

## Phase Details

### Phase 3: Cart
**Goal**: Users can fill a cart that survives a reload
**Depends on**: Phase 2
**Plans**: 3 plans

Plans:
- [x] 03-01: Cart model and migration
- [ ] 03-02: Cart API
- [ ] 03-03: Cart UI

### Phase 3.1: Cart hotfix (INSERTED)
**Goal**: No lost updates on quantity
**Plans**: 1 plan

Plans:
- [ ] 03.1-01: Row lock on update

### Phase 4: Payments
**Goal**: Take money safely
**Depends on**: Phase 3

## Progress

| Phase | Plans Complete | Status | Completed |
|-------|----------------|--------|-----------|
| 1. Foundation | 2/2 | Complete | 2026-11-05 |
| 2. Catalog | 1/1 | Complete | 2026-11-10 |
| 3. Cart | 1/3 | In progress | - |
";

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
    for args in [&["init", "-q"][..], &["add", "-A"], &["commit", "-qm", "initial"]] {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
            .args(args)
            .current_dir(&sandbox.project)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
