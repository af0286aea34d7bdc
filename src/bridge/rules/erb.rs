//! Ruby embedded in YAML configuration (`config/database.yml`: `url: <%= ENV["DATABASE_URL"]
//! %>`, `config/secrets.yml`, `config/cable.yml`): the code of its `<% … %>` tags is read as
//! one Ruby block, so the Ruby rules (environment reads) run on it.

use super::grammar::Grammar;
use super::sfc::Block;

/// The Ruby code of a YAML file's ERB tags, if it is a YAML file that has any.
pub fn ruby_block(path: &str, text: &str) -> Option<Block<'static>> {
    let lower = path.to_ascii_lowercase();
    let yaml = [".yml", ".yaml", ".yml.erb", ".yaml.erb"]
        .iter()
        .any(|ext| lower.ends_with(ext));
    if !yaml || !text.contains("<%") {
        return None;
    }
    let mut code = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<%") {
        let tag = &rest[start + 2..];
        let Some(end) = tag.find("%>") else { break };
        // `<%=`, `<%-` and `<%#` (a comment, left out) open a tag too.
        let inner = &tag[..end];
        if !inner.starts_with('#') {
            code.push_str(inner.trim_start_matches(['=', '-']).trim_end_matches('-'));
            code.push('\n');
        }
        rest = &tag[end + 2..];
    }
    (!code.is_empty()).then_some(Block {
        grammar: Grammar::Ruby,
        text: code.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erb_tags_of_yaml_files_are_ruby() {
        let yaml = "production:\n  url: <%= ENV['DATABASE_URL'] %>\n  pool: <%= ENV.fetch(\"RAILS_MAX_THREADS\") { 5 } %>\n  <%# ENV['NOT_READ'] %>\n";
        let block = ruby_block("config/database.yml", yaml).unwrap();
        assert_eq!(
            block.text,
            " ENV['DATABASE_URL'] \n ENV.fetch(\"RAILS_MAX_THREADS\") { 5 } \n"
        );
        assert!(ruby_block("config/app.yml", "a: 1").is_none());
        assert!(ruby_block("app/views/x.html.erb", "<%= ENV['X'] %>").is_none());
    }
}
