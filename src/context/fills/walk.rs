//! The walk over a transcript's lines that attributes each request's growth: what entered
//! between two requests of the conversation (tool results, prompts, attachments, the
//! assistant's own output) is held as pending items with their size in bytes; the next
//! request's context, exactly as its usage gives it, closes them and its delta is split over
//! them by size.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::line::{Block, Line};
use super::names;
use super::{Compaction, Item, Kind, Request};
use crate::accounting::totals::response_key;
use crate::words::width::one_line;

mod stored;

/// Attachment kinds that are the client's own records, never sent to the model (older
/// clients do not say which attachments were rendered).
const CLIENT_ONLY_ATTACHMENTS: &[&str] = &["prompt_snapshot", "hook_success", "hook_cancelled"];

/// The largest context a response's usage is believed for: far above any window. A larger
/// count (a hostile or corrupt line) is no request: taken, it would be an absurd item, and
/// deltas near `u64::MAX` would leave the range of `i64`.
const MAX_CONTEXT: u64 = 1 << 32;

/// Requests a walk [`Walk::keeping_recent`] keeps (the newest), each with its largest item
/// only: what the mod's chart draws from its running walk.
const RECENT_REQUESTS: usize = 100;

/// Live items a walk that does not keep every request keeps, the largest: the monitor names
/// three and the chart a few, and the walk saved for them is read on every warning. It is
/// cut back to these when it holds twice as many; a name pushed out that enters again counts
/// from then on.
const LIVE_KEPT: usize = 64;

/// Which lines make up the conversation measured.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Thread {
    /// Not known until the first message line.
    Unknown,
    /// The main conversation: side-chain lines (an older client's subagents) are not its.
    Main,
    /// A subagent's own transcript, every line a side-chain one.
    Subagent,
}

/// Something that entered the context and waits for the next request.
struct Pending {
    kind: Kind,
    tool: Option<String>,
    target: Option<String>,
    bytes: usize,
}

impl Pending {
    /// The item it becomes, with no tokens yet.
    fn into_item(self) -> Item {
        Item {
            tool: self.tool,
            target: self.target,
            bytes: self.bytes,
            ..Item::whole(self.kind, 0)
        }
    }
}

/// Which requests a walk keeps in [`Walk::requests`].
#[derive(Clone, Copy, Default)]
enum Keeps {
    Every,
    Recent,
    #[default]
    None,
}

/// The state of the walk; [`Walk::line`] takes one line at a time, in order. It can be saved
/// and taken up again where it stopped (the monitor's running attribution).
pub struct Walk {
    thread: Thread,
    cwd: Option<String>,
    /// Tool uses not yet answered: their id → `(tool, target)`.
    uses: HashMap<String, (String, Option<String>)>,
    pending: Vec<Pending>,
    /// The message id and request id of the last request.
    last_key: Option<(Option<String>, Option<String>)>,
    /// Every response counted since the last compaction ([`response_key`]): a line repeating
    /// one that came before (a resumed session copying old lines) is not a new request, as in
    /// `baton report`.
    seen: HashSet<u64>,
    previous: Option<u64>,
    /// Set by a compaction: the next request grows from the baseline.
    compacted: bool,
    /// Whether this client writes `rendered` for the attachments it sends.
    renders_attachments: bool,
    /// Every request ([`Walk::keeping_requests`]), the newest [`RECENT_REQUESTS`] each with
    /// its largest item ([`Walk::keeping_recent`]), or none (the monitor's walk, saved and
    /// read again on every warning, stays small).
    pub requests: Vec<Request>,
    keeps: Keeps,
    /// Requests seen, kept or not.
    pub request_count: usize,
    pub compactions: Vec<Compaction>,
    /// What the live context holds since the last compaction, one item per name.
    pub live: Vec<Item>,
    pub by_kind: BTreeMap<Kind, i64>,
    pub baseline: Option<u64>,
    pub model: Option<String>,
    /// The newest figure: the last request's context, or a newer compaction's.
    pub latest: Option<u64>,
    pub unreadable_lines: u64,
}

impl Walk {
    /// A walk that keeps every request (`baton window`).
    pub fn keeping_requests() -> Self {
        Self {
            keeps: Keeps::Every,
            ..Self::new()
        }
    }

    /// This walk, keeping the newest requests from now on (the mod's chart).
    pub fn keeping_recent(self) -> Self {
        Self {
            keeps: Keeps::Recent,
            ..self
        }
    }

    /// A walk that keeps only the live context, of a conversation known to be a main one or a
    /// subagent's: a walk that starts inside a transcript cannot tell by its first line (an
    /// older client's main transcript holds its subagents' side-chain lines too).
    pub fn of_thread(subagent: bool) -> Self {
        Self {
            thread: if subagent { Thread::Subagent } else { Thread::Main },
            ..Self::new()
        }
    }

