; framework: rails
; language: ruby
; needles: create_table | add_column | add_reference | add_foreign_key | add_belongs_to
; paths: db/migrate | db/schema.rb
; ActiveRecord migrations and `db/schema.rb`: tables, their columns and keys.

; create_table :users do |t| … end, with the default primary key `id` unless `id: false`
((call
  !receiver
  method: (identifier) @_create
  arguments: [
    (argument_list . [(simple_symbol) (string)] @table.name)
    (argument_list . [(simple_symbol) (string)] @column.embedded) @_args]
  block: [(do_block) (block)]) @table.scope
  (#eq? @_create "create_table")
  (#not-match? @_args "id:\\s*false|:id\\s*=>\\s*false")
  (#set! origin "create")
  (#set! @_args columns "id")
  (#set! @_args primary "id"))

; t.string :name, null: false
((call
  receiver: (identifier)
  method: (identifier) @column.type
  arguments: (argument_list . [(simple_symbol) (string)] @column.name))
  (#any-of? @column.type
    "string" "text" "integer" "bigint" "smallint" "float" "decimal" "numeric" "datetime"
    "timestamp" "timestamptz" "time" "date" "binary" "blob" "boolean" "json" "jsonb" "uuid"
    "inet" "cidr" "citext" "hstore" "money" "interval" "enum" "virtual" "bit" "xml"))

; t.column :name, :string
((call
  receiver: (identifier)
  method: (identifier) @_column
  arguments: (argument_list . [(simple_symbol) (string)] @column.name . [(simple_symbol) (string)] @column.type))
  (#eq? @_column "column"))

; t.timestamps
((call
  receiver: (identifier)
  method: (identifier) @column.embedded)
  (#eq? @column.embedded "timestamps")
  (#set! columns "created_at updated_at"))

; t.references :org (a `polymorphic: true` one has a type column too); with `foreign_key: true`
; org_id references orgs; t.references :author, foreign_key: { to_table: :users }
((call
  receiver: (identifier)
  method: (identifier) @_ref
  arguments: [
    (argument_list . [(simple_symbol) (string)] @column.embedded) @_id
    (argument_list . [(simple_symbol) (string)] @column.embedded) @_polymorphic
    (argument_list . [(simple_symbol) (string)] @fk.column @fk.model) @_foreign_key
    (argument_list
      .
      [(simple_symbol) (string)] @fk.column
      (pair
        key: (hash_key_symbol) @_fk
        value: (hash (pair key: (hash_key_symbol) @_to value: [(simple_symbol) (string)] @fk.table))))])
  (#any-of? @_ref "references" "belongs_to")
  (#match? @_polymorphic "polymorphic:\\s*true")
  (#match? @_foreign_key "foreign_key:\\s*true")
  (#eq? @_fk "foreign_key")
  (#eq? @_to "to_table")
  (#set! @_id columns "{}_id")
  (#set! @_polymorphic columns "{}_type")
  (#set! @_foreign_key fk-column "{}_id")
  (#set! @_foreign_key naming "snake_plural")
  (#set! @fk.table fk-column "{}_id"))

; add_column :users, :bio, :string
((call
  !receiver
  method: (identifier) @_add
  arguments: (argument_list
    .
    [(simple_symbol) (string)] @table.name
    .
    [(simple_symbol) (string)] @column.name
    .
    [(simple_symbol) (string)] @column.type)) @table.scope
  (#eq? @_add "add_column")
  (#set! origin "alter"))

; add_reference :comments, :user, foreign_key: true
((call
  !receiver
  method: (identifier) @_add
  arguments: [
    (argument_list . [(simple_symbol) (string)] @table.name . [(simple_symbol) (string)] @column.embedded) @_id
    (argument_list . [(simple_symbol) (string)] @table.name . [(simple_symbol) (string)] @fk.column @fk.model) @_foreign_key]) @table.scope
  (#any-of? @_add "add_reference" "add_belongs_to")
  (#match? @_foreign_key "foreign_key:\\s*true")
  (#set! @_id columns "{}_id")
  (#set! @_foreign_key fk-column "{}_id")
  (#set! @_foreign_key naming "snake_plural")
  (#set! origin "alter"))

; add_foreign_key :comments, :articles (column article_id unless `column:` names one)
((call
  !receiver
  method: (identifier) @_add
  arguments: [
    (argument_list . [(simple_symbol) (string)] @table.name . [(simple_symbol) (string)] @fk.column @fk.table) @_args
    (argument_list
      .
      [(simple_symbol) (string)] @table.name
      .
      [(simple_symbol) (string)] @fk.table
      (pair key: (hash_key_symbol) @_column value: [(simple_symbol) (string)] @fk.column))]) @table.scope
  (#eq? @_add "add_foreign_key")
  (#not-match? @_args "column:")
  (#eq? @_column "column")
  (#set! @_args fk-column "{singular}_id")
  (#set! origin "alter"))

; what `def down` (or `def self.down`) does undoes the migration: no table is read from it
((method name: (identifier) @_down) @table.skip
  (#eq? @_down "down"))

((singleton_method name: (identifier) @_down) @table.skip
  (#eq? @_down "down"))
