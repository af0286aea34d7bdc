//! The documentation's examples are run (issue 34): every ```console block in README.md and
//! the guide (`docs/`) is typed, command by command, into a sandbox its page's fixtures fill
//! (`pages.rs`), and what the built binary prints must be what the block shows, wildcards
//! aside (`matching.rs`). A block that shows a `$ ` command without being ```console must be
//! marked ```text, with the reason it cannot run given in its page.

mod blocks;
mod console;
mod matching;
mod pages;
mod run;

use std::path::Path;

use crate::common::Sandbox;

/// The pages whose examples are run: the README and the guide.
fn pages() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<String> = crate::doc_links::documents()
        .iter()
        .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"))
        .filter(|p| p == "README.md" || p.starts_with("docs/"))
        .collect();
    pages.sort();
    pages
}

/// What went wrong with the examples of one page, each with its block's line.
fn check_page(page: &str, failures: &mut Vec<String>) -> (usize, usize) {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(page)).unwrap();
    let blocks = blocks::blocks(&text);
    for block in blocks
        .iter()
        .filter(|b| !b.is_console() && b.info.is_empty() && b.shows_a_command())
    {
        failures.push(format!(
            "{page}:{}: a `$ ` command in a block that is neither ```console (run by this test) \
             nor ```text (with the reason it cannot run)",
            block.line
        ));
    }
    let consoles: Vec<_> = blocks.iter().filter(|b| b.is_console()).collect();
    if consoles.is_empty() {
        return (0, 0);
    }
    let sandbox = Sandbox::new();
    pages::prepare(page, &sandbox);
    let mut commands = 0;
    for block in &consoles {
        let steps = match console::steps(&block.body) {
            Ok(steps) => steps,
            Err(e) => {
                failures.push(format!("{page}:{}: {e}", block.line));
                continue;
            }
        };
        for step in steps {
            commands += 1;
            match run::output(&sandbox, &step) {
                Err(e) => failures.push(format!("{page}:{}: {e}", block.line)),
                Ok(printed) if !matching::matches(&step.output, &printed) => failures.push(format!(
                    "{page}:{}: `$ {}` shows\n{}\nbut baton printed\n{printed}",
                    block.line,
                    step.shown,
                    step.output.join("\n")
                )),
                Ok(_) => {}
            }
        }
    }
    (consoles.len(), commands)
}

#[test]
fn every_console_example_prints_what_its_page_shows() {
    let mut failures = Vec::new();
    let (mut examples, mut commands) = (0, 0);
    for page in pages() {
        let (blocks, steps) = check_page(&page, &mut failures);
        examples += blocks;
        commands += steps;
    }
    eprintln!("{examples} console examples, {commands} commands, run from README.md and docs/");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(examples > 0, "no ```console block found in README.md or docs/");
}
