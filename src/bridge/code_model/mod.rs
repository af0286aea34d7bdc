//! What the code extractor and the rule engine both read and build, below both (issue 33):
//! grammars and small syntax helpers, the route graph, guards, where imports lead, which files
//! are tests or build output, and class lineage.

pub mod guards;
pub mod lineage;
pub mod modules;
pub mod routes;
pub mod syntax;
pub mod wants;
