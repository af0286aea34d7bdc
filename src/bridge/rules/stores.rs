//! Client stores from one file's hits: a `store.name` is a store (`#set! kind`), and so is a
//! `store.var` (the variable it is bound to) when no hit names the same `store.scope`; hits
//! about one scope are one store, and keys (`store.key`) captured inside it are its keys. A
//! store made by calling `store.callee` is one only if the file imports that name
//! (`store.import`); one made from a `store.creator` only if that argument is, through the
//! calls that pass their first argument on (`wrap.outer`, `wrap.inner`), a state creator
//! (`state.scope`), whose `state.key`s are its keys. The named function (`function.name`, `function.scope`) around a
//! `store.provider` is the store's provider, the keys of the value it provides its keys; the
//! one around a `store.hook` is its hook.

use std::ops::Range;

use super::hits::{Hit, inside};
use super::scopes;
use super::text::literal;
use crate::bridge::facts::StateStore;

/// The stores of one file's hits, each with the keys found inside its definition.
pub fn stores(path: &str, hits: &[Hit<'_>]) -> Vec<StateStore> {
    let imports: Vec<&str> = hits
        .iter()
        .flat_map(|hit| hit.all("store.import"))
        .map(|c| c.text)
        .collect();
    let named: Vec<&Range<usize>> = hits
        .iter()
        .filter(|hit| hit.get("store.name").is_some())
        .filter_map(|hit| Some(&hit.get("store.scope")?.range))
        .collect();
    let mut stores: Vec<(Option<Range<usize>>, StateStore)> = Vec::new();
    for hit in hits {
        if hit
            .text("store.callee")
            .is_some_and(|callee| !imports.contains(&callee))
        {
            continue;
        }
        let state = match hit.get("store.creator").map(|creator| state_of(hits, &creator.range)) {
            // Made from what is no state creator: no store.
            Some(None) => continue,
            state => state.flatten(),
        };
        let scope = hit.get("store.scope").map(|scope| scope.range.clone());
        let name = match (hit.text("store.name"), hit.text("store.var")) {
            (Some(name), _) => name,
            (None, Some(var)) if !scope.as_ref().is_some_and(|scope| named.contains(&scope)) => var,
            _ => continue,
        };
        if scope.is_some() && stores.iter().any(|(have, _)| *have == scope) {
            continue;
        }
        let mut store = StateStore {
            name: literal(name),
            kind: hit.prop("kind").unwrap_or(hit.framework()).to_owned(),
            file: path.to_owned(),
            ..StateStore::default()
        };
        for key in state.into_iter().flatten() {
            add_key(&mut store, key);
        }
        stores.push((scope, store));
    }
    // A provider's keys are its store's, not those of a scope around it.
    for key in hits
        .iter()
        .filter(|hit| hit.get("store.provider").is_none())
        .flat_map(|hit| hit.all("store.key"))
    {
        let holder = stores
            .iter_mut()
            .filter(|(scope, _)| scope.as_ref().is_some_and(|s| inside(&key.range, s)))
            .max_by_key(|(scope, _)| scope.as_ref().map(|s| s.start));
        if let Some((_, store)) = holder {
            add_key(store, key.text);
        }
    }
    let mut stores: Vec<StateStore> = stores.into_iter().map(|(_, store)| store).collect();
    provided(hits, &mut stores);
    stores
}

/// How many calls deep a store's creator is followed to its state.
const MAX_WRAPPERS: usize = 8;

/// The keys of the state a store's creator at `creator` is, followed through the calls that
/// wrap it; `None` if it is no state creator.
fn state_of<'t>(hits: &[Hit<'t>], creator: &Range<usize>) -> Option<Vec<&'t str>> {
    let mut at = creator.clone();
    for _ in 0..MAX_WRAPPERS {
        let states: Vec<&Hit<'t>> = hits
            .iter()
            .filter(|hit| hit.get("state.scope").is_some_and(|scope| scope.range == at))
            .collect();
        if !states.is_empty() {
            return Some(in_order(states.into_iter(), "state.key"));
        }
        let wrap = hits
            .iter()
            .find(|hit| hit.get("wrap.outer").is_some_and(|outer| outer.range == at))?;
        at = wrap.get("wrap.inner")?.range.clone();
    }
    None
}

