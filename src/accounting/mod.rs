//! Token accounting: finding a session's transcripts, streaming them for the API's usage
//! figures, counting each response once, and pricing the totals.

pub mod chunks;
pub mod line;
pub mod pricing;
pub mod scan;
pub mod tokens;
pub mod totals;
pub mod transcripts;
