//! The context figure through the built binary, as the statusline and the monitor find it:
//! which transcript lines decide it, which payload fields can be trusted, and what the
//! debounce does when its state cannot be kept.

mod debounce;
mod tail;
mod usage;
