//! JSON from files and pipes baton does not own: fields read leniently (a `null` or a wrongly
//! typed value is absent, never a failure of the whole) and values skipped without decoding.

pub mod lenient;
pub mod skip;