/// Fills in each store's provider and hook: the named functions around the elements that
/// provide it and the calls that read it (a hook's name starts with the pattern's `#set!
/// function-prefix`). The keys are those of the first provider that names any.
fn provided(hits: &[Hit<'_>], stores: &mut [StateStore]) {
    let functions: Vec<(&Range<usize>, &str)> = hits
        .iter()
        .filter_map(|hit| Some((&hit.get("function.scope")?.range, hit.text("function.name")?)))
        .collect();
    let around = |at: &Range<usize>| scopes::around(functions.iter().map(|&function| (function.0, function)), at);
    // Where each store's keys were provided.
    let mut keys_from: Vec<Option<Range<usize>>> = vec![None; stores.len()];
    for hit in hits {
        let Some(provider) = hit.get("store.provider") else {
            continue;
        };
        let Some(at) = stores.iter().position(|store| store.name == provider.text) else {
            continue;
        };
        let (Some((scope, function)), Some(store)) = (around(&provider.range), stores.get_mut(at)) else {
            continue;
        };
        store.provider.get_or_insert_with(|| function.to_owned());
        let mut keys: Vec<&str> = hit.all("store.key").map(|key| key.text).collect();
        if let Some(value) = hit.text("store.value") {
            keys.extend(bound_keys(hits, value, scope));
        }
        let first = store.keys.is_empty() || keys_from[at].as_ref() == Some(&provider.range);
        if first && !keys.is_empty() {
            keys.into_iter().for_each(|key| add_key(store, key));
            keys_from[at] = Some(provider.range.clone());
        }
    }
    for hit in hits {
        let Some(hook) = hit.get("store.hook") else { continue };
        let Some(store) = stores.iter_mut().find(|store| store.name == hook.text) else {
            continue;
        };
        if let Some((_, function)) = around(&hook.range)
            && function.starts_with(hit.prop("function-prefix").unwrap_or(""))
        {
            store.hook.get_or_insert_with(|| function.to_owned());
        }
    }
}

/// The keys of the first variable named `name` inside `scope` bound to an object
/// (`binding.name`, `binding.key`), in their order.
fn bound_keys<'t>(hits: &[Hit<'t>], name: &str, scope: &Range<usize>) -> Vec<&'t str> {
    let bindings = hits.iter().filter_map(|hit| {
        let binding = hit.get("binding.name")?;
        (binding.text == name && inside(&binding.range, scope)).then_some((binding.range.start, hit))
    });
    let Some(first) = bindings.clone().map(|(start, _)| start).min() else {
        return Vec::new();
    };
    let at_first = bindings.filter(|(start, _)| *start == first).map(|(_, hit)| hit);
    in_order(at_first, "binding.key")
}

/// The texts of the `name` captures of `hits`, in the file's order, each place once.
fn in_order<'h, 't: 'h>(hits: impl Iterator<Item = &'h Hit<'t>>, name: &str) -> Vec<&'t str> {
    let mut keys: Vec<(usize, &'t str)> = hits
        .flat_map(|hit| hit.all(name).map(|key| (key.range.start, key.text)))
        .collect();
    keys.sort_by_key(|(start, _)| *start);
    keys.dedup();
    keys.into_iter().map(|(_, key)| key).collect()
}

fn add_key(store: &mut StateStore, key: &str) {
    let key = literal(key);
    if !store.keys.contains(&key) {
        store.keys.push(key);
    }
}

#[cfg(test)]
mod tests {
    use crate::bridge::facts::StateStore;
    use crate::bridge::source::Source;

    fn stores(path: &str, text: &str) -> Vec<StateStore> {
        crate::bridge::rules::extract(&[Source { path, text }]).state
    }

    fn line(store: &StateStore) -> String {
        format!(
            "{} ({}): {} provider {} hook {}",
            store.name,
            store.kind,
            store.keys.join(", "),
            store.provider.as_deref().unwrap_or("-"),
            store.hook.as_deref().unwrap_or("-")
        )
    }

    #[test]
    fn zustand_creators_are_followed_through_middlewares_of_imported_functions_only() {
        let text = "import { create as make } from 'zustand';\n\
            import { persist, devtools, combine } from 'zustand/middleware';\n\
            export const useCart = make<Cart>()(devtools(persist((set) => ({ items: [], add: () => set((s) => ({ n: 1 })) }), { name: 'cart' })));\n\
            export const useCount = make(combine({ count: 0 }, (set) => ({ inc: () => set({}) })));\n\
            export const useLater = make(persist(creator, { name: 'x' }));\n\
            export const other = create((set) => ({ nope: 1 }));\n";
        let found: Vec<String> = stores("src/stores.ts", text).iter().map(line).collect();
        assert_eq!(
            found,
            [
                "useCart (zustand): items, add provider - hook -",
                "useCount (zustand): count, inc provider - hook -",
            ]
        );
    }

    #[test]
    fn a_slice_without_a_name_is_named_by_its_variable_and_computed_keys_are_left_out() {
        let text = "const todos = createSlice({ initialState: [], reducers: { add() {}, 'clear-all': (s) => s, [other.type]: (s) => s } });\n\
            const api = createApi({ reducerPath: 'pokemon', endpoints: (build) => { return { byName: build.query() }; } });\n";
        let found: Vec<String> = stores("src/store.js", text).iter().map(line).collect();
        assert_eq!(
            found,
            [
                "todos (redux-slice): add, clear-all provider - hook -",
                "pokemon (rtk-query): byName provider - hook -",
            ]
        );
    }

    #[test]
    fn a_context_has_the_provider_around_its_element_the_keys_it_provides_and_its_hook() {
        let text = "const Theme = createContext(null);\n\
            export const ThemeProvider = ({ children }) => {\n\
              const value = useMemo(() => ({ theme, toggle }), [theme]);\n\
              return <Theme value={value}>{items.map((i) => <Theme.Provider value={{ item: i }}>{i}</Theme.Provider>)}</Theme>;\n\
            };\n\
            export function Page() { return use(Theme); }\n\
            export function useTheme() { return use(Theme); }\n";
        let found: Vec<String> = stores("src/theme.jsx", text).iter().map(line).collect();
        assert_eq!(
            found,
            ["Theme (react-context): theme, toggle provider ThemeProvider hook useTheme"]
        );
    }
}
