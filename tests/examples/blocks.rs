//! The fenced code blocks of a Markdown page: their info string, where they start and their
//! lines, as CommonMark fences them (``` or ~~~, closed by the same marker).

/// One fenced block.
pub struct Block {
    /// The line of its opening fence, from 1.
    pub line: usize,
    /// The info string after the opening fence (`console`, `text`, or empty).
    pub info: String,
    /// The lines between the fences.
    pub body: Vec<String>,
}

impl Block {
    /// Whether the block is a console example: ```console, which the examples test runs.
    pub fn is_console(&self) -> bool {
        self.info.split([' ', ',']).next() == Some("console")
    }

    /// Whether the block shows a command typed at a prompt (its first line starts `$ `).
    pub fn shows_a_command(&self) -> bool {
        self.body.first().is_some_and(|l| l.starts_with("$ "))
    }
}

/// Every fenced block of `text`, in order.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut open: Option<(&str, Block)> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (open.take(), marker) {
            (None, Some(m)) => {
                let info = trimmed.trim_start_matches(m).trim().to_owned();
                let block = Block {
                    line: n + 1,
                    info,
                    body: Vec::new(),
                };
                open = Some((m, block));
            }
            (Some((m, block)), Some(closing)) if closing == m && trimmed.trim_start_matches(m).trim().is_empty() => {
                found.push(block);
            }
            (Some((m, mut block)), _) => {
                block.body.push(line.to_owned());
                open = Some((m, block));
            }
            (None, None) => {}
        }
    }
    found
}

#[test]
fn fences_open_and_close_with_the_same_marker() {
    let page = "text\n```console\n$ baton x\n~~~\nout\n```\n\n~~~\n$ y\n~~~\n";
    let found = blocks(page);
    assert_eq!(found.len(), 2);
    assert!(found[0].is_console() && found[0].shows_a_command());
    assert_eq!((found[0].line, found[0].body.len()), (2, 3));
    assert!(!found[1].is_console() && found[1].shows_a_command());
}
