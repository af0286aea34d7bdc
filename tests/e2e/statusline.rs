//! The interactive client under tmux: after a reply reporting 150k of 200k tokens, the
//! statusline Claude Code renders through `baton statusline` shows the model and the same
//! context figure as Claude Code's own footer.

use serde_json::json;

use super::client::baton_command;
use super::mock::{Mock, Reply};
use super::poll;
use super::sandbox::Sandbox;
use super::tmux::Tmux;

const PROMPT: &str = "say hi";
use super::tmux::LIMIT;

/// baton's row: it starts with the model name (the welcome box shows it too, inside `│`).
/// Claude Code may print its own "NN% context used" at the right of the same row; that part
/// is cut off so only baton's figure is left.
fn baton_row(screen: &str) -> Option<String> {
    let row = screen
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("Sonnet 4.5"))?;
    let own = match row.find("% context used") {
        Some(end) => row[..end].trim_end_matches(|c: char| c.is_ascii_digit()).trim_end(),
        None => row,
    };
    Some(own.to_owned())
}

#[test]
fn statusline_shows_model_and_context_like_claude_code() {
    let sandbox = Sandbox::new("statusline");
    sandbox.skip_first_run_dialogs(super::client::API_KEY);
    let statusline = json!({"type": "command", "command": baton_command("statusline"), "padding": 0});
    sandbox.project_settings(&json!({"statusLine": statusline}));
    let mock = Mock::start(|_| Reply::text(150_000, "hello from the mock"));
    let tmux = Tmux::start(&sandbox, &mock);

    tmux.submit(PROMPT, &mock);

    // 150k used of a 200k window minus Claude Code's 20k reserve: round(100 × 150 / 180) = 83.
    let row = poll(LIMIT, || baton_row(&tmux.screen()).filter(|row| row.contains("83%")));
    let screen = tmux.screen();
    let row = row.unwrap_or_else(|| {
        panic!(
            "no baton statusline with Sonnet 4.5 and 83% (row: {:?}); screen:\n{screen}",
            baton_row(&screen)
        )
    });
    assert!(
        row.contains('│'),
        "no segments in the statusline row {row:?}; screen:\n{screen}"
    );
    // Claude Code's own footer, when it has room to show one, must agree.
    if let Some(footer) = claude_code_footer(&screen) {
        assert_eq!(footer, "83% context used", "Claude Code's footer; screen:\n{screen}");
    }
}

/// Claude Code's own "NN% context used" indicator, if on screen.
fn claude_code_footer(screen: &str) -> Option<String> {
    let end = screen.find("% context used")?;
    let digits = screen[..end].chars().rev().take_while(char::is_ascii_digit).count();
    Some(screen[end - digits..end + "% context used".len()].to_owned())
}

/// Dates every file and directory under `dir` an hour back: a project nobody touched for a
/// while, whose GSD segment baton may cache.
fn settle(dir: &std::path::Path) {
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.file_type().unwrap().is_dir() {
            settle(&entry.path());
        } else {
            std::fs::File::open(entry.path())
                .unwrap()
                .set_modified(hour_ago)
                .unwrap();
        }
    }
    std::fs::File::open(dir).unwrap().set_modified(hour_ago).unwrap();
}

#[test]
fn in_a_gsd_project_the_segment_follows_the_files_between_replies() {
    let sandbox = Sandbox::new("statusline-gsd");
    sandbox.skip_first_run_dialogs(super::client::API_KEY);
    let planning = sandbox.project.join(".planning");
    let phase = planning.join("phases/01-cart");
    std::fs::create_dir_all(&phase).unwrap();
    std::fs::write(
        planning.join("STATE.md"),
        "---\nmilestone: v1.0\nmilestone_name: Shop\ncurrent_phase: 1\nstatus: executing\n---\n",
    )
    .unwrap();
    std::fs::write(planning.join("ROADMAP.md"), "## v1.0 Shop\n\n- [ ] **Phase 1: Cart**\n").unwrap();
    for plan in ["01-01-PLAN.md", "01-02-PLAN.md", "01-01-SUMMARY.md"] {
        std::fs::write(phase.join(plan), "x\n").unwrap();
    }
    settle(&planning);
    // The shell records the directory Claude Code runs the statusline in.
    let cwd_file = sandbox.root.join("statusline-cwd");
    let command = format!("pwd > '{}'; exec {}", cwd_file.display(), baton_command("statusline"));
    sandbox.project_settings(&json!({"statusLine": {"type": "command", "command": command, "padding": 0}}));
    let mock = Mock::start(|_| Reply::text(150_000, "hello from the mock"));
    let tmux = Tmux::start(&sandbox, &mock);

    tmux.submit(PROMPT, &mock);
    let half = "v1.0 Shop 50% · Phase 1 · executing";
    let row = poll(LIMIT, || baton_row(&tmux.screen()).filter(|row| row.contains(half)));
    assert!(row.is_some(), "no GSD segment {half:?}; screen:\n{}", tmux.screen());
    let ran_in = std::fs::read_to_string(&cwd_file).unwrap();
    assert_eq!(
        std::path::Path::new(ran_in.trim()).canonicalize().unwrap(),
        sandbox.project.canonicalize().unwrap(),
        "Claude Code runs the statusline in the project directory"
    );

    // The second plan is done between two replies: the next render shows it.
    std::fs::write(phase.join("01-02-SUMMARY.md"), "x\n").unwrap();
    let again = "and again";
    tmux.type_text(again);
    let typed = poll(LIMIT, || {
        let screen = tmux.screen();
        let mut rows = screen.lines();
        rows.any(|row| row.contains('❯') && row.contains(again)).then_some(())
    });
    assert!(
        typed.is_some(),
        "the second prompt never appeared; screen:\n{}",
        tmux.screen()
    );
    tmux.press_enter();
    let done = "v1.0 Shop 100% · Phase 1 · executing";
    let row = poll(LIMIT, || baton_row(&tmux.screen()).filter(|row| row.contains(done)));
    assert!(row.is_some(), "no GSD segment {done:?}; screen:\n{}", tmux.screen());
}
