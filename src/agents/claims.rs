//! What an agent's final message claims, read conservatively: file paths it says it created,
//! changed or removed, commit hashes it names, plans it says it completed. A claim needs a
//! change verb (or a commit word) in its sentence or list heading; negated sentences
//! ("could not create x.rs") claim nothing.

use serde::Serialize;

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

const CHANGE_VERBS: &[&str] = &[
    "add",
    "added",
    "adds",
    "adding",
    "create",
    "created",
    "creates",
    "creating",
    "wrote",
    "write",
    "writes",
    "written",
    "update",
    "updated",
    "updates",
    "modify",
    "modified",
    "modifies",
    "change",
    "changed",
    "changes",
    "edit",
    "edited",
    "edits",
    "implement",
    "implemented",
    "generate",
    "generated",
    "save",
    "saved",
    "fix",
    "fixed",
    "refactor",
    "refactored",
    "touch",
    "touched",
    "move",
    "moved",
    "rename",
    "renamed",
    "new",
];
const REMOVE_VERBS: &[&str] = &["delete", "deleted", "deletes", "remove", "removed", "removes"];
const COMMIT_WORDS: &[&str] = &["commit", "commits", "committed", "sha", "hash"];
const DONE_WORDS: &[&str] = &[
    "complete",
    "completed",
    "completes",
    "finished",
    "executed",
    "done",
    "implemented",
];
const NEGATIONS: &[&str] = &[
    "not", "couldn't", "didn't", "wasn't", "cannot", "can't", "unable", "failed", "never", "without", "won't", "no",
];
/// Phrases that mark a message as reporting failure.
const FAILURE_PHRASES: &[&str] = &[
    "unable to",
    "could not",
    "couldn't",
    "failed to",
    "blocked",
    "gave up",
    "did not complete",
    "not complete",
    "status: failed",
    "## failed",
];
/// Names with a file-like dot that are products, not files.
const NOT_FILES: &[&str] = &[
    "node.js",
    "vue.js",
    "next.js",
    "nuxt.js",
    "react.js",
    "express.js",
    "three.js",
    "d3.js",
    "chart.js",
    "angular.js",
    "ember.js",
    "backbone.js",
    "socket.io",
    "asp.net",
    "ado.net",
];
/// Extensions that make a bare `name.ext` (no directory) a file name.
const BARE_EXTENSIONS: &[&str] = &[
    "rs", "ts", "tsx", "js", "jsx", "mjs", "cjs", "py", "go", "java", "kt", "rb", "php", "c", "h", "cc", "cpp", "hpp",
    "cs", "swift", "sql", "md", "mdx", "txt", "json", "jsonl", "yaml", "yml", "toml", "ini", "cfg", "conf", "env",
    "html", "css", "scss", "vue", "svelte", "sh", "bash", "lock", "xml", "csv", "proto", "graphql", "tf", "gradle",
    "rst", "dart", "ex", "exs", "lua", "scala", "zig", "nix", "svg", "png", "log", "patch", "diff",
];

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
        claims.commits.extend(
            tokens
                .iter()
                .filter(|t| is_commit(&t.text))
                .map(|t| t.text.to_lowercase()),
        );
    }
    if context.done {
        for token in &tokens {
            if let Some(id) = plan_id(&token.text) {
                claims.plans.push(id);
            }
        }
    }
}

/// One whitespace-separated word, unwrapped from quotes, links and punctuation.
struct Token {
    text: String,
    quoted: bool,
}

impl Token {
    fn read(word: &str) -> Option<Token> {
        let quoted = word.contains('`');
        // A markdown link `[label](path)`: the target.
        let word = word.split_once("](").map_or(word, |(_, target)| target);
        let trim: &[char] = &[
            '`', '"', '\'', '(', ')', '[', ']', '{', '}', '<', '>', '*', ',', ';', '!', '?', ':',
        ];
        let mut text = word.trim_matches(trim).trim_end_matches('.').trim_matches(trim);
        // `src/main.rs:42:7` → `src/main.rs`.
        while let Some((head, tail)) = text.rsplit_once(':') {
            if tail.is_empty() || !tail.bytes().all(|b| b.is_ascii_digit()) {
                break;
            }
            text = head;
        }
        let text = text.strip_prefix("./").unwrap_or(text);
        (!text.is_empty()).then(|| Token {
            text: text.to_owned(),
            quoted,
        })
    }
}

