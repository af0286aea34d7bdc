//! The context store's paths and references (`store::path`, `store::reference`) and the
//! changes the journal records (`store::ops`). The input's first line is a path, the rest
//! one or two JSON documents. A path that parses reads back the same from its JSON Pointer
//! and from its display, and as a reference `@path`; on a document without references,
//! resolving a path gives what reading it gives; a value set at a path reads back there;
//! every reference found in a document is where it was found; resolution ends (cycles and
//! fan-out are errors); the changes `diff` finds between two documents turn the first into
//! the second, key order included.

#![no_main]

use baton::store::ops::{Op, diff};
use baton::store::path::DocPath;
use baton::store::reference::{references_in, resolve, target};
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
            resolved.ok(),
            path.get(&doc).ok().cloned(),
            "resolving a document without references"
        );
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

/// Whether any string in `value` starts with `@` (a reference, or an escaped `@@`).
fn has_at_strings(value: &Value) -> bool {
    match value {
        Value::String(s) => s.starts_with('@'),
        Value::Array(items) => items.iter().any(has_at_strings),
        Value::Object(map) => map.values().any(has_at_strings),
        _ => false,
    }
}
