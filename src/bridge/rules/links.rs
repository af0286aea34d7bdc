//! What one file says that only the other files complete: the class a model extends (a
//! mapped superclass lends it columns, see [`inherit`]) and a filter chain's request-matcher
//! rules (they guard endpoints registered anywhere, see [`matchers`]). Gathered file by file,
//! applied once every file is read.

use super::hits::Hit;
use super::{inherit, matchers};
use crate::bridge::facts::Facts;

/// The cross-file facts of the files read so far.
#[derive(Default)]
pub struct Links {
    /// `(class, the class it extends)` of models (`table.model` with `table.parent`).
    parents: Vec<(String, String)>,
    matchers: Vec<matchers::Rule>,
}

impl Links {
    /// The links of one file's hits.
    pub fn of(path: &str, hits: &[Hit<'_>]) -> Links {
        let mut links = Links::default();
        for hit in hits {
            if let (Some(model), Some(parent)) = (hit.text("table.model"), hit.text("table.parent")) {
                links.parents.push((model.to_owned(), parent.to_owned()));
            }
            links.matchers.extend(matchers::Rule::of(path, hit));
        }
        links
    }

    pub fn append(&mut self, mut other: Links) {
        self.parents.append(&mut other.parents);
        self.matchers.append(&mut other.matchers);
    }

    /// Completes `facts` (every file's) with what the links say.
    pub fn apply(self, facts: &mut Facts) {
        inherit::apply(&mut facts.tables, &self.parents);
        matchers::apply(facts, self.matchers);
    }
}