fn is_path(token: &Token) -> bool {
    let text = token.text.as_str();
    let allowed = |c: char| c.is_ascii_alphanumeric() || "._/-+@~".contains(c);
    if text.contains("://") || text.starts_with("www.") || !text.chars().all(allowed) || text.ends_with('/') {
        return false;
    }
    let has_slash = text.contains('/');
    if text.contains('@') && !has_slash {
        return false; // an email address
    }
    let name = text.rsplit('/').next().unwrap_or(text);
    let extension = name
        .rsplit_once('.')
        .filter(|(stem, ext)| {
            !stem.is_empty()
                && (1..=10).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                && ext.bytes().any(|b| b.is_ascii_alphabetic())
        })
        .map(|(stem, ext)| (stem, ext.to_ascii_lowercase()));
    match extension {
        // A bare `name.ext` is a file only with a file extension: not `user.name`, `e.g`.
        Some((stem, ext)) if !has_slash => {
            stem.len() > 1
                && BARE_EXTENSIONS.contains(&ext.as_str())
                && !NOT_FILES.contains(&text.to_ascii_lowercase().as_str())
        }
        Some(_) => true,
        // `docker/Dockerfile`, `Makefile`: only when quoted as code.
        None => token.quoted && (has_slash || name.chars().next().is_some_and(char::is_uppercase)),
    }
}

fn is_commit(text: &str) -> bool {
    (7..=40).contains(&text.len())
        && text.bytes().all(|b| b.is_ascii_hexdigit())
        && text.bytes().any(|b| b.is_ascii_digit())
        && text.bytes().any(|b| b.is_ascii_alphabetic())
}

/// `03-02`, `2.1-01`, `03-02-PLAN.md`, `.planning/phases/03-api/03-02-SUMMARY.md` → the plan id.
fn plan_id(text: &str) -> Option<String> {
    let name = text.rsplit('/').next().unwrap_or(text);
    let id = name
        .strip_suffix("-PLAN.md")
        .or_else(|| name.strip_suffix("-SUMMARY.md"))
        .unwrap_or(name);
    let (phase, plan) = id.split_once('-')?;
    let phase_ok = !phase.is_empty()
        && phase
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let plan_ok = !plan.is_empty() && plan.len() <= 3 && plan.bytes().all(|b| b.is_ascii_digit());
    (phase_ok && plan_ok).then(|| id.to_owned())
}

fn is_list_item(line: &str) -> bool {
    let line = line.trim_start();
    if line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ ") {
        return true;
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && matches!(line.as_bytes().get(digits), Some(b'.' | b')'))
}

/// Splits a line at `. `, `; ` and `! ` (a path's own dots are not followed by a space).
fn sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = line.as_bytes();
    for i in 0..bytes.len() {
        if matches!(bytes[i], b'.' | b';' | b'!') && bytes.get(i + 1) == Some(&b' ') {
            out.push(&line[start..=i]);
            start = i + 1;
        }
    }
    out.push(&line[start..]);
    out
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
    fn commits_need_a_commit_word_and_a_mix_of_digits_and_letters() {
        let c = extract("Committed as 4f2a9c1; the build id 1234567 and word defaced stay.");
        assert_eq!(c.commits, ["4f2a9c1"]);
        assert!(extract("Hash-free text with deadbeef1 in it").commits == ["deadbeef1"]);
        assert!(extract("see 4f2a9c1 for details").commits.is_empty());
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
        assert_eq!(plan_id("02.1-03-PLAN.md").as_deref(), Some("02.1-03"));
        assert_eq!(plan_id("2026-11-29"), None);
        assert!(is_path(&Token::read("`docker/Dockerfile`").unwrap()));
        assert!(!is_path(&Token::read("input/output").unwrap()));
    }
}
