; framework: modules
; language: rust
; A Rust file's top-level string constants (`const BASE: &str = "/api";`), run on demand, one
; top-level item at a time (`extract/code/modules/constants.rs`).

[(const_item name: (identifier) @constant.name value: (_) @constant.value)
 (static_item name: (identifier) @constant.name value: (_) @constant.value)]
