; framework: diesel
; language: rust
; needles: table!
; Diesel schemas: `table! { schema.name (pk) { column -> Type, … } }` (the key `id` unless
; named; `#[sql_name = "…"]` renames a table or a column; `Nullable<…>` columns may be null),
; and `joinable!(child -> parent (fk))` foreign keys to the parent's key.

; books (isbn) { … }, lending.loans (id) { … }, users { … }
((macro_invocation
  macro: [(identifier) @_table (scoped_identifier name: (identifier) @_table)]
  (token_tree
    (identifier) @table.model
    .
    (token_tree)?
    .
    (token_tree) @table.scope
    .))
  (#eq? @_table "table")
  (#set! key "id"))

; the schema, a #[sql_name = "book_loans"]
((macro_invocation
  macro: [(identifier) @_table (scoped_identifier name: (identifier) @_table)]
  (token_tree
    [(token_tree (identifier) @_sql . (string_literal) @table.name)
     ((identifier) @table.schema . "." . (identifier))]
    (token_tree) @table.scope
    .))
  (#eq? @_table "table")
  (#eq? @_sql "sql_name"))

; the key columns: (isbn), (book_id, author_id) (the first three, anchored: an unanchored
; identifier would start a match at every token of the columns)
((macro_invocation
  macro: [(identifier) @_table (scoped_identifier name: (identifier) @_table)]
  (token_tree
    (identifier)
    .
    [(token_tree . (identifier) @table.key)
     (token_tree . (identifier) . (identifier) @table.key)
     (token_tree . (identifier) . (identifier) . (identifier) @table.key)]
    .
    (token_tree) @table.scope
    .))
  (#eq? @_table "table"))

; name -> Varchar, born -> Nullable<Date>, tags -> Array<Nullable<Text>> (the type is the
; tokens up to the comma: a repetition that cannot cross one, each column's match its own)
((token_tree
  (identifier) @column.field @column.scope
  .
  "->"
  .
  [(identifier) "<" ">" ">>" "::"]+ @column.type)
  (#set! nullable "false")
  (#set! nullable-type "Nullable"))

; #[sql_name = "borrowed_at"] borrowed -> Timestamptz
((token_tree
  (token_tree (identifier) @_sql . (string_literal) @column.name)
  .
  (identifier) @column.scope
  .
  "->")
  (#eq? @_sql "sql_name"))

; joinable!(books -> authors (author_id))
((macro_invocation
  macro: [(identifier) @_joinable (scoped_identifier name: (identifier) @_joinable)]
  (token_tree
    (identifier) @fk.of
    .
    "->"
    .
    (identifier) @fk.model
    .
    (token_tree (identifier) @fk.column)))
  (#eq? @_joinable "joinable")
  (#set! fk-references "primary"))
