//! The context figure through the built binary, as the statusline and the monitor find it:
//! which transcript lines decide it, which payload fields can be trusted, and what the
//! debounce does when its state cannot be kept, which of the transcript and a lagging bridge
//! file the monitor believes, what it does when the reply that made a tool call comes late;
//! the compaction forecast, PostCompact and the statusline's optional segments.

mod compaction;
mod debounce;
pub(crate) mod forecast;
mod lag;
mod late;
mod segments;
mod tail;
mod usage;
