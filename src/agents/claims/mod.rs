//! What an agent's final message claims, read conservatively: file paths it says it created,
//! changed or removed, commit hashes it names, plans it says it completed. A claim needs a
//! change verb (or a commit word) in its sentence or list heading; negated sentences
//! ("could not create x.rs") claim nothing.

mod commits;
mod tokens;
mod vocabulary;

use serde::Serialize;

use tokens::{Token, is_list_item, is_path, plan_id, sentences};
use vocabulary::{CHANGE_VERBS, COMMIT_WORDS, DONE_WORDS, FAILURE_PHRASES, NEGATIONS, REMOVE_VERBS};

/// What a message claims.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Claims {
    /// Paths said to be created or changed (as written, minus quotes and `:line`).
    pub files: Vec<String>,
    /// Paths said to be deleted.
    pub removed: Vec<String>,
    /// Commit hashes named (lowercase).
    pub commits: Vec<String>,
    /// Plan ids (`03-02`) said to be completed.
    pub plans: Vec<String>,
    /// False when the message reports a failure (heuristic, shown beside the check).
    pub reports_success: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Change,
    Remove,
}

/// Most claims read from one message; a report naming more is checked on its first ones.
pub const MAX_CLAIMS: usize = 200;

/// Reads the claims of an agent's final message (at most [`MAX_CLAIMS`] of them).
pub fn extract(message: &str) -> Claims {
    let lower = message.to_lowercase();
    let mut claims = Claims {
        reports_success: !FAILURE_PHRASES.iter().any(|p| lower.contains(p)),
        ..Claims::default()
    };
    // A list heading ("Files created:", "## Commits") lends its meaning to its items.
    let mut heading: Option<Context> = None;
    for line in message.lines() {
        let trimmed = line.trim();
        let is_item = is_list_item(trimmed);
        if trimmed.is_empty() || !(is_item || heading.is_none()) {
            heading = None;
        }
        if trimmed.starts_with('#') || (trimmed.ends_with(':') && !is_item) {
            heading = Some(Context::of(trimmed));
            continue;
        }
        let inherited = if is_item { heading } else { None };
        for sentence in sentences(trimmed) {
            let own = Context::of(sentence);
            let context = match inherited {
                Some(h) if !own.negated => Context {
                    kind: own.kind.or(h.kind),
                    commit: own.commit || h.commit,
                    done: own.done || h.done,
                    negated: false,
                    moves: own.moves,
                },
                _ => own,
            };
            read_sentence(sentence, context, &mut claims);
        }
    }
    let mut budget = MAX_CLAIMS;
    for list in [
        &mut claims.files,
        &mut claims.removed,
        &mut claims.commits,
        &mut claims.plans,
    ] {
        let mut seen = std::collections::HashSet::new();
        list.retain(|item| seen.insert(item.clone()));
        list.truncate(budget);
        budget -= list.len();
    }
    claims
}

#[derive(Clone, Copy, Default)]
struct Context {
    kind: Option<Kind>,
    commit: bool,
    done: bool,
    negated: bool,
    /// "moved/renamed a to b": only the last path is a claim.
    moves: bool,
}

impl Context {
    fn of(text: &str) -> Context {
        let words: Vec<String> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
        // Negation counts only just before the first claim word: "could not create x.rs",
        // not "created x.rs with no tests".
        let is_key = |w: &String| {
            [CHANGE_VERBS, REMOVE_VERBS, COMMIT_WORDS, DONE_WORDS]
                .iter()
                .any(|list| list.contains(&w.as_str()))
        };
        let negated = words.iter().position(is_key).is_some_and(|at| {
            words[at.saturating_sub(3)..at]
                .iter()
                .any(|w| NEGATIONS.contains(&w.as_str()))
        });
        let kind = if has(REMOVE_VERBS) {
            Some(Kind::Remove)
        } else if has(CHANGE_VERBS) {
            Some(Kind::Change)
        } else {
            None
        };
        Context {
            kind,
            commit: has(COMMIT_WORDS),
            done: has(DONE_WORDS),
            negated,
            moves: has(&["move", "moved", "rename", "renamed"]),
        }
    }
}

