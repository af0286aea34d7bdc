//! The README's picture (issue 34): the committed SVG is well-formed XML showing what it
//! claims (the statusline's forecast and largest item, the warning the agent was given, the
//! chart), the README and the guide show it, and its converter (scripts/ansi_svg.py) renders a
//! terminal's colours and attributes. The picture itself is made by scripts/picture.py from a
//! real run of the client (CONTRIBUTING.md), which the suite does not do.

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

const PICTURE: &str = "docs/images/baton-in-claude-code.svg";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("read {path}: {e}"))
}

/// Checks that `xml` is one well-formed element (a prolog and comments allowed): tags nest and
/// match, attributes are quoted and not repeated, text and values escape `<` and `&`. Returns the
/// root element's name, or what is wrong and where.
fn well_formed(xml: &str) -> Result<String, String> {
    let mut open: Vec<&str> = Vec::new();
    let mut root = None;
    let mut rest = xml.trim_start_matches('\u{feff}');
    if rest.starts_with("<?xml") {
        rest = &rest[rest.find("?>").ok_or("unclosed prolog")? + 2..];
    }
    while !rest.is_empty() {
        let text_end = rest.find('<').unwrap_or(rest.len());
        let text = &rest[..text_end];
        if open.is_empty() && !text.trim().is_empty() {
            return Err(format!("text outside the root element: {text:?}"));
        }
        entities(text)?;
        rest = &rest[text_end..];
        if rest.is_empty() {
            break;
        }
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = &comment[comment.find("-->").ok_or("unclosed comment")? + 3..];
            continue;
        }
        let end = tag_end(rest).ok_or_else(|| format!("unclosed tag at {:?}", head(rest)))?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match open.pop() {
                Some(top) if top == name.trim_end() => continue,
                top => return Err(format!("</{name}> closes {top:?}")),
            }
        }
        let closed = tag.ends_with('/');
        let (name, attributes) = split_name(tag.trim_end_matches('/'))?;
        check_attributes(name, attributes)?;
        if open.is_empty() {
            if root.is_some() {
                return Err(format!("a second root element <{name}>"));
            }
            root = Some(name.to_owned());
        }
        if !closed {
            open.push(name);
        }
    }
    match (open.last(), root) {
        (Some(unclosed), _) => Err(format!("<{unclosed}> is never closed")),
        (None, None) => Err("no element".into()),
        (None, Some(root)) => Ok(root),
    }
}

/// Where the tag starting `text` ends (its `>`), quotes respected.
fn tag_end(text: &str) -> Option<usize> {
    let mut quote = None;
    for (at, char) in text.char_indices().skip(1) {
        match (quote, char) {
            (None, '"' | '\'') => quote = Some(char),
            (Some(q), c) if q == c => quote = None,
            (None, '>') => return Some(at),
            (None, '<') => return None,
            _ => {}
        }
    }
    None
}

fn head(text: &str) -> String {
    text.chars().take(60).collect()
}

fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_alphanumeric() || "_:.-".contains(c))
}

fn split_name(tag: &str) -> Result<(&str, &str), String> {
    let end = tag.find(char::is_whitespace).unwrap_or(tag.len());
    let name = &tag[..end];
    if !is_name(name) {
        return Err(format!("bad element name in <{}>", head(tag)));
    }
    Ok((name, &tag[end..]))
}

/// `name="value"` pairs, each name once, values without `<` and with valid entities.
fn check_attributes(element: &str, mut rest: &str) -> Result<(), String> {
    let mut seen = HashSet::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(());
        }
        let equals = rest
            .find('=')
            .ok_or_else(|| format!("<{element}>: attribute without a value"))?;
        let name = rest[..equals].trim_end();
        if !is_name(name) || !seen.insert(name) {
            return Err(format!("<{element}>: bad or repeated attribute {name:?}"));
        }
        let value = rest[equals + 1..].trim_start();
        let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'');
        let quote = quote.ok_or_else(|| format!("<{element}> {name}: unquoted value"))?;
        let close = value[1..]
            .find(quote)
            .ok_or_else(|| format!("<{element}> {name}: unclosed value"))?;
        let text = &value[1..=close];
        if text.contains('<') {
            return Err(format!("<{element}> {name}: `<` in a value"));
        }
        entities(text)?;
        rest = &value[close + 2..];
    }
}

/// Every `&` starts a predefined or numeric entity.
fn entities(text: &str) -> Result<(), String> {
    for (at, _) in text.match_indices('&') {
        let entity = &text[at + 1..];
        let end = entity
            .find(';')
            .ok_or_else(|| format!("bare & in {:?}", head(&text[at..])))?;
        let name = &entity[..end];
        let numeric = name.strip_prefix("#x").map_or_else(
            || name.strip_prefix('#').is_some_and(|n| n.parse::<u32>().is_ok()),
            |hex| u32::from_str_radix(hex, 16).is_ok(),
        );
        if !numeric && !["amp", "lt", "gt", "quot", "apos"].contains(&name) {
            return Err(format!("unknown entity &{name};"));
        }
    }
    Ok(())
}

