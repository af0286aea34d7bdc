//! Go struct tags (`json:"name" binding:"required,email" env:"PORT"`): the value of a key, as
//! `reflect.StructTag.Get` reads it.

/// The value of `key` in a struct tag (the raw string with or without its backquotes).
pub fn get<'t>(tag: &'t str, key: &str) -> Option<&'t str> {
    let mut rest = tag.trim_matches('`');
    loop {
        rest = rest.trim_start();
        let colon = rest.find(':')?;
        let name = &rest[..colon];
        let value = rest[colon + 1..].strip_prefix('"')?;
        let end = value.find('"')?;
        if name == key {
            return Some(&value[..end]);
        }
        rest = &value[end + 1..];
    }
}

/// The first of a value's comma-separated options (`PORT,required` → `PORT`).
pub fn first(value: &str) -> &str {
    value.split(',').next().unwrap_or(value)
}

/// The `column:` setting of a GORM tag (`column:user_name;not null` → `user_name`).
pub fn gorm_column(tag: &str) -> Option<&str> {
    get(tag, "gorm")?
        .split(';')
        .find_map(|setting| setting.trim().strip_prefix("column:"))
}

/// The join table of a GORM `many2many:` setting (`many2many:article_tags;` → `article_tags`).
pub fn gorm_many2many(tag: &str) -> Option<&str> {
    get(tag, "gorm")?
        .split(';')
        .find_map(|setting| setting.trim().strip_prefix("many2many:"))
        .filter(|name| !name.is_empty())
}

/// True if a GORM tag marks the primary key (`primaryKey`, the older `primary_key`).
pub fn gorm_primary_key(tag: &str) -> bool {
    get(tag, "gorm").is_some_and(|value| {
        value
            .split(';')
            .any(|setting| matches!(setting.trim(), "primaryKey" | "primary_key"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_as_reflect_does() {
        let tag = r#"`json:"username" binding:"required,alphanum" env:"APP_USER,required"`"#;
        assert_eq!(get(tag, "binding"), Some("required,alphanum"));
        assert_eq!(get(tag, "env").map(first), Some("APP_USER"));
        assert_eq!(get(tag, "validate"), None);
        assert_eq!(gorm_column(r#"`gorm:"column:user_name;not null"`"#), Some("user_name"));
        assert_eq!(
            gorm_many2many(r#"`gorm:"many2many:article_tags;"`"#),
            Some("article_tags")
        );
        assert!(gorm_primary_key(r#"`gorm:"primaryKey;autoIncrement"`"#));
        assert_eq!(get("`broken", "json"), None);
    }
}
