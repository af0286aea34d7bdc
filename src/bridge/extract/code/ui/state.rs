//! Client state: Redux Toolkit slices (`createSlice` → name and actions), RTK Query APIs
//! (`createApi` → endpoints), `configureStore` reducers, Zustand stores (`create(…)` → state
//! keys, through `persist`/`devtools`/`immer` and the curried TypeScript form) and React
//! contexts (`createContext` → the provider component, its value's keys, the hook reading it).

use tree_sitter::Node;

use crate::bridge::extract::code::modules::script::ScriptModule;
use crate::bridge::extract::syntax::literal::{string, unwrap_parens};
use crate::bridge::extract::syntax::script::{arguments, keys, property};
use crate::bridge::extract::syntax::{Fields, NodeIndex, ParsedFile, Walk, named_children, walk, walk_clean};
use crate::bridge::facts::StateStore;

/// Zustand middleware whose first argument is the state creator.
const MIDDLEWARE: &[&str] = &["persist", "devtools", "immer", "subscribeWithSelector", "redux"];

/// How many wrappers deep a store's state creator is looked for.
const MAX_WRAPPERS: usize = 8;

/// How far up the function around a `<X.Provider>` is looked for.
const MAX_ANCESTORS: usize = 64;

/// Reads the slices, stores and contexts of one script file into `out`.
pub fn scan(file: &ParsedFile<'_>, index: &NodeIndex<'_>, module: &ScriptModule, out: &mut Vec<StateStore>) {
    let zustand: Vec<&str> = module
        .imports
        .iter()
        .filter(|(_, import)| import.source == "zustand" || import.source.starts_with("zustand/"))
        .map(|(local, _)| local.as_str())
        .collect();
    let mut contexts: Vec<StateStore> = Vec::new();
    index.each(&["variable_declarator"], |node| {
        if node.kind() != "variable_declarator" {
            return;
        }
        let (Some(name), Some(value)) = (file.field_text(node, "name"), node.field("value")) else {
            return;
        };
        let value = unwrap_parens(value);
        if value.kind() != "call_expression" {
            return;
        }
        let callee = file.field_text(value, "function").unwrap_or_default();
        let short = callee.rsplit('.').next().unwrap_or(callee);
        let store = |kind: &str, store_name: String, store_keys: Vec<String>| StateStore {
            name: store_name,
            kind: kind.to_owned(),
            keys: store_keys,
            file: file.path.to_owned(),
            ..StateStore::default()
        };
        let options = arguments(value).first().copied();
        match short {
            "createSlice" => {
                let Some(options) = options else { return };
                let slice = property(file, options, "name")
                    .and_then(|n| string(file, n))
                    .unwrap_or_else(|| name.to_owned());
                let reducers = property(file, options, "reducers")
                    .map(|r| object_keys(file, r))
                    .unwrap_or_default();
                out.push(store("redux-slice", slice, reducers));
            }
            "createApi" => {
                let Some(options) = options else { return };
                let path = property(file, options, "reducerPath")
                    .and_then(|p| string(file, p))
                    .unwrap_or_else(|| name.to_owned());
                let endpoints = property(file, options, "endpoints")
                    .map(|e| object_keys(file, e))
                    .unwrap_or_default();
                out.push(store("rtk-query", path, endpoints));
            }
            "configureStore" => {
                let reducers = options
                    .and_then(|o| property(file, o, "reducer"))
                    .map(|r| keys(file, r))
                    .unwrap_or_default();
                out.push(store("redux-store", name.to_owned(), reducers));
            }
            "createContext" => contexts.push(store("react-context", name.to_owned(), Vec::new())),
            _ => {
                if let Some(state) = zustand_state(file, value, &zustand) {
                    out.push(store("zustand", name.to_owned(), state));
                }
            }
        }
    });
    if !contexts.is_empty() {
        describe_contexts(file, &mut contexts);
        out.extend(contexts);
    }
}

