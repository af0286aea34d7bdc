//! Continuation lines as Dockerfiles and shell scripts write them: a line ending in the
//! escape character goes on on the next line.

/// The trimmed lines of `text`, each one ending in `escape` joined (by a space, the escape
/// dropped) to the next. A line for which `skip(line, continuing)` is true is left out
/// (`continuing`: an earlier line is still waiting for its end); an unfinished last line is kept.
pub fn joined_lines(text: &str, escape: char, skip: impl Fn(&str, bool) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if skip(trimmed, !current.is_empty()) {
            continue;
        }
        match trimmed.strip_suffix(escape) {
            Some(head) => {
                current.push_str(head);
                current.push(' ');
            }
            None => {
                current.push_str(trimmed);
                out.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}
