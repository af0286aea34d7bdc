//! Request shapes a handler states in its body (the rules find the shapes themselves; see
//! `bridge::rules::shapes`).

pub mod parsed;
