//! A Messages API mock on loopback: records every request the real client sends and answers
//! `POST /v1/messages` with scripted Server-Sent Events, so a test controls what the "model"
//! says and what usage it reports, and can read back exactly what the model was told.

use std::io::{BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

use super::request::{Request, read_request};

/// How long a kept-alive connection may sit idle before the mock drops it.
const IDLE: Duration = Duration::from_secs(300);

/// One content block of a scripted reply.
#[derive(Clone, Debug)]
pub enum Block {
    Text(String),
    ToolUse { name: String, input: Value },
}

/// A scripted assistant reply and the usage it reports (the context level the client sees).
#[derive(Clone, Debug)]
pub struct Reply {
    pub input_tokens: u64,
    pub blocks: Vec<Block>,
}

impl Reply {
    /// A final text answer (`end_turn`).
    pub fn text(input_tokens: u64, text: &str) -> Reply {
        Reply {
            input_tokens,
            blocks: vec![Block::Text(text.to_owned())],
        }
    }

    /// One Bash tool call (`tool_use`).
    pub fn bash(input_tokens: u64, command: &str) -> Reply {
        let input = json!({"command": command, "description": "echo"});
        Reply {
            input_tokens,
            blocks: vec![Block::ToolUse {
                name: "Bash".into(),
                input,
            }],
        }
    }

    fn stop_reason(&self) -> &'static str {
        let calls_tool = self.blocks.iter().any(|block| matches!(block, Block::ToolUse { .. }));
        if calls_tool { "tool_use" } else { "end_turn" }
    }
}

type Script = dyn Fn(&Request) -> Reply + Send + Sync;

/// What a mock adds to every answer beyond its script.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// Response headers (the API's `anthropic-ratelimit-unified-*`, say).
    pub headers: Vec<(String, String)>,
    /// Usage reports most of the input as read from the prompt cache (9/10 of it, the rest
    /// written to it) rather than as plain input, as a cached conversation does.
    pub cached: bool,
}

/// A running mock; it stops listening when dropped.
pub struct Mock {
    port: u16,
    log: Arc<Mutex<Vec<Request>>>,
    stopping: Arc<AtomicBool>,
}