    /// A walk that keeps only the live context.
    pub fn new() -> Self {
        Self {
            thread: Thread::Unknown,
            cwd: None,
            uses: HashMap::new(),
            pending: Vec::new(),
            last_key: None,
            seen: HashSet::new(),
            previous: None,
            compacted: false,
            renders_attachments: false,
            requests: Vec::new(),
            keeps: Keeps::None,
            request_count: 0,
            compactions: Vec::new(),
            live: Vec::new(),
            by_kind: BTreeMap::new(),
            baseline: None,
            model: None,
            latest: None,
            unreadable_lines: 0,
        }
    }

    pub fn line(&mut self, bytes: &[u8]) {
        let Some(line) = Line::parse(bytes) else {
            self.unreadable_lines += 1;
            return;
        };
        if line.is("system") {
            if line.subtype.as_deref() == Some("compact_boundary") {
                self.compaction(&line);
            }
            return;
        }
        if !matches!(line.kind.as_deref(), Some("user" | "assistant" | "attachment")) || !self.in_thread(&line) {
            return;
        }
        if let Some(cwd) = &line.cwd {
            self.cwd = Some(cwd.clone());
        }
        match line.kind.as_deref() {
            Some("assistant") => self.assistant(&line),
            Some("user") => self.user(&line),
            _ => self.attachment(&line),
        }
    }

    /// Whether `line` belongs to the conversation measured (the first message line decides
    /// whether that is a main one or a subagent's).
    fn in_thread(&mut self, line: &Line) -> bool {
        let sidechain = line.sidechain == Some(true);
        if self.thread == Thread::Unknown && line.kind.as_deref() != Some("attachment") {
            self.thread = if sidechain { Thread::Subagent } else { Thread::Main };
        }
        match self.thread {
            Thread::Main => !sidechain,
            _ => true,
        }
    }

    fn assistant(&mut self, line: &Line) {
        let Some(message) = line.message() else { return };
        let synthetic = message.model.as_deref() == Some("<synthetic>");
        if line.api_error == Some(true) || synthetic {
            return;
        }
        let key = (message.id.clone(), line.request_id.clone());
        let same_response = key.0.is_some() && self.last_key.as_ref() == Some(&key);
        let hash = response_key(key.0.as_deref(), key.1.as_deref());
        if !same_response && hash.is_some_and(|hash| self.seen.contains(&hash)) {
            // A copy of a response already counted: its usage and its blocks are in already.
            return;
        }
        if !same_response
            && let Some(context) = message
                .usage
                .as_ref()
                .and_then(|u| u.context_tokens())
                .filter(|c| *c <= MAX_CONTEXT)
        {
            self.request(context, line.timestamp.clone());
            self.seen.extend(hash);
            self.last_key = Some(key);
            self.model = message.model.clone().or(self.model.take());
        }
        for block in message.blocks() {
            self.assistant_block(block);
        }
    }

    fn assistant_block(&mut self, block: Block) {
        let (kind, tool, target) = match block.kind.as_deref() {
            Some("thinking" | "redacted_thinking") => (Kind::Thinking, None, None),
            Some("tool_use") => {
                let (tool, target) = names::tool_use(
                    block.name.as_deref().unwrap_or("tool"),
                    block.input,
                    self.cwd.as_deref(),
                );
                if let Some(id) = block.id {
                    self.uses.insert(id, (tool.clone(), target.clone()));
                }
                (Kind::Assistant, Some(tool), target)
            }
            _ => (Kind::Assistant, None, None),
        };
        self.push(kind, tool, target, block.bytes);
    }

    fn user(&mut self, line: &Line) {
        let Some(message) = line.message() else { return };
        for block in message.blocks() {
            if line.compact_summary == Some(true) {
                self.push(Kind::Summary, None, None, block.bytes);
                continue;
            }
            match block.kind.as_deref() {
                Some("tool_result") => {
                    let named = block.tool_use_id.as_ref().and_then(|id| self.uses.remove(id));
                    let (tool, target) = named.map_or((None, None), |(tool, target)| (Some(tool), target));
                    self.push(Kind::Tool, tool, target, block.bytes);
                }
                Some("text") if line.meta != Some(true) => {
                    let target = block.text.as_deref().and_then(names::prompt);
                    self.push(Kind::Prompt, None, target, block.bytes);
                }
                Some("text") => self.push(Kind::Reminder, None, None, block.bytes),
                other => self.push(Kind::Attachment, other.map(str::to_owned), None, block.bytes),
            }
        }
    }

    fn attachment(&mut self, line: &Line) {
        let Some(attachment) = line.attachment() else { return };
        let kind = attachment.kind.unwrap_or_else(|| "attachment".into());
        let bytes = match (line.rendered, line.attachment) {
            (Some(rendered), _) => {
                self.renders_attachments = true;
                rendered.get().len()
            }
            _ if self.renders_attachments || CLIENT_ONLY_ATTACHMENTS.contains(&kind.as_str()) => 0,
            (None, Some(raw)) => raw.get().len(),
            (None, None) => 0,
        };
        let target = attachment.filename;
        self.push(Kind::Attachment, Some(kind), target, bytes);
    }

