//! `.continue-here.md`: the handoff as a page a person or agent reads first after a pause.

use super::handoff::Handoff;

/// Renders the page: frontmatter (phase, task, total_tasks, status, last_updated), then
/// current state, completed work, remaining work, decisions, blockers, next action.
pub fn render(h: &Handoff) -> String {
    let yaml = |v: &Option<String>| {
        v.as_deref()
            .map_or_else(|| "null".to_owned(), |s| serde_json::to_string(s).unwrap_or_default())
    };
    let mut out = format!(
        "---\nphase: {}\ntask: {}\ntotal_tasks: {}\nstatus: paused\nlast_updated: {}\n---\n\n",
        yaml(&h.phase),
        yaml(&h.task),
        yaml(&h.total_tasks),
        yaml(&h.timestamp)
    );
    out.push_str("# Continue here\n\n## Current state\n\n");
    out.push_str(&format!("{}\n", super::pause::stopped_at(h)));
    if let Some(notes) = &h.context_notes {
        out.push_str(&format!("\n{notes}\n"));
    }
    section(
        &mut out,
        "Blockers",
        h.blockers.iter().map(|b| {
            let kind = b.kind.as_deref().unwrap_or("technical");
            let workaround = b
                .workaround
                .as_deref()
                .map(|w| format!(" (workaround: {w})"))
                .unwrap_or_default();
            format!("[{kind}] {}{workaround}", b.description.as_deref().unwrap_or(""))
        }),
    );
    section(
        &mut out,
        "Human actions pending",
        h.human_actions_pending.iter().map(|a| {
            let blocking = if a.blocking { " (blocking)" } else { "" };
            format!("{}{blocking}", a.action.as_deref().unwrap_or(""))
        }),
    );
    section(
        &mut out,
        "Completed work",
        h.completed_tasks.iter().map(|t| {
            let commit = t.commit.as_deref().map(|c| format!(" ({c})")).unwrap_or_default();
            format!("{}{commit}", t.name.as_deref().unwrap_or(""))
        }),
    );
    section(
        &mut out,
        "Remaining work",
        h.remaining_tasks.iter().map(|t| {
            format!(
                "{} [{}]",
                t.name.as_deref().unwrap_or(""),
                t.status.as_deref().unwrap_or("pending")
            )
        }),
    );
    section(
        &mut out,
        "Decisions",
        h.decisions.iter().map(|d| {
            let why = d.rationale.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
            format!("{}{why}", d.decision.as_deref().unwrap_or(""))
        }),
    );
    section(&mut out, "Uncommitted files", h.uncommitted_files.iter().cloned());
    out.push_str(&format!(
        "\n## Next action\n\n{}\n",
        h.next_action
            .as_deref()
            .unwrap_or("Run `baton progress` to see where the project stands.")
    ));
    out
}

fn section(out: &mut String, title: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        return;
    }
    out.push_str(&format!("\n## {title}\n\n"));
    for item in items {
        out.push_str(&format!("- {}\n", item.replace('\n', " ")));
    }
}
