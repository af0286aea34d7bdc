//! What an item is called: a tool result by its tool and target (`Read src/app.ts`,
//! `Bash npm test`, `Grep "TODO" src/`, `Agent Explore`, `MCP github create_issue`), a prompt by
//! its first words, an attachment by its kind and file.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::json::lenient::lenient_text;

/// Longest target shown; longer ones keep their start (a command) or their end (a path).
const MAX_TARGET: usize = 60;

/// The inputs of Claude Code's tools that name what a call is about.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolInput {
    #[serde(deserialize_with = "lenient_text")]
    file_path: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    notebook_path: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    command: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pattern: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    path: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    url: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    query: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    subagent_type: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    skill: Option<String>,
}

/// `(tool, target)` of a tool use: the tool as the user knows it and what it was run on.
pub fn tool_use(name: &str, input: Option<&RawValue>, cwd: Option<&str>) -> (String, Option<String>) {
    if let Some(rest) = name.strip_prefix("mcp__") {
        // `mcp__<server>__<tool>`; a server name may itself hold `__`.
        return match rest.rsplit_once("__") {
            Some((server, tool)) => (format!("MCP {server}"), Some(tool.to_owned())),
            None => (format!("MCP {rest}"), None),
        };
    }
    let input: ToolInput = input
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
        .unwrap_or_default();
    let relative = |path: String| relative_to(path, cwd);
    let target = match name {
        "Read" | "Write" | "Edit" | "MultiEdit" => input.file_path.map(relative).map(path_end),
        "NotebookEdit" | "NotebookRead" => input.notebook_path.or(input.file_path).map(relative).map(path_end),
        "Bash" | "PowerShell" => input.command.map(|c| start(first_line(&c))),
        "Grep" => input.pattern.map(|pattern| match input.path {
            Some(path) => start(&format!("\"{pattern}\" {}", relative(path))),
            None => start(&format!("\"{pattern}\"")),
        }),
        "Glob" => input.pattern.map(|p| start(&p)),
        "WebFetch" => input.url.map(|u| start(&u)),
        "WebSearch" => input.query.map(|q| start(&q)),
        // Claude Code's default subagent when none is named.
        "Agent" | "Task" => Some(input.subagent_type.unwrap_or_else(|| "general-purpose".into())),
        "Skill" => input.skill,
        _ => None,
    };
    (name.to_owned(), target.filter(|t| !t.is_empty()))
}

/// A prompt's name: its first line, cut.
pub fn prompt(text: &str) -> Option<String> {
    let line = start(first_line(text.trim_start()));
    (!line.is_empty()).then_some(line)
}

/// `path` below `cwd` without the `cwd/` prefix.
fn relative_to(path: String, cwd: Option<&str>) -> String {
    match cwd.map(|c| c.trim_end_matches(['/', '\\'])) {
        Some(cwd) if !cwd.is_empty() => match path.strip_prefix(cwd) {
            Some(rest) if rest.starts_with(['/', '\\']) => rest[1..].to_owned(),
            _ => path,
        },
        _ => path,
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim_end()
}

/// The start of `text`, cut to [`MAX_TARGET`] characters with `…`.
fn start(text: &str) -> String {
    match text.char_indices().nth(MAX_TARGET) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// The end of a path, cut to [`MAX_TARGET`] characters with a leading `…`: its file name
/// matters most.
fn path_end(path: String) -> String {
    let count = path.chars().count();
    if count <= MAX_TARGET {
        return path;
    }
    let skip = path.char_indices().nth(count - MAX_TARGET + 1).map_or(0, |(at, _)| at);
    format!("…{}", &path[skip..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str, input: &str) -> (String, Option<String>) {
        let raw: Box<RawValue> = serde_json::from_str(input).unwrap();
        tool_use(name, Some(&raw), Some("/home/u/proj"))
    }

    #[test]
    fn tools_are_named_by_what_they_ran_on() {
        assert_eq!(
            named("Read", r#"{"file_path":"/home/u/proj/src/billing/ledger_dump.sql"}"#),
            ("Read".into(), Some("src/billing/ledger_dump.sql".into()))
        );
        assert_eq!(
            named("Read", r#"{"file_path":"/etc/hosts"}"#).1.as_deref(),
            Some("/etc/hosts")
        );
        assert_eq!(
            named("Bash", r#"{"command":"npm test\n&& echo done","description":"x"}"#)
                .1
                .as_deref(),
            Some("npm test")
        );
        assert_eq!(
            named("Grep", r#"{"pattern":"TODO","path":"/home/u/proj/src/"}"#)
                .1
                .as_deref(),
            Some("\"TODO\" src/")
        );
        assert_eq!(
            named("Agent", r#"{"subagent_type":"Explore"}"#).1.as_deref(),
            Some("Explore")
        );
        assert_eq!(named("Task", r#"{"prompt":"x"}"#).1.as_deref(), Some("general-purpose"));
        assert_eq!(
            named("mcp__github__create_issue", "{}"),
            ("MCP github".into(), Some("create_issue".into()))
        );
        assert_eq!(named("TodoWrite", r#"{"todos":[]}"#), ("TodoWrite".into(), None));
        // A wrongly typed input names nothing, and loses nothing else.
        assert_eq!(named("Read", r#"{"file_path":7}"#), ("Read".into(), None));
    }

    #[test]
    fn long_targets_are_cut_where_they_say_least() {
        let long = format!("/home/u/proj/{}main.rs", "deep/".repeat(20));
        let target = named("Read", &format!(r#"{{"file_path":"{long}"}}"#)).1.unwrap();
        assert!(target.starts_with('…') && target.ends_with("deep/main.rs"), "{target}");
        assert_eq!(target.chars().count(), MAX_TARGET);
        let command = named("Bash", &format!(r#"{{"command":"echo {}"}}"#, "é".repeat(100)))
            .1
            .unwrap();
        assert!(command.starts_with("echo é") && command.ends_with('…'));
        assert_eq!(prompt("\n  fix the bug\nin billing").as_deref(), Some("fix the bug"));
        assert_eq!(prompt("   "), None);
    }
}
