//! The code extractor on input built to hurt it: deep nesting in every construct a scanner
//! follows, files over the size cap, text that is no code. Each must come back (no stack
//! overflow, no panic) with the file's well-formed facts still read.

use super::extract;
use crate::bridge::extract::Source;
use crate::bridge::extract::syntax::MAX_PARSE_BYTES;
use crate::bridge::facts::Facts;

const DEPTH: usize = 5_000;

/// The facts of the code extractor and of the rule engine (which reads env vars), as the
/// bridge runs both.
fn run(files: &[(&str, String)]) -> Facts {
    let sources: Vec<Source<'_>> = files.iter().map(|(path, text)| Source { path, text }).collect();
    let mut facts = extract(&sources);
    facts.append(crate::bridge::rules::extract(&sources));
    facts
}

#[test]
fn deeply_nested_script_constructs_end() {
    let nested = |open: &str, inner: &str, close: &str| format!("{}{inner}{}", open.repeat(DEPTH), close.repeat(DEPTH));
    let files = [
        (
            "src/wrap.ts",
            format!(
                "import express from 'express';\nconst app = express();\napp.get('/x', {});\n",
                nested("h(", "list", ")")
            ),
        ),
        (
            "src/memo.tsx",
            format!("export const Deep = {};\n", nested("memo(", "Inner", ")")),
        ),
        (
            "src/zod.ts",
            format!(
                "import {{ z }} from 'zod';\nexport const s = {};\n",
                nested("a.merge(", "b", ")")
            ),
        ),
        (
            "src/jsx.tsx",
            format!(
                "export const Tree = () => {};\n",
                nested("<Route path=\"a\">", "", "</Route>")
            ),
        ),
        (
            "src/routes.tsx",
            format!(
                "createBrowserRouter([{}]);\n",
                nested("{ path: 'a', children: [", "", "] }")
            ),
        ),
        (
            "src/concat.ts",
            format!("router.get({}, h);\n", nested("(", "'/a'", " + '/b')")),
        ),
        (
            "app/deep.py",
            format!(
                "from fastapi import APIRouter\nrouter = APIRouter()\nx = {}\n",
                nested("f(", "1", ")")
            ),
        ),
        (
            "src/deep.rs",
            format!(
                "fn app() -> Router {{ Router::new(){} }}\n",
                ".merge(Router::new())".repeat(DEPTH)
            ),
        ),
        (
            "src/nest.rs",
            format!(
                "fn app() -> Router {{ {} }}\n",
                nested("Router::new().nest(\"/a\", ", "Router::new()", ")")
            ),
        ),
        (
            "src/ok.ts",
            "import { Router } from 'express';\nexport const r = Router();\nr.get('/fine', h);\n".to_owned(),
        ),
    ];
    let facts = run(&files);
    assert!(
        facts.endpoints.iter().any(|e| e.path == "/fine"),
        "{:#?}",
        facts.endpoints
    );
}

#[test]
fn a_file_over_the_cap_is_listed_not_parsed_and_the_rest_still_counts() {
    let big = format!(
        "export const key = process.env.BIG;\nexport const x = '{}';\n",
        "a".repeat(MAX_PARSE_BYTES)
    );
    let files = [
        ("src/generated.ts", big),
        ("src/env.ts", "export const port = process.env.PORT;\n".to_owned()),
    ];
    let facts = run(&files);
    assert!(
        facts
            .unparsed
            .iter()
            .any(|u| u.starts_with("src/generated.ts: too large to parse")),
        "{:?}",
        facts.unparsed
    );
    assert_eq!(
        facts.env_vars.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(),
        ["PORT"]
    );
}

#[test]
fn text_that_is_no_code_is_survived() {
    let noise: String = (0..200_000u32)
        .map(|i| char::from_u32(0x20 + (i * 7919) % 0x2fff).unwrap_or('x'))
        .collect();
    let files = [
        ("src/noise.ts", noise.clone()),
        ("app/noise.py", noise.clone()),
        ("src/noise.rs", noise),
        ("src/empty.tsx", String::new()),
        ("src/bom.ts", "\u{feff}export const A = process.env.A_KEY;\n".to_owned()),
    ];
    let facts = run(&files);
    assert!(facts.env_vars.iter().any(|e| e.name == "A_KEY"));
}
