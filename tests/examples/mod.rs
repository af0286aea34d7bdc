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

/// Runs the examples of `page` (its Markdown `text`), adding what went wrong to `failures`,
/// each with its block's line; returns how many console blocks and commands it ran.
fn check_page(page: &str, text: &str, failures: &mut Vec<String>) -> (usize, usize) {
    let blocks = blocks::blocks(text);
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for page in pages() {
        let text = std::fs::read_to_string(root.join(&page)).unwrap();
        let (blocks, steps) = check_page(&page, &text, &mut failures);
        examples += blocks;
        commands += steps;
    }
    eprintln!("{examples} console examples, {commands} commands, run from README.md and docs/");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(examples > 0, "no ```console block found in README.md or docs/");
}

#[test]
fn an_example_that_drifts_from_what_baton_prints_fails() {
    let page = "# A page\n\n```console\n$ baton --version\nbaton 0.0.1\n```\n";
    let mut failures = Vec::new();
    assert_eq!(check_page("made-up.md", page, &mut failures), (1, 1));
    let printed = format!("but baton printed\nbaton {}", env!("CARGO_PKG_VERSION"));
    assert!(failures.len() == 1 && failures[0].contains(&printed), "{failures:?}");

    let mut failures = Vec::new();
    check_page("made-up.md", &page.replace("0.0.1", "[..]"), &mut failures);
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn a_command_in_an_unlabelled_block_or_one_that_is_not_baton_fails() {
    let page = "```\n$ baton --version\nbaton 0.1.0\n```\n\n```console\n$ npx baton-cc install\n```\n";
    let mut failures = Vec::new();
    check_page("made-up.md", page, &mut failures);
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(
        failures[0].starts_with("made-up.md:1: a `$ ` command in a block"),
        "{failures:?}"
    );
    assert!(failures[1].contains("`npx` is not baton"), "{failures:?}");

    let marked = "```text\n$ baton --version\nbaton 0.1.0\n```\n";
    let mut failures = Vec::new();
    assert_eq!(check_page("made-up.md", marked, &mut failures), (0, 0));
    assert!(failures.is_empty(), "{failures:?}");
}
