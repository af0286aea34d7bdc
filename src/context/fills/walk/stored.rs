//! A walk as the running attribution saves it between looks ([`super::super::codec`]): every
//! field, in the order they are declared.

use super::{Keeps, Pending, Thread, Walk};
use crate::context::fills::codec::{Input, Stored};

impl Stored for Thread {
    fn store(&self, out: &mut Vec<u8>) {
        out.push(match self {
            Self::Unknown => 0,
            Self::Main => 1,
            Self::Subagent => 2,
        });
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        match u8::try_from(u32::restore(input)?).ok()? {
            0 => Some(Self::Unknown),
            1 => Some(Self::Main),
            2 => Some(Self::Subagent),
            _ => None,
        }
    }
}

impl Stored for Keeps {
    fn store(&self, out: &mut Vec<u8>) {
        out.push(match self {
            Self::Every => 0,
            Self::Recent => 1,
            Self::None => 2,
        });
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        match u8::try_from(u32::restore(input)?).ok()? {
            0 => Some(Self::Every),
            1 => Some(Self::Recent),
            2 => Some(Self::None),
            _ => None,
        }
    }
}

impl Stored for Pending {
    fn store(&self, out: &mut Vec<u8>) {
        self.kind.store(out);
        self.tool.store(out);
        self.target.store(out);
        self.bytes.store(out);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        Some(Self {
            kind: Stored::restore(input)?,
            tool: Option::restore(input)?,
            target: Option::restore(input)?,
            bytes: usize::restore(input)?,
        })
    }
}

impl Stored for Walk {
    fn store(&self, out: &mut Vec<u8>) {
        self.thread.store(out);
        self.cwd.store(out);
        self.uses.store(out);
        self.pending.store(out);
        self.last_key.store(out);
        self.seen.store(out);
        self.previous.store(out);
        self.compacted.store(out);
        self.renders_attachments.store(out);
        self.requests.store(out);
        self.keeps.store(out);
        self.request_count.store(out);
        self.compactions.store(out);
        self.live.store(out);
        self.by_kind.store(out);
        self.baseline.store(out);
        self.model.store(out);
        self.latest.store(out);
        self.unreadable_lines.store(out);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        Some(Self {
            thread: Stored::restore(input)?,
            cwd: Stored::restore(input)?,
            uses: Stored::restore(input)?,
            pending: Stored::restore(input)?,
            last_key: Stored::restore(input)?,
            seen: Stored::restore(input)?,
            previous: Stored::restore(input)?,
            compacted: Stored::restore(input)?,
            renders_attachments: Stored::restore(input)?,
            requests: Stored::restore(input)?,
            keeps: Stored::restore(input)?,
            request_count: Stored::restore(input)?,
            compactions: Stored::restore(input)?,
            live: Stored::restore(input)?,
            by_kind: Stored::restore(input)?,
            baseline: Stored::restore(input)?,
            model: Stored::restore(input)?,
            latest: Stored::restore(input)?,
            unreadable_lines: Stored::restore(input)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::fills::Kind;

    #[test]
    fn a_saved_walk_with_any_figures_takes_up_the_next_request_without_overflow() {
        let mut walk = Walk::new();
        walk.line(br#"{"type":"user","message":{"role":"user","content":"go"}}"#);
        walk.line(br#"{"type":"assistant","message":{"id":"m1","usage":{"input_tokens":20000}}}"#);
        walk.previous = Some(1 << 63);
        walk.by_kind.insert(Kind::Tool, i64::MAX);
        let mut saved = Vec::new();
        walk.store(&mut saved);
        let mut walk = Walk::restore(&mut Input::new(&saved)).expect("reads back");
        assert_eq!(walk.previous, Some(1 << 63));
        walk.line(br#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"x"}]}}"#);
        walk.line(br#"{"type":"assistant","message":{"id":"m2","usage":{"input_tokens":31000}}}"#);
        assert_eq!(walk.latest, Some(31_000));
    }
}
