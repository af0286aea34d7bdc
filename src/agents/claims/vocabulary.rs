//! The words claims are read by: change and removal verbs, commit and completion words,
//! negations, failure phrases, and the names that look like files but are not.

pub const CHANGE_VERBS: &[&str] = &[
    "add",
    "added",
    "adds",
    "adding",
    "create",
    "created",
    "creates",
    "creating",
    "wrote",
    "write",
    "writes",
    "written",
    "update",
    "updated",
    "updates",
    "modify",
    "modified",
    "modifies",
    "change",
    "changed",
    "changes",
    "edit",
    "edited",
    "edits",
    "implement",
    "implemented",
    "generate",
    "generated",
    "save",
    "saved",
    "fix",
    "fixed",
    "refactor",
    "refactored",
    "touch",
    "touched",
    "move",
    "moved",
    "rename",
    "renamed",
    "new",
];
pub const REMOVE_VERBS: &[&str] = &["delete", "deleted", "deletes", "remove", "removed", "removes"];
pub const COMMIT_WORDS: &[&str] = &["commit", "commits", "committed", "sha", "hash"];
pub const DONE_WORDS: &[&str] = &[
    "complete",
    "completed",
    "completes",
    "finished",
    "executed",
    "done",
    "implemented",
];
pub const NEGATIONS: &[&str] = &[
    "not", "couldn't", "didn't", "wasn't", "cannot", "can't", "unable", "failed", "never", "without", "won't", "no",
];
/// Phrases that mark a message as reporting failure.
pub const FAILURE_PHRASES: &[&str] = &[
    "unable to",
    "could not",
    "couldn't",
    "failed to",
    "blocked",
    "gave up",
    "did not complete",
    "not complete",
    "status: failed",
    "## failed",
];
/// Names with a file-like dot that are products, not files.
pub const NOT_FILES: &[&str] = &[
    "node.js",
    "vue.js",
    "next.js",
    "nuxt.js",
    "react.js",
    "express.js",
    "three.js",
    "d3.js",
    "chart.js",
    "angular.js",
    "ember.js",
    "backbone.js",
    "socket.io",
    "asp.net",
    "ado.net",
];
/// Extensions that make a bare `name.ext` (no directory) a file name.
pub const BARE_EXTENSIONS: &[&str] = &[
    "rs", "ts", "tsx", "js", "jsx", "mjs", "cjs", "py", "go", "java", "kt", "rb", "php", "c", "h", "cc", "cpp", "hpp",
    "cs", "swift", "sql", "md", "mdx", "txt", "json", "jsonl", "yaml", "yml", "toml", "ini", "cfg", "conf", "env",
    "html", "css", "scss", "vue", "svelte", "sh", "bash", "lock", "xml", "csv", "proto", "graphql", "tf", "gradle",
    "rst", "dart", "ex", "exs", "lua", "scala", "zig", "nix", "svg", "png", "log", "patch", "diff",
];
