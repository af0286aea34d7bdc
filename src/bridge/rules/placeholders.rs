//! `${NAME}` and `${NAME:default}` property placeholders (Spring's `application.yml`,
//! `@Value`): the names that read the environment are the upper-case ones (`${DATABASE_URL}`;
//! `${server.port}` names another property). Defaults may hold placeholders of their own.

/// The environment names `text`'s placeholders read, once each, in order.
pub fn env_names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (at, _) in text.match_indices("${") {
        let rest = &text[at + 2..];
        let end = rest.find([':', '}']).unwrap_or(rest.len());
        let name = rest[..end].trim();
        if is_env_name(name) && !names.iter().any(|have| have == name) {
            names.push(name.to_owned());
        }
    }
    names
}

/// `DATABASE_URL`, `PORT`, `S3_BUCKET`: upper case, digits and `_`, not starting with a digit.
fn is_env_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
        && name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upper_case_placeholders_are_env_names() {
        assert_eq!(
            env_names("${MYSQL_URL:jdbc:mysql://localhost/petclinic}"),
            ["MYSQL_URL"]
        );
        assert_eq!(env_names("\"${JWT_SECRET}\""), ["JWT_SECRET"]);
        assert_eq!(
            env_names("${DB_URL:${FALLBACK_URL}} ${DB_URL}"),
            ["DB_URL", "FALLBACK_URL"]
        );
        assert!(env_names("${server.port:8080} ${database} #{x} $HOME").is_empty());
        assert!(env_names("${").is_empty());
    }
}
