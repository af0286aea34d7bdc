//! Nuxt's component names: the files under `components/` are registered with their folders as
//! a prefix (`components/media/Card.vue` is `<MediaCard>`; a prefix the file name already
//! starts with is not repeated: `components/icon/IconNuxt.vue` is `IconNuxt`); `app.vue` and
//! `error.vue` are the app's shell, not components.

use crate::bridge::facts::Facts;

/// Renames the `.vue` components of the Nuxt apps at `roots` by Nuxt's conventions and drops
/// their shell.
pub fn apply(facts: &mut Facts, roots: &[&str]) {
    facts.components.retain_mut(|component| {
        let Some(stem) = component.file.strip_suffix(".vue") else {
            return true;
        };
        let Some(rest) = roots.iter().find_map(|root| {
            let rest = if root.is_empty() {
                stem
            } else {
                stem.strip_prefix(root)?.strip_prefix('/')?
            };
            Some(rest.strip_prefix("app/").unwrap_or(rest))
        }) else {
            return true;
        };
        if rest == "app" || rest == "error" {
            return false;
        }
        if let Some(inside) = rest.strip_prefix("components/") {
            component.name = registered_name(inside);
        }
        true
    });
}

/// `media/Card` → `MediaCard`, `icon/IconNuxt` → `IconNuxt`, `base/button/index` → `BaseButton`.
fn registered_name(inside: &str) -> String {
    let mut dirs: Vec<&str> = inside.split('/').collect();
    let file = dirs.pop().filter(|file| *file != "index").unwrap_or_default();
    let mut prefix: Vec<String> = dirs.iter().flat_map(|dir| words(dir)).collect();
    let file_words = words(file);
    if let Some(first) = file_words.first() {
        // Nuxt drops the prefix from the first word the file name repeats.
        if let Some(at) = prefix.iter().position(|word| word.eq_ignore_ascii_case(first)) {
            prefix.truncate(at);
        }
    }
    prefix.into_iter().chain(file_words).collect()
}

/// A name's words, each capitalised: `base-ui` → `Base`, `Ui`; `IconNuxt3` → `Icon`, `Nuxt3`.
fn words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c == '-' || c == '_' || c == '.' {
            words.push(String::new());
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower || words.is_empty() {
            words.push(String::new());
        }
        if let Some(word) = words.last_mut() {
            if word.is_empty() {
                word.extend(c.to_uppercase());
            } else {
                word.push(c);
            }
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    words.retain(|word| !word.is_empty());
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_prefix_the_name_unless_the_file_repeats_them() {
        assert_eq!(registered_name("media/Card"), "MediaCard");
        assert_eq!(registered_name("icon/IconNuxt3"), "IconNuxt3");
        assert_eq!(registered_name("icon/IconTMDB"), "IconTMDB");
        assert_eq!(registered_name("carousel/AutoQuery"), "CarouselAutoQuery");
        assert_eq!(registered_name("base-ui/button/index"), "BaseUiButton");
        assert_eq!(registered_name("NavBar"), "NavBar");
    }
}
