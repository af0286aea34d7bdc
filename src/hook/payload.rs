//! What Claude Code sends on stdin, as types that survive payload changes: every field is
//! optional, and a `null` or wrongly typed value reads as absent instead of failing the whole.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::api_usage::{ApiUsage, readable_usage};
use crate::json::lenient::{lenient, lenient_flag, lenient_number, lenient_object, lenient_text};

/// Fields shared by every hook event, plus the event-specific ones baton uses.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct HookPayload {
    #[serde(deserialize_with = "lenient")]
    pub session_id: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub transcript_path: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub cwd: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub hook_event_name: Option<String>,
    /// SessionStart: `startup|resume|clear|compact`.
    #[serde(deserialize_with = "lenient")]
    pub source: Option<String>,
    /// PreCompact: `manual|auto`.
    #[serde(deserialize_with = "lenient")]
    pub trigger: Option<String>,
    /// PostToolUse: the tool that ran.
    #[serde(deserialize_with = "lenient")]
    pub tool_name: Option<String>,
    /// PostToolUse: the id of the tool call, as in the transcript's `tool_use` block.
    #[serde(deserialize_with = "lenient")]
    pub tool_use_id: Option<String>,
    /// SubagentStart/SubagentStop (and any hook inside a subagent): the run's id.
    #[serde(deserialize_with = "lenient")]
    pub agent_id: Option<String>,
    /// SubagentStart/SubagentStop: the subagent's type (`general-purpose`, `gsd-executor`…).
    #[serde(deserialize_with = "lenient")]
    pub agent_type: Option<String>,
    /// SubagentStop: the subagent's own transcript.
    #[serde(deserialize_with = "lenient")]
    pub agent_transcript_path: Option<String>,
    /// SubagentStop/Stop: the agent's final message.
    #[serde(deserialize_with = "lenient")]
    pub last_assistant_message: Option<String>,
    /// SubagentStop/Stop: true when the agent is continuing because a stop hook said so.
    #[serde(deserialize_with = "lenient")]
    pub stop_hook_active: Option<bool>,
    /// SubagentStop (2.1.332): the ids in `background_tasks`, the session's tasks still
    /// running; a background agent lists itself there.
    #[serde(rename = "background_tasks", deserialize_with = "task_ids")]
    pub background_task_ids: Vec<String>,
    /// PostToolUse of the `Agent` tool: `tool_response.agentId`, the run it started.
    #[serde(rename = "tool_response", deserialize_with = "agent_id_of_response")]
    pub tool_response_agent_id: Option<String>,
    /// PostToolUse: `tool_input.file_path` (Write, Edit, MultiEdit) or `tool_input.notebook_path`
    /// (NotebookEdit), the file the call wrote.
    #[serde(rename = "tool_input", deserialize_with = "edited_path_of_input")]
    pub tool_input_path: Option<String>,
    /// The payload was larger than baton reads: only its first members are here (not in the
    /// JSON; set by the reader).
    #[serde(skip)]
    pub cut_short: bool,
}

/// The `id` of each task in `background_tasks`; anything else reads as none.
fn task_ids<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    struct Task {
        #[serde(default, deserialize_with = "lenient")]
        id: Option<String>,
    }
    let tasks: Option<Vec<Value>> = lenient(d)?;
    Ok(tasks
        .unwrap_or_default()
        .into_iter()
        .filter_map(|t| serde_json::from_value::<Task>(t).ok()?.id)
        .collect())
}

/// Reads `agentId` out of a `tool_response` of any shape (a Read or Grep response can be
/// megabytes, and is skipped without being built).
pub fn agent_id_of_response<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_any(FirstString { keys: &["agentId"] })
}

/// Reads `file_path` (else `notebook_path`) out of a `tool_input` of any shape (a Write's
/// `content` can be megabytes, and is skipped without being built).
pub fn edited_path_of_input<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_any(FirstString {
        keys: &["file_path", "notebook_path"],
    })
}

/// Takes the string under the first of `keys` (in their order of preference) from a map of
/// any size, skipping every other value without building it; any other shape reads as `None`.
struct FirstString {
    keys: &'static [&'static str],
}

