; framework: modules
; language: rust
; A Rust file's top-level string constants (`const BASE: &str = "/api";`), run on demand from
; the root (`extract/code/modules/constants.rs`).

(source_file
  [(const_item name: (identifier) @constant.name value: (_) @constant.value)
   (static_item name: (identifier) @constant.name value: (_) @constant.value)])
