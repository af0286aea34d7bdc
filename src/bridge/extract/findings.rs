//! Security finding ids a run refers to, with the file and line: CVE ids, GitHub advisories
//! (GHSA), the team's own (`SEC-123`, prefixes from baton's config) anywhere in a comment,
//! and by default any ticket-style id (`SEC-4471`, `APPSEC-12`) that follows a word saying
//! it is fixed (fix, resolves, closes, mitigates, …) on the same line. Read in the comments
//! of the changed files (strings and code are skipped; prose files count whole) and in the
//! run's commit messages.

use super::{Settings, Source, per_file};
use crate::bridge::facts::{Facts, Finding};

/// Words that say an id is fixed (compared without case, as whole words).
const FIX_WORDS: &[&str] = &[
    "fix",
    "fixes",
    "fixed",
    "fixing",
    "resolve",
    "resolves",
    "resolved",
    "resolving",
    "close",
    "closes",
    "closed",
    "closing",
    "address",
    "addresses",
    "addressed",
    "mitigate",
    "mitigates",
    "mitigated",
    "remediate",
    "remediates",
    "remediated",
    "patch",
    "patches",
    "patched",
];
/// How far before a ticket id (on its line) a fix word may stand.
const FIX_WINDOW: usize = 60;
/// Prefixes of names that look like ticket ids and are not (`UTF-8`, `SHA-256`, `PEP-8`).
const NOT_TICKETS: &[&str] = &[
    "UTF", "UCS", "ISO", "RFC", "SHA", "MD", "TLS", "SSL", "HTTP", "HTTPS", "ES", "ECMA", "IE", "PEP", "AES", "RSA",
    "IEEE", "WCAG", "CP", "WIN", "GPL", "LGPL", "AGPL", "BSD", "MIT", "APACHE", "LTS", "IPV", "BASE", "CRC", "DES",
    "SHA3", "ECDSA", "HMAC", "PKCS", "OWASP", "CWE", "CVSS",
];