impl<'de> serde::de::Visitor<'de> for FirstString {
    type Value = Option<String>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any value")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        use serde::de::IgnoredAny;
        let mut found: Option<(usize, String)> = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match self.keys.iter().position(|k| *k == key) {
                Some(rank) if found.as_ref().is_none_or(|(r, _)| rank < *r) => {
                    if let Some(text) = map.next_value::<Value>()?.as_str() {
                        found = Some((rank, text.to_owned()));
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(found.map(|(_, text)| text))
    }
    crate::json::lenient::other_shapes_are_none!();
}

/// The statusline's stdin (PROTOCOL.md §1).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct StatuslinePayload {
    #[serde(deserialize_with = "lenient_text")]
    pub session_id: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub transcript_path: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub cwd: Option<String>,
    #[serde(deserialize_with = "lenient_object")]
    pub model: Option<Model>,
    #[serde(deserialize_with = "lenient_object")]
    pub workspace: Option<Workspace>,
    #[serde(deserialize_with = "lenient_object")]
    pub context_window: Option<ContextWindow>,
    #[serde(deserialize_with = "lenient_object")]
    pub cost: Option<Cost>,
    /// Subscription usage limits (sent to subscription logins only).
    #[serde(deserialize_with = "lenient_object")]
    pub rate_limits: Option<RateLimits>,
    /// Prompt-cache health (2.1.3xx, after the first reply).
    #[serde(deserialize_with = "lenient_object")]
    pub prompt_cache: Option<PromptCache>,
}

/// `cost`: the session's totals so far.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Cost {
    #[serde(deserialize_with = "lenient_number")]
    pub total_cost_usd: Option<f64>,
    #[serde(deserialize_with = "lenient_number")]
    pub total_duration_ms: Option<f64>,
}

/// `rate_limits`: the subscription's windows.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RateLimits {
    #[serde(deserialize_with = "lenient_object")]
    pub five_hour: Option<RateLimit>,
    #[serde(deserialize_with = "lenient_object")]
    pub seven_day: Option<RateLimit>,
}

/// One usage-limit window.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RateLimit {
    /// 0–100.
    #[serde(deserialize_with = "lenient_number")]
    pub used_percentage: Option<f64>,
    /// Unix seconds when the window resets.
    #[serde(deserialize_with = "lenient_number")]
    pub resets_at: Option<f64>,
}

