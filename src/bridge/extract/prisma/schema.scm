; The facts of a Prisma schema (tree-sitter-prisma-io), read by extract/prisma.rs. A match is
; about the block (`{ … }`) it captures as `@block` and, inside it, the field or block
; attribute it captures as `@part`; a part that did not parse is recorded, not read.

; A model or view (a table), a composite type, an enum.
(model_declaration (identifier) @model (statement_block) @block)
(view_declaration (identifier) @model (statement_block) @block)
(type_declaration (identifier) @composite (statement_block) @block)
(enum_declaration (identifier) @enum (enum_block) @block)

; A block never closed.
(_
  ["model" "view" "enum" "type"] @unclosed
  [(statement_block (MISSING "}")) (enum_block (MISSING "}"))] @block)

; `@@map("users")`, `@@schema("billing")`: the table's name and schema.
(statement_block
  (block_attribute_declaration
    (call_expression
      (identifier) @_attribute
      (arguments . [(string) @map (type_expression (string) @map)])))
  (#eq? @_attribute "map")) @block
(statement_block
  (block_attribute_declaration
    (call_expression
      (identifier) @_attribute
      (arguments . [(string) @schema (type_expression (string) @schema)])))
  (#eq? @_attribute "schema")) @block

; An enum's values and `@@map("…")` (the grammar has no block attributes in an enum: it reads
; one as an ERROR whose name is another).
(enum_block (enumeral . (identifier) @value)) @block
(enum_block
  (ERROR (ERROR) @_attribute . (string) @map)
  (#eq? @_attribute "map")) @block

; `@@id([a, b])`, `@@unique([a, b(sort: Desc)])`, `@@index(fields: [a])`: a key, one match per
; field, and its name (`map:`, else `name:`).
(statement_block
  (block_attribute_declaration
    (call_expression
      (identifier) @key
      (arguments [
        (array [(identifier) @key.field (call_expression . (identifier) @key.field)])
        (type_expression
          (identifier) @_fields
          (array [(identifier) @key.field (call_expression . (identifier) @key.field)]))
      ]))) @part
  (#any-of? @key "id" "unique" "index")
  (#eq? @_fields "fields")) @block
(statement_block
  (block_attribute_declaration
    (call_expression (arguments (type_expression (identifier) @_key (string) @key.map)))) @part
  (#eq? @_key "map")) @block
(statement_block
  (block_attribute_declaration
    (call_expression (arguments (type_expression (identifier) @_key (string) @key.name)))) @part
  (#eq? @_key "name")) @block

; A field: its name, its type (`Int`, `Unsupported("…")`, without `[]`), `?` when optional.
(statement_block
  (column_declaration
    . (identifier) @field
    (column_type . (_) @type (maybe)? @optional)) @part) @block

; A field's column (`@map("created_at")`), `@id` and `@unique` (with or without arguments),
; native type as written (`@db.VarChar(255)`).
(statement_block
  (column_declaration
    (attribute
      (call_expression
        (identifier) @_attribute
        (arguments . [(string) @column (type_expression (string) @column)])))) @part
  (#eq? @_attribute "map")) @block
(statement_block
  (column_declaration
    (attribute [(identifier) @flag (call_expression . (identifier) @flag)])) @part
  (#any-of? @flag "id" "unique")) @block
(statement_block
  (column_declaration
    (attribute [
      (member_expression . (identifier) @_db)
      (call_expression . (member_expression . (identifier) @_db))
    ]) @native) @part
  (#eq? @_db "db")) @block

; `@relation(fields: [authorId], references: [id])`: a foreign key when the field's type is a
; model, one match per field and per field referenced.
(statement_block
  (column_declaration
    (attribute (call_expression (identifier) @relation))) @part
  (#eq? @relation "relation")) @block
(statement_block
  (column_declaration
    (attribute
      (call_expression
        (identifier) @_attribute
        (arguments
          (type_expression (identifier) @_key (array (identifier) @relation.field))))))
    @part
  (#eq? @_attribute "relation")
  (#eq? @_key "fields")) @block
(statement_block
  (column_declaration
    (attribute
      (call_expression
        (identifier) @_attribute
        (arguments
          (type_expression (identifier) @_key (array (identifier) @relation.reference))))))
    @part
  (#eq? @_attribute "relation")
  (#eq? @_key "references")) @block

; A line of a block that did not parse.
(statement_block (ERROR) @part) @block

; `env("DATABASE_URL")`: a variable the schema reads.
(call_expression
  . (identifier) @_function
  (arguments . (string) @env)
  (#eq? @_function "env"))
