; The facts of a Prisma schema (tree-sitter-prisma-io), read by extract/prisma.rs. A model's
; matches name it as `@model`; a field's name it as `@field` too.

; A model or view: a table. Its block's statements that did not parse are recorded.
[
  (model_declaration (identifier) @model.name (statement_block) @model.body)
  (view_declaration (identifier) @model.name (statement_block) @model.body)
] @model

; `@@map("users")`, `@@schema("billing")`: the table's name and schema.
(_ (statement_block
  (block_attribute_declaration
    (call_expression (identifier) @_attribute (arguments) @model.map)))
  (#eq? @_attribute "map")) @model
(_ (statement_block
  (block_attribute_declaration
    (call_expression (identifier) @_attribute (arguments) @model.schema)))
  (#eq? @_attribute "schema")) @model

; `@@id([a, b])`, `@@unique([a, b], map: "x")`, `@@index(fields: [a], name: "x")`.
(_ (statement_block
  (block_attribute_declaration
    (call_expression (identifier) @model.key (arguments) @key.arguments)))
  (#any-of? @model.key "id" "unique" "index")) @model

; A field: its name, its type (`Int`, `Unsupported("…")`, without `[]`), `?` when optional.
(_ (statement_block
  (column_declaration
    . (identifier) @field.name
    (column_type . (_) @field.type (maybe)? @field.optional)) @field)) @model

; `@map("created_at")`: the field's column.
(_ (statement_block
  (column_declaration
    (attribute (call_expression (identifier) @_attribute (arguments) @field.map))) @field)
  (#eq? @_attribute "map")) @model

; `@id`, `@unique`, with or without arguments.
(_ (statement_block
  (column_declaration
    (attribute [(identifier) @field.key (call_expression . (identifier) @field.key)])) @field)
  (#any-of? @field.key "id" "unique")) @model

; `@relation(fields: [authorId], references: [id])`: a foreign key when the type is a model.
(_ (statement_block
  (column_declaration
    (attribute (call_expression (identifier) @_attribute (arguments) @field.relation))) @field)
  (#eq? @_attribute "relation")) @model

; `@db.VarChar(255)`: the native type, as written.
(_ (statement_block
  (column_declaration
    (attribute [
      (member_expression . (identifier) @_db)
      (call_expression . (member_expression . (identifier) @_db))
    ]) @field.native) @field)
  (#eq? @_db "db")) @model

; A composite type (`type Address { … }`): a field of that type is no relation.
(type_declaration (identifier) @composite (statement_block))

; An enum, its values and `@@map("…")` (the grammar has no block attributes in an enum: it
; reads one as an ERROR whose name is another).
(enum_declaration (identifier) @enum.name) @enum
(enum_declaration (enum_block (enumeral . (identifier) @enum.value))) @enum
(enum_declaration
  (enum_block (ERROR (ERROR) @_attribute . (string) @enum.map))
  (#eq? @_attribute "map")) @enum

; `env("DATABASE_URL")`: a variable the schema reads.
(call_expression
  . (identifier) @_function
  (arguments . (string) @env)
  (#eq? @_function "env"))

; A block never closed.
(_
  ["model" "view" "enum" "type"] @unclosed.kind
  (identifier) @unclosed.name
  [(statement_block (MISSING "}")) (enum_block (MISSING "}"))]) @unclosed
