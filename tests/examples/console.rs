//! A console example read as what a reader would type and see: each `$ ` line (continued by a
//! trailing `\`) is a command, split into words as a POSIX shell splits them, with leading
//! `NAME=value` words setting the environment and a last `< FILE` its standard input (as
//! `baton statusline < payload.json`); the lines up to the next `$ ` are its output.

/// One command of an example and the output shown under it.
#[derive(Debug, PartialEq)]
pub struct Step {
    /// The command as the page shows it (continuation lines joined).
    pub shown: String,
    /// Variables set before the program word.
    pub env: Vec<(String, String)>,
    /// The program and its arguments.
    pub words: Vec<String>,
    /// The file its standard input comes from (relative to the project), if any.
    pub stdin: Option<String>,
    /// The expected output lines.
    pub output: Vec<String>,
}

/// The steps of a console block's `body`; an error names what cannot be run.
pub fn steps(body: &[String]) -> Result<Vec<Step>, String> {
    let mut steps: Vec<Step> = Vec::new();
    let mut lines = body.iter();
    while let Some(line) = lines.next() {
        let Some(command) = line.strip_prefix("$ ") else {
            match steps.last_mut() {
                Some(step) => step.output.push(line.clone()),
                None => return Err(format!("output before any `$ ` command: {line:?}")),
            }
            continue;
        };
        let mut shown = command.to_owned();
        while shown.ends_with('\\') {
            let Some(next) = lines.next() else {
                return Err(format!("`{shown}` continues past the block's end"));
            };
            shown.push('\n');
            shown.push_str(next);
        }
        let mut words = split(&shown)?;
        let stdin = match words.iter().position(|w| w == "<") {
            None => None,
            Some(at) if at + 2 == words.len() => {
                let file = words.pop();
                words.pop();
                file
            }
            Some(_) => return Err(format!("`{shown}`: `<` takes one file, at the end")),
        };
        let assignments = words.iter().take_while(|w| is_assignment(w)).count();
        let env = words
            .drain(..assignments)
            .map(|w| {
                let (name, value) = w.split_once('=').unwrap();
                (name.to_owned(), value.to_owned())
            })
            .collect();
        steps.push(Step {
            shown,
            env,
            words,
            stdin,
            output: Vec::new(),
        });
    }
    Ok(steps)
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=')
        .is_some_and(|(name, _)| !name.is_empty() && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()))
}

/// `command` split into words: 'single' and "double" quotes, backslash escapes, and a
/// backslash before a newline joining lines; an unquoted `<` is a word of its own. Pipes,
/// output redirections and lists are refused: an example is one command.
fn split(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => words.extend(word.take()),
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(escaped) => word.get_or_insert_default().push(escaped),
            },
            '\'' => {
                let quoted = word.get_or_insert_default();
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => quoted.push(c),
                        None => return Err(format!("unclosed ' in `{command}`")),
                    }
                }
            }
            '"' => {
                let quoted = word.get_or_insert_default();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => quoted.push(c),
                            Some(c) => quoted.extend(['\\', c]),
                            None => return Err(format!("unclosed \" in `{command}`")),
                        },
                        Some(c) => quoted.push(c),
                        None => return Err(format!("unclosed \" in `{command}`")),
                    }
                }
            }
            '<' => {
                words.extend(word.take());
                words.push("<".to_owned());
            }
            '|' | '>' | ';' | '&' | '$' | '`' | '*' | '?' => {
                return Err(format!(
                    "`{command}`: `{c}` needs a shell; an example is one plain command"
                ));
            }
            c => word.get_or_insert_default().push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[test]
fn commands_split_as_a_shell_splits_them() {
    let body: Vec<String> = [
        "$ COLUMNS=90 baton window --top 3",
        "line one",
        "$ baton ctx output a b --file x \\",
        "    --data '{\"k\": [1, 2]}' --note \"say \\\"hi\\\"\"",
        "Version 2",
    ]
    .map(String::from)
    .to_vec();
    let steps = steps(&body).unwrap();
    assert_eq!(steps[0].env, vec![("COLUMNS".to_owned(), "90".to_owned())]);
    assert_eq!(steps[0].words, ["baton", "window", "--top", "3"]);
    assert_eq!(steps[0].output, ["line one"]);
    assert_eq!(
        steps[1].words,
        [
            "baton",
            "ctx",
            "output",
            "a",
            "b",
            "--file",
            "x",
            "--data",
            "{\"k\": [1, 2]}",
            "--note",
            "say \"hi\""
        ]
    );
    assert_eq!(steps[1].output, ["Version 2"]);
}

#[test]
fn standard_input_comes_from_a_last_file() {
    for command in ["$ baton statusline < payload.json", "$ baton statusline <payload.json"] {
        let step = &steps(&[command.to_owned()]).unwrap()[0];
        assert_eq!(step.words, ["baton", "statusline"]);
        assert_eq!(step.stdin.as_deref(), Some("payload.json"));
    }
}

#[test]
fn what_needs_a_shell_is_refused() {
    for command in [
        "$ baton statusline < a b",
        "$ baton x | head",
        "$ baton $HOME",
        "$ baton x > out",
    ] {
        assert!(steps(&[command.to_owned()]).is_err(), "{command}");
    }
    assert!(steps(&["output first".to_owned()]).is_err());
}
