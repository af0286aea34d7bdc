//! Client stores from one file's hits: a `store.name` is a store (`#set! kind`); keys
//! (`store.key`) captured inside a store's `store.scope` are its keys.

use std::ops::Range;

use super::hits::Hit;
use super::text::literal;
use crate::bridge::facts::StateStore;

/// The stores of one file's hits, each with the keys found inside its definition.
pub fn stores(path: &str, hits: &[Hit<'_>]) -> Vec<StateStore> {
    let mut stores: Vec<(Option<Range<usize>>, StateStore)> = hits
        .iter()
        .filter_map(|hit| {
            let store = StateStore {
                name: literal(hit.text("store.name")?),
                kind: hit.prop("kind").unwrap_or(hit.framework()).to_owned(),
                file: path.to_owned(),
                ..StateStore::default()
            };
            Some((hit.get("store.scope").map(|scope| scope.range.clone()), store))
        })
        .collect();
    for key in hits.iter().flat_map(|hit| hit.all("store.key")) {
        let holder = stores
            .iter_mut()
            .filter(|(scope, _)| {
                scope
                    .as_ref()
                    .is_some_and(|s| s.start <= key.range.start && key.range.end <= s.end)
            })
            .max_by_key(|(scope, _)| scope.as_ref().map(|s| s.start));
        if let Some((_, store)) = holder {
            let key = literal(key.text);
            if !store.keys.contains(&key) {
                store.keys.push(key);
            }
        }
    }
    stores.into_iter().map(|(_, store)| store).collect()
}
