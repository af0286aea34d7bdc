//! The man pages in docs/man/ are rendered from the command line's definition (the one the
//! parser, the help and the completions come from) by clap_mangen, here rather than in baton,
//! so the binary does not carry the renderer. A flag or help text changed without them fails
//! this test; `BATON_BLESS=1 cargo test --test integration man_page` writes them anew.

use std::collections::BTreeMap;
use std::path::Path;

/// The pages as files: name → text.
fn pages(dir: &Path) -> BTreeMap<String, String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "1"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

#[test]
fn the_man_pages_are_rendered_from_the_command_line() {
    let fresh = tempfile::tempdir().unwrap();
    clap_mangen::generate_to(baton::cli::manual(), fresh.path()).unwrap();
    let fresh = pages(fresh.path());
    assert!(
        fresh.contains_key("baton.1") && fresh.contains_key("baton-pause.1"),
        "{:?}",
        fresh.keys()
    );
    assert!(
        fresh["baton-pause.1"].contains("human\\-action"),
        "{}",
        fresh["baton-pause.1"]
    );
    let checked_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/man");
    if std::env::var_os("BATON_BLESS").is_some() {
        std::fs::create_dir_all(&checked_in).unwrap();
        for (name, _) in pages(&checked_in) {
            std::fs::remove_file(checked_in.join(name)).unwrap();
        }
        for (name, text) in &fresh {
            std::fs::write(checked_in.join(name), text).unwrap();
        }
    }
    let kept = pages(&checked_in);
    let stale: Vec<&String> = fresh
        .keys()
        .chain(kept.keys())
        .filter(|name| fresh.get(*name) != kept.get(*name))
        .collect();
    assert!(
        stale.is_empty(),
        "docs/man/ is stale ({stale:?}): run `BATON_BLESS=1 cargo test --test integration man_page`"
    );
}