/// `prompt_cache`: whether the cached prefix is still warm.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PromptCache {
    /// The cached prefix is inside its TTL.
    #[serde(deserialize_with = "lenient_flag")]
    pub warm: Option<bool>,
    /// Any response reported cache tokens (false: caching off, or not reported).
    #[serde(deserialize_with = "lenient_flag")]
    pub caching_observed: Option<bool>,
    /// Unix seconds when the prefix goes cold.
    #[serde(deserialize_with = "lenient_number")]
    pub expires_at: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Model {
    #[serde(deserialize_with = "lenient_text")]
    pub id: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub display_name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Workspace {
    #[serde(deserialize_with = "lenient_text")]
    pub current_dir: Option<String>,
    #[serde(deserialize_with = "lenient_text")]
    pub project_dir: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ContextWindow {
    #[serde(deserialize_with = "lenient_number")]
    pub context_window_size: Option<f64>,
    /// `None` as well when a count of the figure is unreadable ([`readable_usage`]).
    #[serde(deserialize_with = "readable_usage")]
    pub current_usage: Option<ApiUsage>,
    #[serde(deserialize_with = "lenient_number")]
    pub used_percentage: Option<f64>,
    #[serde(deserialize_with = "lenient_number")]
    pub remaining_percentage: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_and_wrong_types_read_as_absent() {
        let p: StatuslinePayload = serde_json::from_str(
            r#"{"session_id":7,"model":{"display_name":null,"id":"m"},"context_window":
               {"current_usage":null,"used_percentage":"x","context_window_size":200000.0},
               "workspace":"x","extra":{"deep":[1,2]}}"#,
        )
        .unwrap();
        assert_eq!(p.session_id, None);
        assert_eq!(p.model.as_ref().unwrap().id.as_deref(), Some("m"));
        assert_eq!(p.model.unwrap().display_name, None);
        let cw = p.context_window.unwrap();
        assert!(cw.current_usage.is_none() && cw.used_percentage.is_none());
        assert_eq!(cw.context_window_size, Some(200000.0));
        assert!(p.workspace.is_none());
    }

    #[test]
    fn reads_cost_limits_and_cache_and_drops_what_is_hostile() {
        let p: StatuslinePayload = serde_json::from_str(
            r#"{"cost":{"total_cost_usd":0.45,"total_duration_ms":"long"},
               "rate_limits":{"five_hour":{"used_percentage":42,"resets_at":1796061440},"seven_day":[]},
               "prompt_cache":{"warm":"yes","caching_observed":true,"expires_at":-5}}"#,
        )
        .unwrap();
        let cost = p.cost.unwrap();
        assert_eq!((cost.total_cost_usd, cost.total_duration_ms), (Some(0.45), None));
        let limits = p.rate_limits.unwrap();
        assert_eq!(limits.five_hour.unwrap().resets_at, Some(1_796_061_440.0));
        assert!(
            limits
                .seven_day
                .is_none_or(|w| w.used_percentage.is_none() && w.resets_at.is_none())
        );
        let cache = p.prompt_cache.unwrap();
        assert_eq!(
            (cache.warm, cache.caching_observed, cache.expires_at),
            (None, Some(true), None)
        );
    }

    #[test]
    fn reads_the_agent_id_of_an_agent_tool_response_of_any_shape() {
        let read = |response: &str| {
            let p: HookPayload = serde_json::from_str(&format!(
                r#"{{"hook_event_name":"PostToolUse","tool_response":{response},"stop_hook_active":true}}"#
            ))
            .unwrap();
            assert_eq!(p.stop_hook_active, Some(true));
            p.tool_response_agent_id
        };
        assert_eq!(
            read(r#"{"status":"completed","content":[{"text":"x"}],"agentId":"a14a3a952b22d4f20"}"#).as_deref(),
            Some("a14a3a952b22d4f20")
        );
        for other in [r#""text""#, "[1,{\"agentId\":\"x\"}]", "null", "7", r#"{"agentId":5}"#] {
            assert_eq!(read(other), None, "{other}");
        }
    }

    #[test]
    fn reads_the_path_an_edit_tool_wrote_from_its_input_of_any_shape() {
        let read = |input: &str| {
            let p: HookPayload = serde_json::from_str(&format!(
                r#"{{"hook_event_name":"PostToolUse","tool_input":{input},"agent_id":"a1"}}"#
            ))
            .unwrap();
            assert_eq!(p.agent_id.as_deref(), Some("a1"));
            p.tool_input_path
        };
        assert_eq!(
            read(r#"{"file_path":"/p/src/a.rs","content":"fn a() {}"}"#).as_deref(),
            Some("/p/src/a.rs")
        );
        assert_eq!(
            read(r#"{"notebook_path":"/p/n.ipynb","new_source":"x"}"#).as_deref(),
            Some("/p/n.ipynb")
        );
        for other in [
            r#"{"command":"echo hi"}"#,
            r#""text""#,
            "[1]",
            "null",
            r#"{"file_path":5}"#,
        ] {
            assert_eq!(read(other), None, "{other}");
        }
    }

    #[test]
    fn reads_the_ids_of_background_tasks_and_ignores_other_shapes() {
        let read = |tasks: &str| {
            let p: HookPayload = serde_json::from_str(&format!(r#"{{"background_tasks":{tasks}}}"#)).unwrap();
            p.background_task_ids
        };
        assert_eq!(
            read(r#"[{"id":"aad7","type":"subagent","status":"running"},{"id":5},"x",{"type":"shell"}]"#),
            ["aad7"]
        );
        for other in ["null", "{}", "7", r#""text""#] {
            assert!(read(other).is_empty(), "{other}");
        }
    }
}
