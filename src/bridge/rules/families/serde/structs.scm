; framework: serde
; language: rust
; needles: Serialize | Deserialize
; Rust structs that derive serde's `Serialize`/`Deserialize`: the bodies a handler takes or
; returns as `Json<T>` (linking keeps those the run's endpoints name, `rules/shapes.rs`).
; Field names are the ones on the wire (`#[serde(rename_all = …)]` on the struct,
; `#[serde(rename = …)]` on a field); `Option<T>` fields and `#[serde(default)]` ones are
; optional, `skip`ped and `flatten`ed ones no fields; a field of a generic parameter's type
; has the parameter's default (`struct Body<T = Article> { article: T }` holds an `Article`).

((attribute_item
  (attribute (identifier) @_derive arguments: (token_tree) @_traits))
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  (struct_item name: (type_identifier) @shape.name) @shape.scope
  (#eq? @_derive "derive")
  (#match? @_traits "\\b(Serialize|Deserialize)\\b")
  (#set! kind "serde"))

((attribute_item
  (attribute
    (identifier) @_serde
    arguments: (token_tree (identifier) @_key . (string_literal) @shape.rename_all)))
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  (struct_item name: (type_identifier) @shape.name)
  (#eq? @_serde "serde")
  (#eq? @_key "rename_all"))

(struct_item
  type_parameters: (type_parameters
    (type_parameter name: (type_identifier) @shape.param default_type: (_) @shape.default)))

(field_declaration
  name: (field_identifier) @field.name
  type: (_) @field.type)

((field_declaration
  name: (field_identifier) @field.name
  type: (_) @_type)
  (#match? @_type "^Option\\s*<")
  (#set! optional "true"))

((attribute_item
  (attribute (identifier) @_serde arguments: (token_tree) @_args))
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  (field_declaration name: (field_identifier) @field.name)
  (#eq? @_serde "serde")
  (#match? @_args "[(,]\\s*default\\s*[,)]")
  (#set! optional "true"))

((attribute_item
  (attribute (identifier) @_serde arguments: (token_tree) @_args)) @field.skip
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  (field_declaration name: (field_identifier) @field.name)
  (#eq? @_serde "serde")
  (#match? @_args "[(,]\\s*(skip|flatten)\\s*[,)]"))

((attribute_item
  (attribute
    (identifier) @_serde
    arguments: (token_tree (identifier) @_key . (string_literal) @field.rename)))
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  (field_declaration name: (field_identifier) @field.name)
  (#eq? @_serde "serde")
  (#eq? @_key "rename"))