fn read_sentence(sentence: &str, context: Context, claims: &mut Claims) {
    if context.negated {
        return;
    }
    let tokens: Vec<Token> = sentence.split_whitespace().filter_map(Token::read).collect();
    let paths: Vec<&Token> = tokens.iter().filter(|t| is_path(t)).collect();
    match context.kind {
        Some(Kind::Remove) => claims.removed.extend(paths.iter().map(|t| t.text.clone())),
        Some(Kind::Change) if context.moves => {
            claims.files.extend(paths.last().map(|t| t.text.clone()));
        }
        Some(Kind::Change) => claims.files.extend(paths.iter().map(|t| t.text.clone())),
        None => {}
    }
    if context.commit {
        claims.commits.extend(commits::hashes(&tokens));
    }
    if context.done {
        for token in &tokens {
            if let Some(id) = plan_id(&token.text) {
                claims.plans.push(id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_observed_message() {
        let c = extract("Created db/001_users.sql with table users.");
        assert_eq!(c.files, ["db/001_users.sql"]);
        assert!(c.commits.is_empty() && c.reports_success);
    }

    #[test]
    fn reads_sentences_lists_and_headings() {
        let message = "I implemented the endpoint in `src/api/users.ts:42` and updated README.md. \
                       I read src/config.ts for context.\n\n\
                       ## Files created\n- src/api/auth.ts\n- [tests](tests/auth.test.ts)\n\n\
                       Task commits:\n1. `a1b2c3d` feat: auth\n2. 9f8e7d6c5b (test)\n\n\
                       Removed old/legacy.js. Plan 03-02 complete.";
        let c = extract(message);
        assert_eq!(
            c.files,
            ["src/api/users.ts", "README.md", "src/api/auth.ts", "tests/auth.test.ts"]
        );
        assert_eq!(c.removed, ["old/legacy.js"]);
        assert_eq!(c.commits, ["a1b2c3d", "9f8e7d6c5b"]);
        assert_eq!(c.plans, ["03-02"]);
    }

    #[test]
    fn negations_versions_products_and_urls_claim_nothing() {
        let c = extract(
            "Could not create src/x.rs because the directory is read-only. \
             Updated the Node.js handler per https://example.com/a.html and docs at example.com. \
             Bumped to v1.2.3, e.g. for 2026-11-29. I did not modify lib.rs.",
        );
        assert!(c.files.is_empty(), "{:?}", c.files);
        assert!(!c.reports_success);
    }

    #[test]
    fn commits_need_a_commit_word() {
        let c = extract("Committed as 4f2a9c1; the build id 1234567 and word defaced stay.");
        assert_eq!(c.commits, ["4f2a9c1"]);
        assert!(extract("Hash-free text with deadbeef1 in it").commits == ["deadbeef1"]);
        assert!(extract("see 4f2a9c1 for details").commits.is_empty());
        assert!(extract("see deadbee for details").commits.is_empty());
    }

    #[test]
    fn hashes_of_letters_only_are_read_when_presented_as_commits() {
        let c = extract("Created src/a.rs. Committed as deadbee.\n\n## Commits\n- `cafebabe` feat: b\n- abcdefab test");
        assert_eq!(c.commits, ["deadbee", "cafebabe", "abcdefab"]);
        let c = extract("Committed the defaced banner and a facade fix; the effaced header stays.");
        assert!(c.commits.is_empty(), "{:?}", c.commits);
    }

    #[test]
    fn a_flood_of_claims_is_capped() {
        let message: String = (0..5000).map(|i| format!("Created src/f{i}.rs. ")).collect();
        let c = extract(&message);
        assert_eq!(c.files.len(), MAX_CLAIMS);
        assert_eq!(c.files[0], "src/f0.rs");
    }

    #[test]
    fn moves_claim_only_the_destination() {
        let c = extract("Created src/a.rs with no dependencies. Updated `user.name` in config.json.");
        assert_eq!(c.files, ["src/a.rs", "config.json"]);
        let c = extract("Moved src/old.rs to src/new.rs.");
        assert_eq!(c.files, ["src/new.rs"]);
    }
}