#[test]
fn the_well_formedness_check_catches_what_breaks_xml() {
    assert_eq!(
        well_formed("<?xml version=\"1.0\"?>\n<svg a=\"1\"><g><text>x &amp; y</text></g><rect/></svg>\n"),
        Ok("svg".into())
    );
    for broken in [
        "<svg><g></svg>",
        "<svg></g>",
        "<svg>a < b</svg>",
        "<svg>a & b</svg>",
        "<svg a=1/>",
        "<svg a=\"1\" a=\"2\"/>",
        "<svg/><svg/>",
        "<svg>",
        "text<svg/>",
        "<svg a=\"&nope;\"/>",
    ] {
        assert!(well_formed(broken).is_err(), "{broken:?} passed");
    }
}

#[test]
fn the_committed_picture_is_an_svg_showing_the_statusline_the_warning_and_the_chart() {
    let svg = read(PICTURE);
    assert_eq!(well_formed(&svg), Ok("svg".into()), "{PICTURE}");
    assert!(
        svg.contains("xmlns=\"http://www.w3.org/2000/svg\""),
        "{PICTURE}: no SVG namespace"
    );
    for shown in [
        "Claude Code",
        // The statusline: the forecast and the largest item.
        "left",
        "Read ledger_dump.sql",
        // What baton told the agent, as the agent quotes it.
        "CONTEXT WARNING: Usage at",
        // The /baton-window pane.
        "Largest in the live context",
    ] {
        assert!(svg.contains(shown), "{PICTURE} does not show {shown:?}");
    }
    assert!(svg.contains(">≈<"), "{PICTURE}: no forecast (≈N left)");
}

#[test]
fn the_readme_and_the_guide_show_the_picture() {
    let readme = read("README.md");
    assert!(
        readme.contains(&format!("]({PICTURE})")) && readme.contains("![Claude Code with baton"),
        "README.md does not show {PICTURE}"
    );
    assert!(!readme.contains("<!-- picture"), "README.md still has the placeholder");
    let guide = read("docs/introduction.md");
    assert!(
        guide.contains("](images/baton-in-claude-code.svg)"),
        "docs/introduction.md does not show the picture"
    );
}

#[test]
fn the_converter_renders_colours_and_attributes_as_a_terminal_does() {
    let dir = std::env::temp_dir().join(format!("baton-ansi-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let capture = dir.join("screen.ansi");
    let svg = dir.join("screen.svg");
    let screen = concat!(
        "\x1b[1;31mbold red\x1b[0m \x1b[38;5;196mpalette\x1b[39m \x1b[38;2;1;2;3mtrue\x1b[0m\n",
        "\x1b[7minverse\x1b[27m \x1b[2mdim\x1b[22m \x1b[48;5;235m<&>\x1b[49m \x1b[92m██▌\x1b[0m 漢x\n",
    );
    std::fs::write(&capture, screen).unwrap();
    let script = repo().join("scripts/ansi_svg.py");
    let out = Command::new("python3").arg(script).arg(&capture).arg(&svg).output();
    let out = out.expect("python3 runs scripts/ansi_svg.py");
    assert!(
        out.status.success(),
        "ansi_svg.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(well_formed(&svg), Ok("svg".into()), "{svg}");
    let text = |fill: &str, extra: &str, body: &str| format!("fill=\"{fill}\"{extra}>{body}</text>");
    for expected in [
        text("#cd3131", " font-weight=\"bold\"", "bold red"),
        text("#ff0000", "", "palette"),
        text("#010203", "", "true"),
        // Inverse: the default background as text on the default foreground.
        text("#1e1e1e", "", "inverse"),
        text("#d4d4d4", " fill-opacity=\"0.6\"", "dim"),
        text("#d4d4d4", "", "&lt;&amp;&gt;"),
    ] {
        assert!(svg.contains(&expected), "no {expected:?} in\n{svg}");
    }
    // The inverse run's and the 256-colour background's cells.
    assert!(svg.contains("fill=\"#d4d4d4\"/>"), "{svg}");
    assert!(svg.contains("fill=\"#262626\"/>"), "{svg}");
    // Two full blocks as one rectangle of two cells, the half block as half a cell, in bright green.
    assert!(
        svg.contains("width=\"17.10\" height=\"18.00\" fill=\"#23d18b\"/>"),
        "{svg}"
    );
    assert!(
        svg.contains("width=\"4.20\" height=\"18.00\" fill=\"#23d18b\"/>"),
        "{svg}"
    );
    // The wide character takes two cells: the `x` after it starts at column 22.
    let x = 16.0 + 22.0 * 8.4;
    assert!(
        svg.contains(&format!("x=\"{x:.1}\" y=\"")),
        "x after 漢 not at column 22:\n{svg}"
    );
}
