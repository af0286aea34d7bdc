//! The syntax both the code extractor and the rule engine read: which tree-sitter grammar
//! reads a file, the parsers, and names and types as a language writes them.

pub mod grammar;
pub mod python;
pub mod rust;
pub mod script;

/// Around a piece of a rendered path that this file cannot resolve (`settings.API_V1_STR`):
/// linking fills it in from the file that defines it, or writes it as the language does
/// (see `extract::syntax::literal::fill_placeholders`). Neither character can occur in a path read from a file.
pub const PLACEHOLDER_OPEN: char = '\u{1}';
pub const PLACEHOLDER_CLOSE: char = '\u{2}';
