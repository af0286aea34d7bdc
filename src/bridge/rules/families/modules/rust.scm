; framework: modules
; language: rust
; A Rust file's top-level `use` declarations and string constants (`const BASE: &str = "/api";`),
; run on demand, one top-level item at a time (`extract/code/modules/rust.rs` reads the use
; trees, `constants.rs` the constants).

(use_declaration argument: (_) @use.tree)

[(const_item name: (identifier) @constant.name value: (_) @constant.value)
 (static_item name: (identifier) @constant.name value: (_) @constant.value)]
