//! `baton mod`: what baton's mod asks. The mod (`mod/baton.tsx`) runs inside Claude Code
//! 2.1.287+ and hands baton the client's exact figures; baton decides what is said, with the
//! monitor's, the statusline's and the handoff's own code. One JSON object on stdin, `event`
//! naming what is asked; one JSON object on stdout (`{}` when there is nothing to say). Like
//! the hooks it always exits 0, with stderr empty.
//!
//! - `start` (the mod takes a session): writes the marker that quiets the hooks for it
//!   (`context::mod_marker`), unless `"mod": {"enabled": false}`; answers what to draw.
//! - `end`: removes the marker.
//! - `tool` (a tool call returned): the warning for the agent, judged on the context of the
//!   request that made the call, naming the largest items in the live context as the hook's
//!   does (from the session's transcript, a subagent's own beside it), and the figure below
//!   which none can be due.
//! - `spawn` (a subagent starts): its store inputs and the handoffs of the agents before it.
//! - `row`, `band`: a subagent's row and the band above the prompt.
//! - `window`: the pane's chart of the context after each request, with the largest items in
//!   the live context (`baton window`'s view, from the warnings' running walk).

mod chart;
mod draw;
mod figures;

use std::cell::OnceCell;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::accounting::transcripts::{self, SessionChoice};
use crate::config::Config;
use crate::context::mod_marker;
use crate::context::monitor::{Agent, Judge};
use crate::context::statusline::colors_enabled;
use crate::fsx;
use crate::hook::envelope::MAX_CONTEXT_UNITS;
use crate::hook::place::Place;
use crate::hook::stdin;
use crate::planning::Project;
use figures::Figures;

/// How long `baton mod` waits for its question (the mod writes it whole and closes stdin).
const STDIN_WAIT: Duration = Duration::from_secs(2);

/// Where the session is.
#[derive(Debug, Deserialize)]
struct Where {
    session_id: String,
    #[serde(default)]
    cwd: Option<String>,
    /// The main conversation's transcript, as the client names it (`$.session.info()`).
    #[serde(default)]
    transcript_path: Option<String>,
    /// The working directory with its project and configs, looked up once per question.
    #[serde(skip)]
    place: OnceCell<Place>,
}

impl Where {
    /// The session id when it is safe to name a file by.
    fn session(&self) -> Option<&str> {
        Some(self.session_id.as_str()).filter(|id| fsx::is_safe_session_id(id))
    }

    /// The directory the session is in ([`crate::hook::working_dir`] of its `cwd`).
    fn place(&self) -> &Place {
        self.place.get_or_init(|| Place::of(self.cwd.as_deref()))
    }

    fn project(&self) -> Option<&Project> {
        self.place().project()
    }

    fn config(&self) -> &Config {
        self.place().config()
    }

    /// The session's transcript: the one the client named, else the one its id names in the
    /// working directory's project (or any other); `None` when there is none.
    fn transcript(&self) -> Option<PathBuf> {
        if let Some(named) = self.transcript_path.as_deref().filter(|p| !p.is_empty()) {
            return Some(PathBuf::from(named));
        }
        let choice = SessionChoice::Id(self.session()?.to_owned());
        transcripts::locate(&choice, self.place().dir())
            .ok()
            .map(|files| files.main)
    }
}

/// What the mod asks, by `event`.
#[derive(Debug, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
enum Ask {
    Start(Where),
    End(Where),
    Tool {
        #[serde(flatten)]
        at: Where,
        #[serde(default)]
        agent_id: Option<String>,
        #[serde(flatten)]
        figures: Figures,
    },
    Spawn {
        #[serde(flatten)]
        at: Where,
        #[serde(default)]
        agent_type: String,
    },
    Row {
        #[serde(flatten)]
        at: Where,
        #[serde(default)]
        columns: Option<usize>,
        #[serde(default)]
        agent_type: String,
        #[serde(default)]
        description: String,
        #[serde(flatten)]
        figures: Figures,
    },
    Band {
        #[serde(flatten)]
        at: Where,
        #[serde(default)]
        columns: Option<usize>,
        #[serde(default)]
        agent_id: Option<String>,
        #[serde(flatten)]
        figures: Figures,
    },
    Window {
        #[serde(flatten)]
        at: Where,
        #[serde(default)]
        columns: Option<usize>,
        #[serde(default)]
        rows: Option<usize>,
        /// The window of the charted conversation's model, as the client reports it.
        #[serde(default)]
        window: Option<u64>,
        #[serde(default)]
        agent_id: Option<String>,
    },
}

/// Reads the question from stdin; returns the answer to print.
pub fn run() -> Option<String> {
    let bytes = stdin::read_payload(STDIN_WAIT)
        .map_err(|why| crate::log::note(&format!("mod: no question: {why:?}")))
        .ok()?;
    Some(respond(&bytes, crate::clock::unix_now()))
}

/// The answer (one JSON object) to a question's bytes; `{}` for one that cannot be read.
pub fn respond(question: &[u8], now: u64) -> String {
    let answer = match serde_json::from_slice::<Ask>(question) {
        Ok(ask) => answer(ask, now),
        Err(e) => {
            crate::log::note(&format!("mod: unreadable question: {e}"));
            json!({})
        }
    };
    answer.to_string()
}

/// The answer to one question.
fn answer(ask: Ask, now: u64) -> Value {
    let answered = match ask {
        Ask::Start(at) => start(&at),
        Ask::End(at) => end(&at),
        Ask::Tool { at, agent_id, figures } => tool(&at, agent_id.as_deref(), &figures, now),
        Ask::Spawn { at, agent_type } => spawn(&at, &agent_type),
        Ask::Row {
            at,
            columns,
            agent_type,
            description,
            figures,
        } => row(&at, columns, &agent_type, &description, &figures),
        Ask::Band {
            at,
            columns,
            agent_id,
            figures,
        } => band(&at, columns, agent_id.is_some(), &figures),
        Ask::Window {
            at,
            columns,
            rows,
            window: reported,
            agent_id,
        } => window(&at, columns, rows, reported, agent_id.as_deref()),
    };
    answered.unwrap_or_else(|| json!({}))
}

