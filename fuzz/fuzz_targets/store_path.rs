//! The context store's paths and references (`store::path`, `store::reference`) and the
//! changes the journal records (`store::ops`). The input's first line is a path, the rest
//! one or two JSON documents. A path that parses reads back the same from its JSON Pointer
//! and from its display, and as a reference `@path`; on a document without references,
//! resolving a path gives what reading it gives; a value set at a path reads back there;
//! every reference found in a document is where it was found; resolution ends (cycles and
//! fan-out are errors) within its bounds (at most as many values as it is allowed, never
//! nested deeper than the store keeps), a smaller bound refuses exactly the values that do not
//! fit, and the check `validate` runs agrees with it; what the store's depth check lets a
//! write set reads back as a document and as a journal line (depth: the writer's limit is
//! within every reader's); the changes `diff` finds between two documents turn the first into
//! the second, key order included.

#![no_main]

use baton::store::commit::check_depth;
use baton::store::document::{MAX_DEPTH, nesting};
use baton::store::journal::{self, Entry};
use baton::store::ops::{Op, diff};
use baton::store::path::DocPath;
use baton::store::reference::{Checker, MAX_NESTING, RefError, references_in, resolve, resolve_within, target};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let mut documents = serde_json::Deserializer::from_str(rest)
        .into_iter::<Value>()
        .map_while(Result::ok);
    let doc = documents.next();
    let other = documents.next();

    let Ok(path) = DocPath::parse(first) else {
        return;
    };
    assert_eq!(
        DocPath::parse(&path.pointer()).as_ref(),
        Ok(&path),
        "through its pointer {:?}",
        path.pointer()
    );
    assert_eq!(
        DocPath::parse(&path.to_string()).as_ref(),
        Ok(&path),
        "through its display {path}"
    );
    if !first.is_empty() && !first.starts_with('@') && !first.contains(char::is_whitespace) {
        assert_eq!(target(&format!("@{first}")), Some(Ok(path.clone())), "as a reference");
    }

    let Some(doc) = doc else { return };
    let mut found = Vec::new();
    references_in(&doc, &DocPath::root(), &mut found);
    for (at, written) in &found {
        assert_eq!(
            at.get(&doc).ok().and_then(Value::as_str),
            Some(written.as_str()),
            "reference at {at}"
        );
    }
    let resolved = resolve(&doc, &path);
    if !has_at_strings(&doc) {
        assert_eq!(
            resolved.clone().ok(),
            path.get(&doc).ok().cloned(),
            "resolving a document without references"
        );
    }
    let checked = Checker::new(&doc).check(&path);
    assert_eq!(
        checked.is_ok(),
        resolved.is_ok(),
        "validate's check against resolve: {checked:?} {resolved:?}"
    );
    if let Ok(value) = &resolved {
        assert!(nesting(value) <= MAX_NESTING, "resolved deeper than {MAX_NESTING}");
    }
    const SMALL: usize = 64;
    match (&resolved, resolve_within(&doc, &path, SMALL)) {
        (Ok(value), Ok(small)) => {
            assert_eq!(&small, value, "the same value within a smaller bound");
            assert!(
                values(value) <= SMALL,
                "{} values within a bound of {SMALL}",
                values(value)
            );
        }
        (Ok(value), Err(RefError::TooLarge { limit })) => {
            assert_eq!(limit, SMALL);
            assert!(
                values(value) > SMALL,
                "{} values refused by a bound of {SMALL}",
                values(value)
            );
        }
        (Ok(_), Err(e)) => panic!("resolves, but not within a smaller bound: {e}"),
        (Err(_), Ok(small)) => panic!("resolves only within a smaller bound: {small}"),
        (Err(_), Err(_)) => {}
    }

    let mut changed = doc.clone();
    let value = json!({"set": "by the fuzzer"});
    if path.set(&mut changed, value.clone()).is_ok() && path.last() != Some("-") {
        assert_eq!(
            path.get(&changed),
            Ok(&value),
            "a value set at {path} does not read back"
        );
        if !path.tokens().is_empty() {
            assert_eq!(path.delete(&mut changed).ok(), Some(value), "deleting what was set");
        }
    }
    if let Some(value) = &other {
        reads_back_if_the_store_writes_it(&doc, &path, value);
    }

    if let Some(other) = other {
        let ops = diff(&doc, &other);
        let mut patched = doc.clone();
        for op in &ops {
            op.apply(&mut patched)
                .unwrap_or_else(|e| panic!("{op:?} does not apply: {e}"));
            let line = serde_json::to_vec(op).expect("an op serialises");
            assert_eq!(&serde_json::from_slice::<Op>(&line).expect("an op reads back"), op);
        }
        assert_eq!(patched, other, "diff then apply");
        assert_eq!(
            serde_json::to_string(&patched).unwrap(),
            serde_json::to_string(&other).unwrap(),
            "diff then apply: key order"
        );
    }
});

/// When the store's depth check lets `value` be set at `path` in `doc` (itself within the
/// store's depth), the document after it reads back from its file's text, and the change
/// from its journal line.
fn reads_back_if_the_store_writes_it(doc: &Value, path: &DocPath, value: &Value) {
    let op = Op::set(path, value.clone());
    let mut changed = doc.clone();
    if nesting(doc) > MAX_DEPTH || check_depth(&op).is_err() || op.apply(&mut changed).is_err() {
        return;
    }
    assert!(
        nesting(&changed) <= MAX_DEPTH,
        "the depth check let the document nest {}",
        nesting(&changed)
    );
    let text = baton::store::document_bytes(&changed);
    let back: Value = serde_json::from_slice(&text).unwrap_or_else(|e| panic!("the document does not read back: {e}"));
    assert_eq!(back, changed);
    let entry = Entry {
        v: 2,
        at: "2026-11-30T00:00:00.000Z".into(),
        by: "fuzz".into(),
        session: None,
        head: None,
        cmd: "set".into(),
        ops: vec![op, Op::set(&DocPath::root(), changed)],
        size: None,
        hash: None,
    };
    let line = serde_json::to_vec(&entry).expect("an entry serialises");
    assert_eq!(journal::parse(&line).expect("the journal line reads back"), entry);
}

/// How many values `value` holds, itself included.
fn values(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(values).sum(),
        Value::Object(map) => map.values().map(values).sum(),
        _ => 0,
    }
}

/// Whether any string in `value` starts with `@` (a reference, or an escaped `@@`).
fn has_at_strings(value: &Value) -> bool {
    match value {
        Value::String(s) => s.starts_with('@'),
        Value::Array(items) => items.iter().any(has_at_strings),
        Value::Object(map) => map.values().any(has_at_strings),
        _ => false,
    }
}
