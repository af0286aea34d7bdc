//! The running walk's saved state as compact bytes: it is read and written on every warning,
//! so it is neither text to parse nor built through a generic serializer. Numbers and lengths
//! are LEB128 varints (signed ones zigzagged), strings their length and UTF-8 bytes, a
//! response's key its eight bytes; anything out of place makes the whole read `None`, and the
//! walk is then read afresh.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::Hash;

use super::{Compaction, Item, Kind, Request};

/// A value kept in the saved state.
pub trait Stored: Sized {
    fn store(&self, out: &mut Vec<u8>);
    fn restore(input: &mut Input<'_>) -> Option<Self>;
}

/// The saved bytes, read from the front.
pub struct Input<'a> {
    bytes: &'a [u8],
}

impl<'a> Input<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    /// Whether every byte was read (a state with bytes left over is not one baton wrote).
    pub fn is_done(&self) -> bool {
        self.bytes.is_empty()
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.bytes.split_at_checked(n)?;
        self.bytes = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    /// A length: never more than the bytes left, so a corrupt one allocates nothing large.
    fn len(&mut self) -> Option<usize> {
        usize::try_from(u64::restore(self)?)
            .ok()
            .filter(|n| *n <= self.bytes.len())
    }
}

impl Stored for u64 {
    fn store(&self, out: &mut Vec<u8>) {
        let mut n = *self;
        while n >= 0x80 {
            out.push((n as u8) | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = input.byte()?;
            n |= u64::from(byte & 0x7f).checked_shl(shift)?;
            if byte < 0x80 {
                return Some(n);
            }
        }
        None
    }
}

impl Stored for u32 {
    fn store(&self, out: &mut Vec<u8>) {
        u64::from(*self).store(out);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        u64::restore(input)?.try_into().ok()
    }
}

impl Stored for usize {
    fn store(&self, out: &mut Vec<u8>) {
        (*self as u64).store(out);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        u64::restore(input)?.try_into().ok()
    }
}

impl Stored for i64 {
    fn store(&self, out: &mut Vec<u8>) {
        (((*self << 1) ^ (*self >> 63)) as u64).store(out);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        let n = u64::restore(input)?;
        Some(((n >> 1) as i64) ^ -((n & 1) as i64))
    }
}

impl Stored for bool {
    fn store(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        match input.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl Stored for String {
    fn store(&self, out: &mut Vec<u8>) {
        self.len().store(out);
        out.extend_from_slice(self.as_bytes());
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        let len = input.len()?;
        String::from_utf8(input.take(len)?.to_vec()).ok()
    }
}

impl<T: Stored> Stored for Option<T> {
    fn store(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(value) => {
                out.push(1);
                value.store(out);
            }
        }
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        match input.byte()? {
            0 => Some(None),
            1 => Some(Some(T::restore(input)?)),
            _ => None,
        }
    }
}

impl<A: Stored, B: Stored> Stored for (A, B) {
    fn store(&self, out: &mut Vec<u8>) {
        self.0.store(out);
        self.1.store(out);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        Some((A::restore(input)?, B::restore(input)?))
    }
}

impl<T: Stored> Stored for Vec<T> {
    fn store(&self, out: &mut Vec<u8>) {
        self.len().store(out);
        for value in self {
            value.store(out);
        }
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        let len = input.len()?;
        (0..len).map(|_| T::restore(input)).collect()
    }
}

impl<K: Stored + Eq + Hash, V: Stored> Stored for HashMap<K, V> {
    fn store(&self, out: &mut Vec<u8>) {
        self.len().store(out);
        for (key, value) in self {
            key.store(out);
            value.store(out);
        }
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        let len = input.len()?;
        (0..len).map(|_| <(K, V)>::restore(input)).collect()
    }
}

impl<K: Stored + Ord, V: Stored> Stored for BTreeMap<K, V> {
    fn store(&self, out: &mut Vec<u8>) {
        self.len().store(out);
        for (key, value) in self {
            key.store(out);
            value.store(out);
        }
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        let len = input.len()?;
        (0..len).map(|_| <(K, V)>::restore(input)).collect()
    }
}

/// Responses' keys, each its eight bytes (they are hashes: a varint would be longer).
impl Stored for HashSet<u64> {
    fn store(&self, out: &mut Vec<u8>) {
        self.len().store(out);
        for key in self {
            out.extend_from_slice(&key.to_le_bytes());
        }
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        let len = input.len()?;
        let bytes = input.take(len.checked_mul(8)?)?;
        Some(
            bytes
                .chunks_exact(8)
                .map(|key| u64::from_le_bytes(key.try_into().unwrap_or_default()))
                .collect(),
        )
    }
}

/// Every kind, by the byte it is saved as.
const KINDS: [Kind; 9] = [
    Kind::Tool,
    Kind::Prompt,
    Kind::Reminder,
    Kind::Attachment,
    Kind::Assistant,
    Kind::Thinking,
    Kind::Summary,
    Kind::Cleared,
    Kind::Other,
];

impl Stored for Kind {
    fn store(&self, out: &mut Vec<u8>) {
        out.push(KINDS.iter().position(|kind| kind == self).unwrap_or_default() as u8);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        KINDS.get(usize::from(input.byte()?)).copied()
    }
}

/// An item without its size in bytes (only the walk's pending items need it).
impl Stored for Item {
    fn store(&self, out: &mut Vec<u8>) {
        self.kind.store(out);
        self.tool.store(out);
        self.target.store(out);
        self.tokens.store(out);
        self.estimated.store(out);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        Some(Self {
            kind: Kind::restore(input)?,
            tool: Option::restore(input)?,
            target: Option::restore(input)?,
            tokens: i64::restore(input)?,
            estimated: bool::restore(input)?,
            bytes: 0,
        })
    }
}

impl Stored for Request {
    fn store(&self, out: &mut Vec<u8>) {
        self.n.store(out);
        self.at.store(out);
        self.context_tokens.store(out);
        self.delta.store(out);
        self.items.store(out);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        Some(Self {
            n: usize::restore(input)?,
            at: Option::restore(input)?,
            context_tokens: u64::restore(input)?,
            delta: i64::restore(input)?,
            items: Vec::restore(input)?,
        })
    }
}

impl Stored for Compaction {
    fn store(&self, out: &mut Vec<u8>) {
        self.before_request.store(out);
        self.tokens_before.store(out);
        self.tokens_after.store(out);
    }

    fn restore(input: &mut Input<'_>) -> Option<Self> {
        Some(Self {
            before_request: usize::restore(input)?,
            tokens_before: Option::restore(input)?,
            tokens_after: Option::restore(input)?,
        })
    }
}