/// The mod takes the session: the marker names the client (this process's parent).
fn start(at: &Where) -> Option<Value> {
    let session = at.session()?;
    let settings = at.config().client_mod();
    let marked = match crate::platform::process::parent_pid() {
        Some(pid) if settings.enabled => mod_marker::write(session, pid).map_err(|e| e.to_string()),
        _ => Err("off in baton's config, or no client process to name".to_owned()),
    };
    if let Err(why) = marked {
        crate::log::note(&format!("mod: the hooks keep session {session}: {why}"));
        if let Err(e) = mod_marker::remove(session) {
            crate::log::note(&format!("mod: marker removal failed: {e}"));
        }
        return Some(json!({"enabled": false}));
    }
    Some(json!({"enabled": true, "rows": settings.rows, "band": settings.band}))
}

fn end(at: &Where) -> Option<Value> {
    if let Err(e) = mod_marker::remove(at.session()?) {
        crate::log::note(&format!("mod: marker removal failed: {e}"));
    }
    None
}

/// A tool call returned: the monitor's verdict on the request that made it.
fn tool(at: &Where, agent_id: Option<&str>, figures: &Figures, now: u64) -> Option<Value> {
    let session = at.session()?;
    let Some(judge) = Judge::for_call(session, agent_id, at.place(), now) else {
        // Warnings are off here: nothing this session's figures do can change that.
        return Some(json!({"quiet_below_tokens": u64::MAX}));
    };
    if !judge.config.client_mod().enabled {
        // Switched off mid-session: the hooks speak from the next call.
        if let Err(e) = mod_marker::remove(session) {
            crate::log::note(&format!("mod: marker removal failed: {e}"));
        }
        return None;
    }
    if let Some(pid) = crate::platform::process::parent_pid()
        && let Err(e) = mod_marker::keep(session, pid, now)
    {
        crate::log::note(&format!("mod: marker refresh failed: {e}"));
    }
    let usage = figures.usage(judge.config)?;
    // The mod's figures are the client's own at the call: no call waits on a reply line, and
    // one the hook left undecided is taken at this call's level.
    let context = judge.verdict(
        &usage,
        |ids, level| vec![Some(level); ids.len()],
        |config| figures.forecast(&usage, config),
        || judge.largest_in(at.transcript().as_deref()),
    );
    Some(json!({"context": context, "quiet_below_tokens": judge.warns_from(usage.window)}))
}

/// A subagent starts: what the SubagentStart hook would have given it.
fn spawn(at: &Where, agent_type: &str) -> Option<Value> {
    let project = at.project()?;
    let inputs = Some(agent_type)
        .filter(|t| !t.is_empty())
        .and_then(|t| crate::store::hook::starting_agent_context(project, t, MAX_CONTEXT_UNITS));
    // A run not recorded yet has no id: none of the finished runs is this one.
    let context = crate::dispatch::subagent_start_text(inputs, |budget| {
        crate::bridge::deliver::subagent_start_context(project, at.session(), "", budget)
    })?;
    Some(json!({ "context": context }))
}

/// The percentage the statusline would show for `figures`, and the forecast beside it.
fn shown(config: &Config, figures: &Figures) -> Option<(u8, Option<crate::context::forecast::Forecast>)> {
    let usage = figures.usage(config)?;
    let settings = config.statusline();
    let percent = usage.display_percent(settings.percent, &figures.limit(&usage, config));
    let forecast = settings.forecast.then(|| figures.forecast(&usage, config)).flatten();
    Some((percent, forecast))
}

fn row(at: &Where, columns: Option<usize>, agent_type: &str, description: &str, figures: &Figures) -> Option<Value> {
    let config = at.config();
    if !config.client_mod().rows {
        return None;
    }
    let (percent, forecast) = shown(config, figures)?;
    let body = draw::row(
        agent_type,
        description,
        percent,
        forecast.as_ref(),
        columns,
        colors_enabled(),
    );
    Some(json!({ "body": body }))
}

fn band(at: &Where, columns: Option<usize>, of_subagent: bool, figures: &Figures) -> Option<Value> {
    let config = at.config();
    if !config.client_mod().band {
        return None;
    }
    let (percent, forecast) = shown(config, figures)?;
    let label = if of_subagent { "subagent context" } else { "context" };
    let spans = draw::band(
        label,
        percent,
        forecast.as_ref(),
        columns.unwrap_or(80),
        colors_enabled(),
    );
    Some(json!({ "spans": spans }))
}

/// The pane's chart of the main conversation (or of subagent `agent_id`, in view there), as
/// lines of styled runs; `{}` when there is no transcript to chart yet.
fn window(
    at: &Where,
    columns: Option<usize>,
    rows: Option<usize>,
    reported: Option<u64>,
    agent_id: Option<&str>,
) -> Option<Value> {
    let session = at.session()?;
    let agent = Agent::of(agent_id)?;
    let key = agent.key(session)?;
    let transcript = agent.transcript(&at.transcript()?)?;
    let conversation = chart::Conversation {
        session,
        key: &key,
        transcript: &transcript,
        subagent: matches!(agent, Agent::Subagent(_)),
    };
    let room = chart::Room {
        columns: columns.unwrap_or(80),
        rows,
        color: colors_enabled(),
    };
    let lines = chart::lines(&conversation, reported, at.config(), &room)?;
    Some(json!({ "lines": lines }))
}