    fn compaction(&mut self, line: &Line) {
        let metadata = line.compaction().unwrap_or_default();
        let count = |n: Option<f64>| n.filter(|n| n.is_finite() && *n >= 0.0).map(|n| n.round() as u64);
        self.compactions.push(Compaction {
            before_request: self.request_count + 1,
            tokens_before: count(metadata.pre_tokens).or(self.previous),
            tokens_after: count(metadata.post_tokens),
        });
        self.pending.clear();
        self.uses.clear();
        // What came before is gone from the context: so are its responses' keys, which keeps
        // the saved walk small however long the session.
        self.seen.clear();
        self.live.clear();
        self.by_kind.clear();
        self.compacted = true;
        if let Some(after) = count(metadata.post_tokens) {
            self.latest = Some(after);
        }
    }

    fn push(&mut self, kind: Kind, tool: Option<String>, target: Option<String>, bytes: usize) {
        // Names are printed to terminals, the statusline and the agent: a command's escape
        // sequence, a path's newline or a bidi override never reaches them.
        let printable = |text: Option<String>| text.map(|t| one_line(&t)).filter(|t| !t.is_empty());
        if bytes > 0 {
            self.pending.push(Pending {
                kind,
                tool: printable(tool),
                target: printable(target),
                bytes,
            });
        }
    }

    /// A new request whose context is `context`: closes what entered since the last one.
    fn request(&mut self, context: u64, at: Option<String>) {
        let pending = std::mem::take(&mut self.pending);
        let (delta, items) = match (self.baseline, self.previous) {
            // The first request is the baseline: system prompt, tools, memory files.
            (None, _) | (_, None) => {
                self.baseline = Some(context);
                (context as i64, Vec::new())
            }
            (Some(baseline), Some(previous)) => {
                let from = if self.compacted { baseline } else { previous };
                // `from` may come from a saved walk: no value of it can overflow the delta.
                let delta = (i128::from(context) - i128::from(from)).clamp(i64::MIN.into(), i64::MAX.into()) as i64;
                (delta, split(delta, pending))
            }
        };
        self.compacted = false;
        self.previous = Some(context);
        self.latest = Some(context);
        self.request_count += 1;
        for item in &items {
            self.enter(item);
        }
        let request = Request {
            n: self.request_count,
            at,
            context_tokens: context,
            delta,
            items,
        };
        match self.keeps {
            Keeps::Every => self.requests.push(request),
            Keeps::Recent => {
                self.requests.push(Request {
                    items: request.items.into_iter().take(1).collect(),
                    ..request
                });
                let over = self.requests.len().saturating_sub(RECENT_REQUESTS);
                self.requests.drain(..over);
            }
            Keeps::None => {}
        }
        if !matches!(self.keeps, Keeps::Every) && self.live.len() > 2 * LIVE_KEPT {
            self.live = self.largest_few(LIVE_KEPT);
        }
    }

    /// Adds a request's item to the live context.
    fn enter(&mut self, item: &Item) {
        let total = self.by_kind.entry(item.kind).or_default();
        *total = total.saturating_add(item.tokens);
        if item.tokens <= 0 {
            return;
        }
        match self.live.iter_mut().find(|live| live.is_named_as(item)) {
            Some(live) => {
                live.tokens = live.tokens.saturating_add(item.tokens);
                live.estimated |= item.estimated;
            }
            None => self.live.push(Item {
                bytes: 0,
                ..item.clone()
            }),
        }
    }

    /// The live context's items, largest first.
    pub fn largest(&self) -> Vec<Item> {
        self.largest_few(usize::MAX)
    }

    /// The `few` largest of the live context's items, largest first: only they are copied.
    pub fn largest_few(&self, few: usize) -> Vec<Item> {
        let mut items: Vec<&Item> = self.live.iter().collect();
        items.sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.cmp_names(b)));
        items.into_iter().take(few).cloned().collect()
    }
}

/// Splits `delta` over what entered, by size: each item gets its share rounded down and the
/// rest goes to the largest, so the items add up to `delta` exactly. A context that shrank
/// without a compaction (older results cleared) is one `cleared` item.
fn split(delta: i64, pending: Vec<Pending>) -> Vec<Item> {
    if delta < 0 {
        return vec![Item::whole(Kind::Cleared, delta)];
    }
    if delta == 0 {
        return Vec::new();
    }
    let mut items: Vec<Item> = Vec::new();
    for item in pending.into_iter().map(Pending::into_item) {
        match items.iter_mut().find(|same| same.is_named_as(&item)) {
            Some(same) => same.bytes += item.bytes,
            None => items.push(item),
        }
    }
    let total: u128 = items.iter().map(|i| i.bytes as u128).sum();
    if total == 0 {
        return vec![Item::whole(Kind::Other, delta)];
    }
    let estimated = items.len() > 1;
    for item in &mut items {
        item.tokens = (delta as u128 * item.bytes as u128 / total) as i64;
        item.estimated = estimated;
    }
    let given: i64 = items.iter().map(|i| i.tokens).sum();
    if let Some(largest) = items.iter_mut().max_by_key(|i| i.bytes) {
        largest.tokens += delta - given;
    }
    items.sort_by_key(|i| std::cmp::Reverse(i.tokens));
    items
}