/// Extracts finding ids with the default settings (CVE, GHSA and fixed ticket ids; the tests').
#[cfg(test)]
pub fn extract(sources: &[Source<'_>]) -> Facts {
    extract_with(sources, &Settings::default())
}

/// Extracts finding ids from the comments of `sources`.
pub fn extract_with(sources: &[Source<'_>], settings: &Settings) -> Facts {
    let prefixes = prefixes(settings);
    per_file(sources, |source| {
        // Most files name no id anywhere: only those that do are read for their comments.
        if ids_in(source.text, &prefixes).is_empty() {
            return Facts::default();
        }
        let Some(comments) = comments(source) else {
            return Facts::default();
        };
        let lines = LineIndex::of(source.text);
        let mut found = Vec::new();
        for (start, end) in comments {
            for (at, id) in ids_in(&source.text[start..end], &prefixes) {
                found.push((id, lines.line(start + at)));
            }
        }
        findings(found, source.path)
    })
}

/// Finding ids in the run's commit messages, `(hash, message)`, each as `commit <hash>`
/// with its line in the message.
pub fn in_commits(commits: &[(String, String)], settings: &Settings) -> Facts {
    let prefixes = prefixes(settings);
    let mut facts = Facts::default();
    for (hash, message) in commits {
        let short: String = hash.chars().take(12).collect();
        let lines = LineIndex::of(message);
        let found = ids_in(message, &prefixes)
            .into_iter()
            .map(|(at, id)| (id, lines.line(at)))
            .collect();
        facts.append(findings(found, &format!("commit {short}")));
    }
    facts
}

/// Each id once per file, at its first line.
fn findings(found: Vec<(String, usize)>, file: &str) -> Facts {
    let mut out: Vec<Finding> = Vec::new();
    for (id, line) in found {
        if !out.iter().any(|f| f.id == id) {
            out.push(Finding {
                id,
                file: file.to_owned(),
                line: Some(line),
            });
        }
    }
    Facts {
        findings: out,
        ..Facts::default()
    }
}

/// Line numbers of byte offsets.
struct LineIndex(Vec<usize>);

impl LineIndex {
    fn of(text: &str) -> LineIndex {
        LineIndex(memchr::memchr_iter(b'\n', text.as_bytes()).collect())
    }

    /// The 1-based line of byte `at`.
    fn line(&self, at: usize) -> usize {
        self.0.partition_point(|&newline| newline < at) + 1
    }
}

/// The configured prefixes that are plain words (`SEC`, `SEC-` → `SEC`).
fn prefixes(settings: &Settings) -> Vec<String> {
    let plain = settings
        .finding_prefixes
        .iter()
        .map(|p| p.trim().trim_end_matches('-').to_owned());
    plain
        .filter(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect()
}

/// The ids in `text` with their byte offsets, in order: `CVE-2024-12345`,
/// `GHSA-xxxx-xxxx-xxxx`, `PREFIX-123`, and a ticket id a fix word comes before.
pub fn ids_in(text: &str, prefixes: &[String]) -> Vec<(usize, String)> {
    let mut ids: Vec<(usize, String)> = Vec::new();
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices('-') {
        let start = bytes[..at]
            .iter()
            .rposition(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .map_or(0, |p| p + 1);
        let word = &text[start..at];
        let rest = &text[at + 1..];
        let id = if word.eq_ignore_ascii_case("CVE") {
            cve(rest)
        } else if word.eq_ignore_ascii_case("GHSA") {
            ghsa(rest)
        } else if let Some(prefix) = prefixes.iter().find(|p| p.eq_ignore_ascii_case(word)) {
            digits(rest).map(|d| format!("{prefix}-{d}"))
        } else if is_ticket_prefix(word) && follows_fix_word(text, start) {
            digits(rest).filter(|d| d.len() <= 7).map(|d| format!("{word}-{d}"))
        } else {
            None
        };
        if let Some(id) = id.filter(|id| !ids.iter().any(|(_, have)| have == id)) {
            ids.push((start, id));
        }
    }
    ids
}

/// `SEC`, `APPSEC`, `PROJ2`: upper case, starting with two letters, not a standard's name.
fn is_ticket_prefix(word: &str) -> bool {
    let mut chars = word.chars();
    (2..=10).contains(&word.len())
        && chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && !NOT_TICKETS.contains(&word)
}

/// Whether a fix word stands before byte `start` of `text`, on its line, within [`FIX_WINDOW`].
fn follows_fix_word(text: &str, start: usize) -> bool {
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    let mut from = start.saturating_sub(FIX_WINDOW).max(line_start);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    text[from..start]
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| FIX_WORDS.iter().any(|fix| fix.eq_ignore_ascii_case(w)))
}

/// `2024-12345` after `CVE-`.
fn cve(rest: &str) -> Option<String> {
    let (year, number) = rest.split_at_checked(4)?;
    let number = number.strip_prefix('-')?;
    let digits = digits(number)?;
    (year.bytes().all(|b| b.is_ascii_digit()) && (4..=7).contains(&digits.len()))
        .then(|| format!("CVE-{year}-{digits}"))
}

/// `xxxx-xxxx-xxxx` after `GHSA-` (GitHub's alphabet).
fn ghsa(rest: &str) -> Option<String> {
    let candidate = rest.get(..14)?.to_ascii_lowercase();
    let groups: Vec<&str> = candidate.split('-').collect();
    let alphabet = |c: char| "23456789cfghjmpqrvwx".contains(c);
    let valid = groups.len() == 3 && groups.iter().all(|g| g.len() == 4 && g.chars().all(alphabet));
    let ends = rest[14..].chars().next().is_none_or(|c| !c.is_ascii_alphanumeric());
    (valid && ends).then(|| format!("GHSA-{candidate}"))
}

/// The digits `rest` starts with, when a word boundary follows them.
fn digits(rest: &str) -> Option<&str> {
    let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let boundary = rest[end..]
        .chars()
        .next()
        .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
    (end > 0 && boundary).then(|| &rest[..end])
}

/// The comment syntax of a file: what starts a line comment, the block comments, and the
/// quotes strings are in (comments inside strings do not count).
struct Syntax {
    line: &'static str,
    blocks: &'static [(&'static str, &'static str)],
    quotes: &'static [u8],
}

/// `//` and `/* */`; strings in `"`, `'` and backticks.
const C_LIKE: Syntax = Syntax::new("//", &[("/*", "*/")], b"\"'`");
/// `#`; strings in `"` and `'`.
const HASH: Syntax = Syntax::new("#", &[], b"\"'");
/// `--` and `/* */`; strings in `'`.
const SQL: Syntax = Syntax::new("--", &[("/*", "*/")], b"'");
/// C-like plus `<!-- -->` (HTML, Vue, Svelte).
const MARKUP: Syntax = Syntax::new("//", &[("<!--", "-->"), ("/*", "*/")], b"\"'`");
/// Prose: the whole text counts.
const PROSE: Syntax = Syntax::new("", &[], b"");

impl Syntax {
    const fn new(line: &'static str, blocks: &'static [(&'static str, &'static str)], quotes: &'static [u8]) -> Self {
        Syntax { line, blocks, quotes }
    }
}

fn syntax_of(source: &Source<'_>) -> Option<Syntax> {
    let name = source.file_name();
    if name.starts_with("Dockerfile") || name == "Makefile" || super::dotenv::is_dotenv(name) {
        return Some(HASH);
    }
    if matches!(name, "SECURITY" | "CHANGELOG" | "NOTES") {
        return Some(PROSE);
    }
    Some(match source.extension().as_str() {
        "rs" | "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" | "go" | "java" | "kt" | "kts" | "scala"
        | "swift" | "c" | "h" | "cc" | "cpp" | "hpp" | "cs" | "dart" | "php" | "groovy" | "gradle" | "proto"
        | "css" | "scss" | "less" | "tf" | "hcl" | "prisma" => C_LIKE,
        "py" | "rb" | "sh" | "bash" | "zsh" | "yml" | "yaml" | "toml" | "cfg" | "conf" | "ini" | "r" | "pl" | "ps1"
        | "properties" | "dockerfile" => HASH,
        "sql" | "ddl" => SQL,
        "html" | "htm" | "xml" | "vue" | "svelte" => MARKUP,
        "md" | "mdx" | "txt" | "rst" | "adoc" => PROSE,
        _ => return None,
    })
}

/// The byte ranges of a file's comments (the whole file for prose); `None` for files of
/// unknown syntax.
fn comments(source: &Source<'_>) -> Option<Vec<(usize, usize)>> {
    let syntax = syntax_of(source)?;
    let text = source.text;
    if syntax.line.is_empty() {
        return Some(vec![(0, text.len())]);
    }
    let mut out = Vec::new();
    let mut i = 0;
    let starts = |i: usize, s: &str| text.as_bytes()[i..].starts_with(s.as_bytes());
    while i < text.len() {
        let c = text.as_bytes()[i];
        if starts(i, syntax.line) {
            let end = text[i..].find('\n').map_or(text.len(), |e| i + e);
            out.push((i, end));
            i = end;
        } else if let Some((open, close)) = syntax.blocks.iter().find(|(open, _)| starts(i, open)) {
            let end = text[i + open.len()..]
                .find(close)
                .map_or(text.len(), |e| i + open.len() + e + close.len());
            out.push((i, end));
            i = end;
        } else if syntax.quotes.contains(&c) {
            i = string_end(text, i + 1, c);
        } else {
            i += 1;
        }
    }
    Some(out)
}

/// Where a string that opened before `from` ends: after its closing quote, or at the end of
/// the line for `'` and `"` (only backtick strings run over lines).
fn string_end(text: &str, from: usize, quote: u8) -> usize {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' if quote != b'`' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(path: &str, text: &str, prefixes: &[&str]) -> Vec<String> {
        let settings = Settings {
            finding_prefixes: prefixes.iter().map(|p| (*p).to_owned()).collect(),
            ..Settings::default()
        };
        let facts = extract_with(&[Source { path, text }], &settings);
        facts.findings.into_iter().map(|f| f.id).collect()
    }

    #[test]
    fn ids_in_comments_count_and_ids_in_strings_do_not() {
        let ts = "// Fixes CVE-2024-3094 (xz) and GHSA-jfh8-c2jp-5v3q\nconst s = \"CVE-2023-0001 // not a comment\";\n\
                  /* SEC-42: validate the redirect\n   see cve-2021-44228 */\nconst t = `GHSA-xxxx-2222-3333 ${x}`;\n";
        assert_eq!(
            found("src/auth/redirect.ts", ts, &["SEC-"]),
            ["CVE-2024-3094", "GHSA-jfh8-c2jp-5v3q", "SEC-42", "CVE-2021-44228"]
        );
        let py = "API = 'https://x/#CVE-2020-0002'\n# Mitigates CVE-2022-22965 / SEC-7\n";
        assert_eq!(found("app/views.py", py, &["SEC"]), ["CVE-2022-22965", "SEC-7"]);
        let sql = "-- CVE-2019-9193\nSELECT '-- CVE-2018-1058';\n";
        assert_eq!(found("db/fix.sql", sql, &[]), ["CVE-2019-9193"]);
        assert_eq!(
            found("SECURITY.md", "Tracked as CVE-2025-10001.", &[]),
            ["CVE-2025-10001"]
        );
        assert!(found("data.json", "{\"id\": \"CVE-2024-3094\"}", &[]).is_empty());
    }

    #[test]
    fn ids_need_word_boundaries_and_the_right_shape() {
        let prefixes = vec!["SEC".to_owned()];
        let ids: Vec<String> = ids_in(
            "XSEC-1 SEC-12a SEC-9 CVE-24-1 CVE-2024-123 GHSA-aaaa-bbbb-cccc SEC-9",
            &prefixes,
        )
        .into_iter()
        .map(|(_, id)| id)
        .collect();
        assert_eq!(ids, ["SEC-9"]);
    }

    #[test]
    fn ticket_ids_a_fix_word_comes_before_count_without_configuration() {
        let ts = "// Fixes SEC-4471: escape the redirect target
const a = 1;
                  /* Resolves APPSEC-12 and PLAT-7.
   See PROJ-99 for the plan (not fixed here). */
                  // fix UTF-8 handling, SHA-256 digests and PEP-8 style
// JIRA-5 is next
";
        let facts = extract(&[Source {
            path: "src/auth/redirect.ts",
            text: ts,
        }]);
        let got: Vec<(&str, Option<usize>)> = facts.findings.iter().map(|f| (f.id.as_str(), f.line)).collect();
        assert_eq!(
            got,
            [("SEC-4471", Some(1)), ("APPSEC-12", Some(3)), ("PLAT-7", Some(3))]
        );
    }

    #[test]
    fn commit_messages_are_read_whole() {
        let commits = vec![(
            "0123456789abcdef0123".to_owned(),
            "Bump lodash (CVE-2021-23337)\n\nRefs SEC-88".to_owned(),
        )];
        let settings = Settings {
            finding_prefixes: vec!["SEC".into()],
            ..Settings::default()
        };
        let facts = in_commits(&commits, &settings);
        let got: Vec<(&str, &str, Option<usize>)> = facts
            .findings
            .iter()
            .map(|f| (f.id.as_str(), f.file.as_str(), f.line))
            .collect();
        assert_eq!(
            got,
            [
                ("CVE-2021-23337", "commit 0123456789ab", Some(1)),
                ("SEC-88", "commit 0123456789ab", Some(3))
            ]
        );
        let fixed = in_commits(
            &[("ab".repeat(20), "Closes SEC-4471\n\nfix(auth): handle PEP-8".to_owned())],
            &Settings::default(),
        );
        assert_eq!(fixed.findings[0].id, "SEC-4471");
        assert_eq!(fixed.findings.len(), 1);
    }
}
