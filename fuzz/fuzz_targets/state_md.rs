//! STATE.md: the reader (`planning::state::PlanningState::parse`) and the edits `pause`,
//! `resume` and the monitor make (`planning::state_edit`). The reader takes any text (or
//! refuses a frontmatter past its bounds) in time linear in its length. An edit of the
//! frontmatter sets exactly its key: the YAML still reads, with the new value and every other
//! key as it was (a file without a closed frontmatter, or whose frontmatter breaks lines
//! where its lines do not show, at a lone CR, NEL, LS or PS, is left byte for byte, and so is
//! one that spells a key in YAML a line edit cannot see: `?`, a flow mapping, a tag, an
//! escape). An edit of a Session Continuity line leaves every line baton does not own in
//! place and in order, and makes the line read back. Both edits are idempotent.

#![no_main]

use baton::planning::state::{PlanningState, split_frontmatter};
use baton::planning::state_edit::{
    has_hidden_line_break, remove_frontmatter_value, set_continuity_line, set_frontmatter_value,
};
use baton::planning::yaml;
use libfuzzer_sys::fuzz_target;
use serde_norway::{Mapping, Value as Yaml};

/// A value as `pause` writes it, with the characters that could break the YAML line.
const VALUE: &str = "Phase 3 (Cart): \"quoted\" # not a comment\n---\nkey: injected";

/// The labels of the Session Continuity lines baton owns.
const LABELS: &[&str] = &["Stopped at:", "Last session:", "Resume file:"];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = PlanningState::parse(&text);
    baton_fuzz::check_linear("PlanningState::parse", data, |long| {
        let _ = PlanningState::parse(&String::from_utf8_lossy(long));
    });

    for (key, value) in [("paused_at", VALUE), ("stopped_at", "x")] {
        let edited = set_frontmatter_value(&text, key, value);
        assert_eq!(
            set_frontmatter_value(&edited, key, value),
            edited,
            "editing {key} twice changes more"
        );
        frontmatter_edit_holds(&text, &edited, key, Some(value));
    }
    let removed = remove_frontmatter_value(&text, "paused_at");
    assert_eq!(
        remove_frontmatter_value(&removed, "paused_at"),
        removed,
        "removing twice changes more"
    );
    frontmatter_edit_holds(&text, &removed, "paused_at", None);
    for label in LABELS {
        let edited = set_continuity_line(&text, label, VALUE);
        assert_eq!(
            set_continuity_line(&edited, label, VALUE),
            edited,
            "editing {label} twice changes more"
        );
        continuity_edit_holds(&text, &edited, label);
    }
});

fn frontmatter_edit_holds(text: &str, edited: &str, key: &str, value: Option<&str>) {
    let Some(before) = split_frontmatter(text).0 else {
        assert_eq!(edited, text, "a file without frontmatter was changed");
        return;
    };
    // The frontmatter as the edit sees it: with the line ending of its last line.
    if has_hidden_line_break(&format!("{before}\n")) {
        assert_eq!(edited, text, "a frontmatter with line breaks the lines do not show was changed");
        return;
    }
    // Only a frontmatter that is a YAML mapping of plain keys, within the bounds baton
    // reads, says what its keys are.
    let Ok(before) = yaml::parse::<Mapping>(before) else {
        return;
    };
    if before.keys().any(|k| !k.as_str().is_some_and(is_plain_key)) {
        return;
    }
    if edited == text && !line_edit_sees(split_frontmatter(text).0.unwrap_or_default()) {
        // The editor refuses what it cannot edit line by line rather than write a key twice.
        return;
    }
    let after = split_frontmatter(edited).0.expect("the edit keeps the frontmatter");
    let after: Mapping = yaml::parse(after).unwrap_or_else(|e| panic!("the edit broke the YAML: {e}"));
    let expected = value.map(|v| Yaml::String(v.to_owned()));
    assert_eq!(after.get(key), expected.as_ref(), "{key} does not read back");
    for (k, v) in &before {
        if k.as_str() != Some(key) {
            assert_eq!(after.get(k), Some(v), "the edit of {key} changed {k:?}");
        }
    }
    let expected_len = match value {
        Some(_) => before.len() + usize::from(!before.contains_key(key)),
        None => before.len() - usize::from(before.contains_key(key)),
    };
    assert_eq!(after.len(), expected_len, "keys came or went");
}

/// Whether a frontmatter is written as a line edit sees it: no explicit key (`?`), flow
/// mapping, tag or escape, the YAML a line edit would misread. GSD writes none of them.
fn line_edit_sees(frontmatter: &str) -> bool {
    !frontmatter.contains(['?', '{', '!', '\\'])
}

/// A key GSD writes: letters, digits and `_`, starting with a letter.
fn is_plain_key(key: &str) -> bool {
    key.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn continuity_edit_holds(text: &str, edited: &str, label: &str) {
    let owned = |line: &str| {
        let bare = line
            .trim_start()
            .trim_start_matches(['-', '*', ' '])
            .trim_start_matches("**");
        LABELS.iter().any(|l| bare.starts_with(l.trim_end_matches(':')))
    };
    let foreign = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| l.trim_end_matches('\r').to_owned())
            .filter(|l| !owned(l))
            .collect()
    };
    let kept = foreign(edited);
    let mut rest = kept.iter();
    for line in foreign(text) {
        assert!(rest.any(|l| *l == line), "the edit of {label} lost or moved {line:?}");
    }
    let flat = VALUE.replace(['\r', '\n'], " ");
    assert!(
        edited
            .lines()
            .any(|l| l.trim_end_matches('\r').ends_with(&format!(" {flat}")) && owned(l)),
        "the {label} line is not there"
    );
}
