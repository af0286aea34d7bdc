//! The handoff bridge (`baton bridge`): after an agent finishes, read the files it wrote or
//! changed, extract the concrete names with real parsers, and hand them to the next agent.
//! Parsers live only here: nothing on the statusline or monitor path uses this module.

pub mod extract;
pub mod facts;