/// The keys of an object literal, or of the object a `(create) => ({ … })` builder returns.
fn object_keys(file: &ParsedFile<'_>, node: Node<'_>) -> Vec<String> {
    let node = unwrap_parens(node);
    match node.kind() {
        "object" => keys(file, node),
        "arrow_function" | "function_expression" => returned_object(node).map(|o| keys(file, o)).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The object literal a function returns: its expression body or its `return { … }`.
fn returned_object(function: Node<'_>) -> Option<Node<'_>> {
    let body = unwrap_parens(function.field("body")?);
    if body.kind() == "object" {
        return Some(body);
    }
    named_children(body).into_iter().rev().find_map(|statement| {
        let value = unwrap_parens(statement.named_child(0)?);
        (statement.kind() == "return_statement" && value.kind() == "object").then_some(value)
    })
}

/// `create((set) => ({ … }))`, `create<T>()(persist((set) => ({ … }), { name }))`: the state keys.
fn zustand_state(file: &ParsedFile<'_>, call: Node<'_>, zustand: &[&str]) -> Option<Vec<String>> {
    if zustand.is_empty() {
        return None;
    }
    let function = call.field("function")?;
    // The curried form: `create<T>()(creator)`.
    let creator_call = if function.kind() == "call_expression" && arguments(function).is_empty() {
        function
    } else {
        call
    };
    let callee = creator_call.field("function")?;
    if !zustand.contains(&file.text(callee)) {
        return None;
    }
    let mut creator = *arguments(call).first()?;
    for _ in 0..MAX_WRAPPERS {
        creator = unwrap_parens(creator);
        match creator.kind() {
            "arrow_function" | "function_expression" => return returned_object(creator).map(|o| keys(file, o)),
            "call_expression" => {
                let name = file.field_text(creator, "function")?;
                let args = arguments(creator);
                creator = match name {
                    "combine" => {
                        let mut state = args.first().map(|initial| keys(file, *initial)).unwrap_or_default();
                        let actions = args.get(1).and_then(|f| returned_object(*f)).map(|o| keys(file, o));
                        state.extend(actions.unwrap_or_default());
                        return Some(state);
                    }
                    name if MIDDLEWARE.contains(&name) => *args.first()?,
                    _ => return None,
                };
            }
            _ => return None,
        }
    }
    None
}

/// Finds each context's provider component, the keys of the value it provides, and its hook.
fn describe_contexts(file: &ParsedFile<'_>, contexts: &mut [StateStore]) {
    walk(file.root(), |node| {
        match node.kind() {
            "jsx_opening_element" => {
                let tag = file.field_text(node, "name").unwrap_or_default();
                let Some(context) = contexts
                    .iter_mut()
                    .find(|c| tag.strip_suffix(".Provider").is_some_and(|name| name == c.name) || tag == c.name)
                else {
                    return Walk::Enter;
                };
                if let Some(function) = enclosing_function(node) {
                    context.provider = context.provider.take().or_else(|| function_name(file, function));
                    if context.keys.is_empty() {
                        context.keys = provided_keys(file, node, function);
                    }
                }
            }
            "call_expression" => {
                let callee = file.field_text(node, "function").unwrap_or_default();
                if !matches!(callee, "useContext" | "React.useContext" | "use") {
                    return Walk::Enter;
                }
                let Some(argument) = arguments(node).first().map(|a| file.text(*a)) else {
                    return Walk::Enter;
                };
                if let Some(context) = contexts.iter_mut().find(|c| c.name == argument)
                    && let Some(name) = enclosing_function(node).and_then(|f| function_name(file, f))
                    && name.starts_with("use")
                {
                    context.hook = context.hook.take().or(Some(name));
                }
            }
            _ => {}
        }
        Walk::Enter
    });
}

/// The keys of `value={{ … }}`, or of the object (or `useMemo(() => ({ … }))`) bound to the
/// name `value={name}` gives, in the same function.
fn provided_keys(file: &ParsedFile<'_>, opening: Node<'_>, function: Node<'_>) -> Vec<String> {
    let value = named_children(opening).into_iter().find_map(|attribute| {
        let mut parts = named_children(attribute).into_iter();
        (file.text(parts.next()?) == "value").then(|| parts.next()?.named_child(0))?
    });
    let Some(value) = value.map(unwrap_parens) else {
        return Vec::new();
    };
    match value.kind() {
        "object" => keys(file, value),
        "identifier" => {
            let name = file.text(value);
            let mut found = Vec::new();
            walk_clean(function, |node| {
                if node.kind() == "variable_declarator"
                    && found.is_empty()
                    && file.field_text(node, "name") == Some(name)
                    && let Some(bound) = node.field("value").map(unwrap_parens)
                {
                    found = match bound.kind() {
                        "object" => keys(file, bound),
                        "call_expression" => arguments(bound)
                            .first()
                            .map(|memo| object_keys(file, *memo))
                            .unwrap_or_default(),
                        _ => Vec::new(),
                    };
                }
            });
            found
        }
        _ => Vec::new(),
    }
}

fn enclosing_function(node: Node<'_>) -> Option<Node<'_>> {
    let mut current = node;
    for _ in 0..MAX_ANCESTORS {
        current = current.parent()?;
        if matches!(
            current.kind(),
            "function_declaration" | "arrow_function" | "function_expression"
        ) {
            // An inline callback (`items.map(i => …)`) belongs to the component around it.
            if function_name_node(current).is_some() {
                return Some(current);
            }
        }
    }
    None
}

fn function_name_node(function: Node<'_>) -> Option<Node<'_>> {
    if let Some(name) = function.field("name") {
        return Some(name);
    }
    let parent = function.parent()?;
    (parent.kind() == "variable_declarator")
        .then(|| parent.field("name"))
        .flatten()
}

fn function_name(file: &ParsedFile<'_>, function: Node<'_>) -> Option<String> {
    function_name_node(function).map(|name| file.text(name).to_owned())
}
