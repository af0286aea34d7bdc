//! API responses written as transcript lines the way the real client writes them.

use serde_json::json;

/// One API response written as a transcript line the way the real client writes it
/// (`tests/fixtures/claude-code-2.1.197/transcript-headless-3-tools.jsonl`), for the
/// report tests. `split: false` leaves out `usage.cache_creation` (older clients).
#[derive(Debug, Clone)]
pub struct Reply {
    pub model: String,
    pub message_id: Option<String>,
    pub request_id: Option<String>,
    pub input: u64,
    pub output: u64,
    pub cache_write_5m: u64,
    pub cache_write_1h: u64,
    pub cache_read: u64,
    pub sidechain: bool,
    pub split: bool,
    pub timestamp: String,
}

impl Reply {
    /// Response number `n` of `model`, with its own message and request ids.
    pub fn new(model: &str, n: usize) -> Self {
        Self {
            model: model.to_owned(),
            message_id: Some(format!("msg_{n:06}")),
            request_id: Some(format!("req_{n:06}")),
            input: 0,
            output: 0,
            cache_write_5m: 0,
            cache_write_1h: 0,
            cache_read: 0,
            sidechain: false,
            split: true,
            timestamp: "2026-11-30T00:10:41.140Z".to_owned(),
        }
    }

    /// The transcript line.
    pub fn line(&self) -> String {
        let mut usage = json!({"input_tokens": self.input, "output_tokens": self.output,
            "cache_creation_input_tokens": self.cache_write_5m + self.cache_write_1h,
            "cache_read_input_tokens": self.cache_read,
            "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
            "service_tier": "standard", "inference_geo": "", "iterations": [], "speed": "standard"});
        if self.split {
            usage["cache_creation"] = json!({"ephemeral_1h_input_tokens": self.cache_write_1h,
                                             "ephemeral_5m_input_tokens": self.cache_write_5m});
        }
        let mut line = json!({"parentUuid": "p", "isSidechain": self.sidechain, "message": {
            "id": self.message_id, "type": "message", "role": "assistant", "model": self.model,
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                         "input": {"command": "echo \"usage\"", "description": "a \"usage\": {} line"}}],
            "stop_reason": "tool_use", "stop_sequence": null, "usage": usage},
            "type": "assistant", "uuid": "u", "timestamp": self.timestamp, "userType": "external",
            "cwd": "/home/user/proj", "sessionId": "s", "version": "2.1.197"});
        if let Some(id) = &self.request_id {
            line["requestId"] = json!(id);
        }
        if self.message_id.is_none() {
            line["message"].as_object_mut().unwrap().remove("id");
        }
        line.to_string()
    }
}