impl Mock {
    /// Serves on 127.0.0.1 (a free port); `script` picks the reply to each agent turn.
    pub fn start(script: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Mock {
        Mock::start_with(Extras::default(), script)
    }

    /// As [`Mock::start`], with `extras` in every answer.
    pub fn start_with(extras: Extras, script: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Mock {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the mock on 127.0.0.1");
        let port = listener.local_addr().expect("mock address").port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let stopping = Arc::new(AtomicBool::new(false));
        let script: Arc<Script> = Arc::new(script);
        let server = Server {
            log: log.clone(),
            script,
            ids: Arc::new(AtomicU64::new(1)),
            extras: Arc::new(extras),
        };
        let stop = stopping.clone();
        thread::spawn(move || {
            for stream in listener.incoming() {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let server = server.clone();
                thread::spawn(move || server.serve(stream));
            }
        });
        Mock { port, log, stopping }
    }

    /// The main agent runs `commands` with Bash one per turn, then answers "done"; every reply
    /// reports `input_tokens`.
    pub fn bash_calls(input_tokens: u64, commands: &[&str]) -> Mock {
        let commands: Vec<String> = commands.iter().map(|command| command.to_string()).collect();
        Mock::start(move |request| match commands.get(request.assistant_turns()) {
            Some(command) => Reply::bash(input_tokens, command),
            None => Reply::text(input_tokens, "done"),
        })
    }

    /// `http://127.0.0.1:PORT`, for `ANTHROPIC_BASE_URL`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        self.log.lock().expect("mock log").clone()
    }

    /// The agent turns of the conversation started by `prompt`, in arrival order.
    pub fn turns_of(&self, prompt: &str) -> Vec<Request> {
        let requests = self.requests().into_iter();
        requests
            .filter(|request| request.is_turn() && request.prompt() == prompt)
            .collect()
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

#[derive(Clone)]
struct Server {
    log: Arc<Mutex<Vec<Request>>>,
    script: Arc<Script>,
    ids: Arc<AtomicU64>,
    extras: Arc<Extras>,
}

impl Server {
    /// Answers requests on one kept-alive connection until the client closes it.
    fn serve(&self, stream: TcpStream) {
        let _ = stream.set_read_timeout(Some(IDLE));
        let Ok(read_half) = stream.try_clone() else {
            return;
        };
        let mut reader = BufReader::new(read_half);
        let mut writer = stream;
        while let Some(request) = read_request(&mut reader) {
            let (status, content_type, body) = self.respond(&request);
            let head_only = request.method == "HEAD";
            let closing = request
                .header("connection")
                .is_some_and(|value| value.eq_ignore_ascii_case("close"));
            self.log.lock().expect("mock log").push(request);
            let extra: String = self
                .extras
                .headers
                .iter()
                .map(|(name, value)| format!("{name}: {value}\r\n"))
                .collect();
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
                 request-id: req_e2e\r\n{extra}Connection: keep-alive\r\n\r\n",
                body.len()
            );
            let mut wire = head.into_bytes();
            if !head_only {
                wire.extend_from_slice(body.as_bytes());
            }
            if writer.write_all(&wire).and_then(|()| writer.flush()).is_err() || closing {
                break;
            }
        }
        let _ = writer.shutdown(Shutdown::Both);
    }

    fn respond(&self, request: &Request) -> (&'static str, &'static str, String) {
        match (request.method.as_str(), request.route()) {
            ("HEAD", "/") => ("200 OK", "text/plain", String::new()),
            ("POST", "/v1/messages/count_tokens") => {
                ("200 OK", "application/json", json!({"input_tokens": 1000}).to_string())
            }
            ("POST", "/v1/messages") => {
                let reply = if request.is_turn() {
                    (self.script)(request)
                } else {
                    Reply::text(100, "ok")
                };
                let model = request.body["model"].as_str().unwrap_or("claude-sonnet-4-5");
                ("200 OK", "text/event-stream", self.events(&reply, model))
            }
            _ => {
                let error = json!({"type": "error", "error": {"type": "not_found_error", "message": "not mocked"}});
                ("404 Not Found", "application/json", error.to_string())
            }
        }
    }

    /// The reply as the SSE stream the Messages API sends.
    fn events(&self, reply: &Reply, model: &str) -> String {
        let id = self.ids.fetch_add(1, Ordering::SeqCst);
        let tokens = reply.input_tokens;
        let (input, written, read) = if self.extras.cached {
            let read = tokens * 9 / 10;
            (tokens.min(3), tokens - tokens.min(3) - read, read)
        } else {
            (tokens, 0, 0)
        };
        let usage = json!({"input_tokens": input, "cache_creation_input_tokens": written,
                           "cache_read_input_tokens": read, "output_tokens": 1});
        let mut events = vec![json!({"type": "message_start", "message": {
            "id": format!("msg_e2e_{id}"), "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": null, "stop_sequence": null, "usage": usage}})];
        for (index, block) in reply.blocks.iter().enumerate() {
            let (start, delta) = match block {
                Block::Text(text) => (
                    json!({"type": "text", "text": ""}),
                    json!({"type": "text_delta", "text": text}),
                ),
                Block::ToolUse { name, input } => (
                    json!({"type": "tool_use", "id": format!("toolu_e2e_{id}_{index}"), "name": name, "input": {}}),
                    json!({"type": "input_json_delta", "partial_json": input.to_string()}),
                ),
            };
            events.push(json!({"type": "content_block_start", "index": index, "content_block": start}));
            events.push(json!({"type": "content_block_delta", "index": index, "delta": delta}));
            events.push(json!({"type": "content_block_stop", "index": index}));
        }
        events.push(json!({"type": "message_delta",
            "delta": {"stop_reason": reply.stop_reason(), "stop_sequence": null},
            "usage": {"output_tokens": 20}}));
        events.push(json!({"type": "message_stop"}));
        let sse = events
            .iter()
            .map(|event| format!("event: {}\ndata: {event}\n\n", event["type"].as_str().unwrap_or("")));
        sse.collect()
    }
}

/// The mock itself, without the client: two requests on one kept-alive connection, the
/// second with a chunked body, are both recorded and answered.
#[test]
fn mock_answers_kept_alive_and_chunked_requests() {
    use std::io::Read;

    let mock = Mock::start(|request| Reply::bash(42, &format!("echo {}", request.assistant_turns())));
    let mut stream = TcpStream::connect(("127.0.0.1", mock.port)).expect("connect to the mock");
    let body = r#"{"model":"m","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"hi"}]}"#;
    let plain = format!(
        "POST /v1/messages?beta=true HTTP/1.1\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (head, tail) = body.split_at(10);
    let chunked = format!(
        "POST /v1/messages/count_tokens HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\
         {:x}\r\n{head}\r\n{:x}\r\n{tail}\r\n0\r\n\r\n",
        head.len(),
        tail.len()
    );
    stream.write_all(format!("{plain}{chunked}").as_bytes()).expect("send");
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let mut seen = String::new();
    let mut buffer = [0; 4096];
    while !seen.contains(r#"{"input_tokens":1000}"#) {
        let read = stream.read(&mut buffer).expect("read the replies");
        assert!(read > 0, "the mock closed the connection early; got {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
    }
    assert!(seen.contains(r#""input_tokens":42"#), "SSE usage missing: {seen}");
    assert!(
        seen.contains(r#""partial_json":"{\"command\":\"echo 0\""#),
        "tool input missing: {seen}"
    );
    assert!(
        seen.contains(r#""stop_reason":"tool_use""#),
        "stop reason missing: {seen}"
    );
    let requests = mock.requests();
    let paths: Vec<&str> = requests.iter().map(|request| request.path.as_str()).collect();
    assert_eq!(paths, ["/v1/messages?beta=true", "/v1/messages/count_tokens"]);
    assert_eq!(requests[1].body, requests[0].body, "the chunked body was reassembled");
    assert_eq!(requests[0].prompt(), "hi");
}
