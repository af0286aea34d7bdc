//! Options a route call writes as key/value pairs and a rule captures as `<fact>.option` (one
//! pair) or `<fact>.options` (an argument list or array, whose pairs are read):
//! Ruby's `only: [:show, :update]`, `param: :slug`, `path_names: { sign_in: :login }`,
//! PHP's `'except' => ['create', 'edit']`, read from the pair's text as a key and the words
//! of its value.

use super::hits::Hit;
use super::text::literal;

/// One option: its key and the words of its value (`only: [:show]` → `only`, `[show]`).
#[derive(Debug, Clone, PartialEq)]
pub struct RouteOption {
    pub key: String,
    pub words: Vec<String>,
}

/// Reads `key: value`, `:key => value` or `'key' => value`.
pub fn read(pair: &str) -> Option<RouteOption> {
    let (key, value) = pair.split_once("=>").or_else(|| pair.split_once(':'))?;
    let key = words(key).into_iter().next()?;
    Some(RouteOption {
        key,
        words: words(value),
    })
}

/// The words of a value: `[:show, 'index']` → `show`, `index`; `'sessions#new'` →
/// `sessions#new`.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '#' | '@' | '/' | '!' | '?' | '.' | '-')))
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The options a hit captures as `<fact>.option` or inside `<fact>.options`.
pub fn of(hit: &Hit<'_>, fact: &str) -> Vec<RouteOption> {
    let (one, many) = (format!("{fact}.option"), format!("{fact}.options"));
    let pairs = hit.all(&many).flat_map(|capture| items(capture.text));
    hit.all(&one)
        .map(|capture| capture.text)
        .chain(pairs)
        .filter(|item| item.contains("=>") || item.contains(": "))
        .filter_map(read)
        .collect()
}

/// The items of a list, split at the commas outside brackets and quotes: `(:a, only: [:b, :c])`
/// → `:a`, `only: [:b, :c]`.
fn items(text: &str) -> Vec<&str> {
    let text = text.trim();
    let inner = match (text.chars().next(), text.chars().last()) {
        (Some('(' | '['), Some(')' | ']')) => &text[1..text.len() - 1],
        _ => text,
    };
    let (mut items, mut depth, mut quote, mut start) = (Vec::new(), 0usize, None, 0);
    for (at, c) in inner.char_indices() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                items.push(inner[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(inner[start..].trim());
    items
}

/// The words of the option named `key` (empty if there is none).
pub fn words_of(options: &[RouteOption], key: &str) -> Vec<String> {
    options
        .iter()
        .filter(|option| option.key == key)
        .flat_map(|option| option.words.iter().cloned())
        .collect()
}

/// The words a hit lists for option `key`: its `<fact>.option(s)` pair of that key, its
/// `<fact>.<key>` captures, and the `<fact>.chain_args` of a call chained on it whose
/// `<fact>.chain` name is `key` (Laravel's `->only([…])`).
pub fn listed(hit: &Hit<'_>, fact: &str, options: &[RouteOption], key: &str) -> Vec<String> {
    let mut out = words_of(options, key);
    out.extend(
        hit.all(&format!("{fact}.{key}"))
            .flat_map(|capture| words(capture.text)),
    );
    if hit.text(&format!("{fact}.chain")) == Some(key) {
        out.extend(
            hit.all(&format!("{fact}.chain_args"))
                .flat_map(|capture| words(capture.text)),
        );
    }
    out
}

/// The first word of the option named `key`.
pub fn first(options: &[RouteOption], key: &str) -> Option<String> {
    options
        .iter()
        .find(|option| option.key == key)
        .and_then(|option| option.words.first().cloned())
}

/// True if an `only`/`except` pair of lists keeps `action` (items as written: `:show`, `'index'`).
pub fn keeps(only: &[String], except: &[String], action: &str) -> bool {
    let named = |list: &[String]| list.iter().any(|item| literal(item) == action);
    (only.is_empty() || named(only)) && !named(except)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_and_php_pairs() {
        let only = read("only: [:show, :update]").unwrap();
        assert_eq!(
            (only.key.as_str(), only.words.clone()),
            ("only", vec!["show".into(), "update".into()])
        );
        let except = read("'except' => [\n 'create', 'edit'\n]").unwrap();
        assert_eq!(except.words, ["create", "edit"]);
        assert_eq!(read("param: :slug").unwrap().words, ["slug"]);
        assert_eq!(
            read(":to => 'sessions#new'").unwrap(),
            RouteOption {
                key: "to".into(),
                words: vec!["sessions#new".into()]
            }
        );
        assert_eq!(
            read("path_names: { sign_in: :login }").unwrap().words,
            ["sign_in", "login"]
        );
        assert_eq!(
            items(":profiles, param: :username, only: [:show, :index], to: 'a,b'"),
            [":profiles", "param: :username", "only: [:show, :index]", "to: 'a,b'"]
        );
        assert_eq!(
            items("['except' => ['create', 'edit']]"),
            ["'except' => ['create', 'edit']"]
        );
    }
}
