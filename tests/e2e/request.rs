//! What the client sent: one HTTP/1.1 request read off the wire (Content-Length or chunked
//! body), and a view of a Messages API request as a conversation (its prompt, turn number,
//! and the texts the model was shown).

use std::io::BufRead;

use serde_json::Value;

/// One HTTP request as the client sent it.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    /// The JSON body, or `Null` when there was none (or it was not JSON).
    pub body: Value,
}

impl Request {
    /// A header's value (name compared case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        let found = self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name));
        found.map(|(_, value)| value.as_str())
    }

    /// A model turn of an agent: `POST /v1/messages` offering tools. Side requests (title
    /// generation, quota probes, …) offer none and are answered without the script.
    pub fn is_turn(&self) -> bool {
        let tools = self.body.get("tools").and_then(Value::as_array);
        self.is_messages() && tools.is_some_and(|tools| !tools.is_empty())
    }

    /// The conversation's messages (empty for other requests).
    pub fn messages(&self) -> &[Value] {
        self.body
            .get("messages")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// The conversation's first user prompt, without the `<system-reminder>` blocks Claude Code
    /// prepends; it names the conversation (the main agent's `-p` prompt, a subagent's task).
    pub fn prompt(&self) -> String {
        let first = self.messages().first();
        let texts = first.map(|message| texts_of(&message["content"])).unwrap_or_default();
        let own: Vec<String> = texts
            .into_iter()
            .filter(|text| !text.starts_with("<system-reminder>"))
            .collect();
        own.join("\n")
    }

    /// How many assistant turns the conversation already holds; picks the scripted reply.
    pub fn assistant_turns(&self) -> usize {
        self.messages()
            .iter()
            .filter(|message| message["role"] == "assistant")
            .count()
    }

    /// The texts of the last user message (a tool_result turn carries hook context here).
    pub fn last_user_texts(&self) -> Vec<String> {
        let last = self.messages().iter().rev().find(|message| message["role"] == "user");
        last.map(|message| texts_of(&message["content"])).unwrap_or_default()
    }

    /// The hook context `label` (`PostToolUse:Bash`, `SessionStart`, …) put in the last user
    /// message: `<label> hook additional context: …`, wherever the client puts it (see
    /// [`texts_of`]).
    pub fn last_user_hook_context(&self, label: &str) -> Vec<String> {
        let marker = format!("{label} hook additional context:");
        self.last_user_texts()
            .into_iter()
            .filter(|text| text.contains(&marker))
            .collect()
    }

    /// Every text of every message (tool results included), in order.
    pub fn all_texts(&self) -> Vec<String> {
        self.messages()
            .iter()
            .flat_map(|message| texts_of(&message["content"]))
            .collect()
    }

    /// `POST /v1/messages` (any query string; not `count_tokens`).
    pub fn is_messages(&self) -> bool {
        self.method == "POST" && self.route() == "/v1/messages"
    }

    /// The path without its query string.
    pub fn route(&self) -> &str {
        self.path.split('?').next().unwrap_or_default()
    }
}

/// The texts of a message's content: a plain string, its `text` blocks, and the texts inside
/// its `tool_result` blocks. Hook context after a tool call arrives as a separate text block
/// on 2.1.197 and inside the tool_result (appended to its content string, or as an extra item
/// of its content array) on 2.1.332 (probe/FINDINGS.md §1); both are found here.
fn texts_of(content: &Value) -> Vec<String> {
    match content {
        Value::String(text) => vec![text.clone()],
        Value::Array(blocks) => blocks
            .iter()
            .flat_map(|block| match block["type"].as_str() {
                Some("text") => block["text"].as_str().map(str::to_owned).into_iter().collect(),
                Some("tool_result") => texts_of(&block["content"]),
                _ => Vec::new(),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Reads one request; `None` at end of stream, on a timeout or on garbage.
pub fn read_request(reader: &mut impl BufRead) -> Option<Request> {
    let mut line = String::new();
    // Tolerate stray blank lines between kept-alive requests.
    while line.trim().is_empty() {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let find = |name: &str| {
        headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let raw = if find("transfer-encoding").is_some_and(|value| value.to_ascii_lowercase().contains("chunked")) {
        read_chunked(reader)?
    } else {
        let length: usize = find("content-length").and_then(|value| value.parse().ok()).unwrap_or(0);
        let mut raw = vec![0; length];
        reader.read_exact(&mut raw).ok()?;
        raw
    };
    let body = serde_json::from_slice(&raw).unwrap_or(Value::Null);
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}

fn read_chunked(reader: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut raw = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size).ok()?;
        let size = usize::from_str_radix(size.trim().split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            // Trailers, then the blank line.
            loop {
                let mut trailer = String::new();
                if reader.read_line(&mut trailer).ok()? == 0 || trailer.trim().is_empty() {
                    return Some(raw);
                }
            }
        }
        let start = raw.len();
        raw.resize(start + size, 0);
        reader.read_exact(&mut raw[start..]).ok()?;
        let mut crlf = String::new();
        reader.read_line(&mut crlf).ok()?;
    }
}

/// Hook context is found where either client puts it: 2.1.332 inside the tool_result (the
/// captured request), 2.1.197 as a text block after it.
#[test]
fn hook_context_is_read_from_both_clients_shapes() {
    let captured = crate::common::fixture_path_of("2.1.332", "messages-subagent-posttooluse-context.json");
    let messages: Value = serde_json::from_slice(&std::fs::read(captured).unwrap()).unwrap();
    let request = |messages: Value| Request {
        method: "POST".into(),
        path: "/v1/messages".into(),
        headers: Vec::new(),
        body: serde_json::json!({ "messages": messages }),
    };
    let newer = request(messages).last_user_hook_context("PostToolUse:Bash");
    assert_eq!(newer.len(), 1, "{newer:?}");
    assert!(
        newer[0].contains("PROBE-CTX tool=toolu_probe_msg_probe_2_0"),
        "{newer:?}"
    );

    let older = request(serde_json::json!([{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "step1"},
        {"type": "text", "text": "<system-reminder>\nPostToolUse:Bash hook additional context: OLDER\n</system-reminder>"}]}]));
    assert_eq!(older.last_user_hook_context("PostToolUse:Bash").len(), 1);
    assert!(older.last_user_hook_context("SessionStart").is_empty());
}
