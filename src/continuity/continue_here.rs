//! `.continue-here.md`: the handoff as a page a person or agent reads first after a pause.
//! baton marks its own pages (`generator: baton` in the frontmatter) so that a page an
//! agent or GSD wrote is archived, never overwritten.

use super::handoff::Handoff;

/// The frontmatter line marking a page baton wrote.
const MARK: &str = "generator: baton";

/// Largest page read to look for the mark (baton's are a few KB); a larger one is not baton's.
pub const MAX_PAGE_BYTES: u64 = 1024 * 1024;

/// Whether `text` is a page baton wrote: its frontmatter carries [`MARK`].
pub fn is_batons(text: &str) -> bool {
    let text = text.replace("\r\n", "\n");
    crate::planning::state::split_frontmatter(&text)
        .0
        .is_some_and(|fm| fm.lines().any(|l| l.trim_end() == MARK))
}

/// Renders the page: frontmatter (phase, task, total_tasks, status, last_updated), then
/// current state, completed work, remaining work, decisions, blockers, next action.
pub fn render(h: &Handoff) -> String {
    let yaml = |v: &Option<String>| {
        v.as_deref()
            .map_or_else(|| "null".to_owned(), |s| serde_json::to_string(s).unwrap_or_default())
    };
    let mut out = format!(
        "---\nphase: {}\ntask: {}\ntotal_tasks: {}\nstatus: paused\nlast_updated: {}\n{MARK}\n---\n\n",
        yaml(&h.phase),
        yaml(&h.task),
        yaml(&h.total_tasks),
        yaml(&h.timestamp)
    );
    out.push_str("# Continue here\n\n## Current state\n\n");
    out.push_str(&format!("{}\n", h.stopped_at()));
    if let Some(notes) = &h.context_notes {
        out.push_str(&format!("\n{notes}\n"));
    }
    section(
        &mut out,
        "Blockers",
        h.blockers.iter().filter_map(super::handoff::Blocker::describe),
    );
    section(
        &mut out,
        "Human actions pending",
        h.human_actions_pending
            .iter()
            .filter_map(super::handoff::HumanAction::describe),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baton_knows_its_own_pages() {
        assert!(is_batons(&render(&Handoff::default())));
        assert!(!is_batons("---\nphase: 3\n---\n# Continue here\ngenerator: baton\n"));
        assert!(!is_batons("# Notes by the agent\n"));
    }
}
