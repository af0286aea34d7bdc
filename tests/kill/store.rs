//! Kill points of the context store's writes (issue 12): `baton ctx set` appends to the
//! journal and replaces `.baton/context.json`. After a kill anywhere the store reads as the
//! version before or the one being written, and the next write lands on top.

use super::{Writer, none};
use crate::common::*;

#[track_caller]
fn ctx(sandbox: &Sandbox, args: &[&str]) -> String {
    let mut all = vec!["ctx"];
    all.extend_from_slice(args);
    let out = sandbox.run(&all, b"");
    assert_eq!(out.code, Some(0), "baton ctx {args:?}: {out:?}");
    out.stdout
}

#[test]
fn a_context_store_write_killed_anywhere_leaves_the_old_or_new_version() {
    let writer = Writer {
        name: "ctx set",
        setup: || {
            let sandbox = Sandbox::new();
            ctx(&sandbox, &["init"]);
            ctx(&sandbox, &["set", "global_context.a", "1"]);
            sandbox
        },
        args: &["ctx", "set", "global_context.a", "2"],
        stdin: |_| Vec::new(),
        watched: |s| vec![s.project.join(".baton")],
        intermediate: none,
        after_kill: |s| {
            let value = ctx(s, &["get", "global_context.a"]);
            assert!(matches!(value.trim(), "1" | "2"), "{value}");
        },
        recover: |s| {
            ctx(s, &["set", "global_context.a", "3"]);
            assert_eq!(ctx(s, &["get", "global_context.a"]).trim(), "3");
            ctx(s, &["log"]);
        },
    };
    writer.check(&[]);
}
