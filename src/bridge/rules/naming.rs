//! Naming conventions frameworks derive names by: a model's table (`snake_plural` for Rails,
//! Laravel, GORM; `snake` for JPA's default physical naming), a resource's parameter.

/// `UserProfile` → `user_profile` (the snake case of TypeORM, SeaORM, JPA, GORM, Rails).
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (at, c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && at > 0 {
            let previous = chars[at - 1];
            let next_lower = chars.get(at + 1).is_some_and(|n| n.is_ascii_lowercase());
            if previous.is_ascii_lowercase()
                || previous.is_ascii_digit()
                || (previous.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// A field's column by the convention: `snake` for conventions that snake-case names,
/// `snake_id` for a relation's key column (`owner` → `owner_id`).
pub fn column_of(field: &str, naming: &str) -> String {
    match naming {
        "snake_id" => format!("{}_id", snake_case(field)),
        "camel_id" => format!("{field}Id"),
        _ if naming.starts_with("snake") => snake_case(field),
        _ => field.to_owned(),
    }
}

/// Words whose plural is not made by a rule.
const IRREGULAR: &[(&str, &str)] = &[
    ("person", "people"),
    ("man", "men"),
    ("woman", "women"),
    ("child", "children"),
    ("mouse", "mice"),
];
/// Words with no plural form of their own.
const UNCOUNTABLE: &[&str] = &[
    "equipment",
    "information",
    "rice",
    "money",
    "species",
    "series",
    "fish",
    "sheep",
    "news",
];

/// The English plural of a `snake_case` name's last word (`order_item` → `order_items`,
/// `category` → `categories`, `person` → `people`), as Rails, Laravel and GORM make it.
pub fn plural(name: &str) -> String {
    let (head, word) = last_word(name);
    let lower = word.to_ascii_lowercase();
    if UNCOUNTABLE.contains(&lower.as_str()) {
        return name.to_owned();
    }
    if let Some((_, many)) = IRREGULAR.iter().find(|(one, _)| *one == lower) {
        return format!("{head}{many}");
    }
    let consonant_y = lower.ends_with('y')
        && !lower.ends_with("ay")
        && !lower.ends_with("ey")
        && !lower.ends_with("oy")
        && !lower.ends_with("uy");
    let word = if consonant_y {
        format!("{}ies", &word[..word.len() - 1])
    } else if ["s", "x", "z", "ch", "sh"].iter().any(|end| lower.ends_with(end)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    };
    format!("{head}{word}")
}

/// A `snake_case` name's last word, after what comes before it (`order_` and `item`).
fn last_word(name: &str) -> (&str, &str) {
    name.rfind('_').map_or(("", name), |at| name.split_at(at + 1))
}

/// The singular of a plural `snake_case` name's last word (`categories` → `category`,
/// `people` → `person`, `articles` → `article`), for a nested resource's parameter.
pub fn singular(name: &str) -> String {
    let (head, word) = last_word(name);
    if let Some((one, _)) = IRREGULAR.iter().find(|(_, many)| *many == word) {
        return format!("{head}{one}");
    }
    let word = if let Some(stem) = word.strip_suffix("ies") {
        format!("{stem}y")
    } else if let Some(stem) = ["ses", "xes", "zes", "ches", "shes"].iter().find_map(|end| {
        word.strip_suffix(end)
            .map(|stem| format!("{stem}{}", &end[..end.len() - 2]))
    }) {
        stem
    } else if word.ends_with('s') && !word.ends_with("ss") && !UNCOUNTABLE.contains(&word) {
        word[..word.len() - 1].to_owned()
    } else {
        word.to_owned()
    };
    format!("{head}{word}")
}

/// A model's table by the convention a rule names (`#set! naming …`): `snake_plural`
/// (Rails, Laravel, GORM), `snake` (JPA, Flask-SQLAlchemy), `lower` (SQLModel), anything else
/// the name as written.
pub fn table_of(model: &str, convention: &str) -> String {
    match convention {
        "snake_plural" => plural(&snake_case(model)),
        "snake" => snake_case(model),
        "lower" => model.to_lowercase(),
        _ => model.to_owned(),
    }
}

/// A name made from a template a rule sets (`{}_id`, `{singular}_id`) and a written name:
/// `{}` is the name in snake case (a PHP `User::class` or `App\\Models\\User` by its class, a
/// Rust `Column::CakeId` by its last segment),
/// `{singular}` its singular.
pub fn fill(template: &str, written: &str) -> String {
    let name = written.strip_suffix("::class").unwrap_or(written);
    let name = snake_case(name.rsplit(['\\', ':']).next().unwrap_or(name));
    template.replace("{singular}", &singular(&name)).replace("{}", &name)
}

/// The table a `<name>_id` column refers to by the convention (`author_id` → `authors`).
pub fn table_of_key(column: &str) -> String {
    plural(column.strip_suffix("_id").unwrap_or(column))
}

/// A snake_case name in the case serde's `rename_all` names (`camelCase` is also TypeORM's join column rule).
pub fn renamed(name: &str, rename_all: Option<&str>) -> String {
    let words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
    let capital = |word: &str| {
        let mut chars = word.chars();
        chars
            .next()
            .map(|first| first.to_uppercase().chain(chars).collect::<String>())
            .unwrap_or_default()
    };
    match rename_all {
        Some("camelCase") => words
            .iter()
            .enumerate()
            .map(|(at, w)| if at == 0 { w.to_string() } else { capital(w) })
            .collect(),
        Some("PascalCase") => words.iter().map(|w| capital(w)).collect(),
        Some("kebab-case") => words.join("-"),
        Some("SCREAMING_SNAKE_CASE") | Some("UPPERCASE") => name.to_ascii_uppercase(),
        Some("lowercase") => name.to_ascii_lowercase(),
        _ => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_all_writes_the_wire_names() {
        assert_eq!(renamed("created_at", Some("camelCase")), "createdAt");
        assert_eq!(renamed("created_at", Some("PascalCase")), "CreatedAt");
        assert_eq!(renamed("created_at", Some("kebab-case")), "created-at");
        assert_eq!(renamed("created_at", Some("SCREAMING_SNAKE_CASE")), "CREATED_AT");
        assert_eq!(renamed("created_at", None), "created_at");
    }

    #[test]
    fn conventions() {
        assert_eq!(snake_case("OrderItem"), "order_item");
        assert_eq!(snake_case("APIKey"), "api_key");
        assert_eq!(snake_case("Order2Item"), "order2_item");
        assert_eq!(renamed("author_id", Some("camelCase")), "authorId");
        assert_eq!(renamed("billingAddress_id", Some("camelCase")), "billingAddressId");
        assert_eq!(snake_case("HTTPServer"), "http_server");
        assert_eq!(snake_case("userID"), "user_id");
        assert_eq!(table_of("OrderItem", "snake_plural"), "order_items");
        assert_eq!(table_of("Category", "snake_plural"), "categories");
        assert_eq!(table_of("Person", "snake_plural"), "people");
        assert_eq!(table_of("Address", "snake_plural"), "addresses");
        assert_eq!(table_of("Key", "snake_plural"), "keys");
        assert_eq!(table_of("PetType", "snake"), "pet_type");
        assert_eq!(table_of("HeroTeam", "lower"), "heroteam");
        assert_eq!(singular("categories"), "category");
        assert_eq!(singular("articles"), "article");
        assert_eq!(singular("addresses"), "address");
        assert_eq!(singular("people"), "person");
        assert_eq!(singular("news"), "news");
        assert_eq!(fill("{}_id", "User::class"), "user_id");
        assert_eq!(fill("{singular}_id", "articles"), "article_id");
        assert_eq!(fill("{}_type", "taggable"), "taggable_type");
        assert_eq!(table_of_key("author_id"), "authors");
        assert_eq!(fill("{}", "super::cake::Column::CakeId"), "cake_id");
    }
}
