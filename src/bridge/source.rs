//! One file the extractors read: its path relative to the work tree's top, and its text.

/// One file to extract from: its path relative to the work tree's top (with `/`), and its text.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

impl Source<'_> {
    /// The file's name: the path's last component.
    pub fn file_name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(self.path)
    }

    /// The file's extension in lower case (`""` when it has none).
    pub fn extension(&self) -> String {
        match self.file_name().rsplit_once('.') {
            Some((stem, ext)) if !stem.is_empty() => ext.to_ascii_lowercase(),
            _ => String::new(),
        }
    }
}
