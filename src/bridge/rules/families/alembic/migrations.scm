; framework: alembic
; language: python
; needles: alembic
; inherits: sqlalchemy/columns
; Alembic migrations (`rules/alembic.rs` reads `upgrade()` from them; `downgrade()` undoes
; it and is never read): the `revision`/`down_revision` ids that order them; the file's
; functions, the calls `upgrade()` makes to them and its
; `op.<operation>(…)` calls with their arguments (`batch_op.<operation>(…)` inside `with
; op.batch_alter_table("t") as batch_op:`), the `Column(…)`s and constraints they hold, the
; SQL of `op.execute(…)`, the table constraints among a table's columns.

; revision = "ae1027a6acf", down_revision = "…" (or a tuple of ids, or None)
((module (expression_statement (assignment left: (identifier) @_id right: (string) @revision.id)))
  (#eq? @_id "revision"))

((module
  (expression_statement
    (assignment left: (identifier) @_down right: [(string) @revision.down (tuple (string) @revision.down) (list (string) @revision.down)])))
  (#eq? @_down "down_revision"))

; def upgrade(): …, def create_users_table(): …
((module
  [(function_definition name: (identifier) @migration.function) @migration.body
   (decorated_definition definition: (function_definition name: (identifier) @migration.function) @migration.body)]))

; create_tables(): a call to a function of the file; *timestamps(): its columns in a table's
(call function: (identifier) @migration.helper)

(list_splat (call function: (identifier) @migration.splat))

; op.create_table("users", sa.Column(…), …, schema="s"), batch_op.create_index(op.f("ix"), ["a"]):
; an operation, its positional arguments (strings, `op.f("name")`, lists, columns; one match
; each, their order is their place) and keywords
((call
  function: (attribute object: (identifier) @change.receiver attribute: (identifier) @change.op)
  arguments: [
    (argument_list)
    (argument_list
      [(string) (concatenated_string) (call) (list) (tuple) (identifier) (attribute) (subscript) (integer) (none)
       (true) (false)] @change.arg)
    (argument_list (keyword_argument name: (identifier) @change.key value: (_) @change.value))
    (argument_list
      .
      [(string (string_content) @change.sql)
       (call arguments: (argument_list . (string (string_content) @change.sql)))])]) @change.call
  (#any-of? @change.op
    "create_table" "drop_table" "rename_table" "add_column" "drop_column" "alter_column"
    "create_index" "drop_index" "create_foreign_key" "create_unique_constraint"
    "create_primary_key" "drop_constraint" "execute"))

; with op.batch_alter_table("item") as batch_op: …
((with_statement
  (with_clause
    (with_item
      value: (as_pattern
        (call
          function: (attribute attribute: (identifier) @_batch)
          arguments: (argument_list . (string) @batch.table))
        alias: (as_pattern_target (identifier) @batch.alias))))) @batch.scope
  (#eq? @_batch "batch_alter_table"))

; sa.Column("id", sa.Integer(), nullable=False): a column (nullable unless said otherwise)
((call function: (_) @_column) @column.scope
  (#match? @_column "(^|\\.)Column$")
  (#set! nullable "true"))

; sa.PrimaryKeyConstraint("id"), sa.ForeignKeyConstraint(["owner_id"], ["user.id"], name="fk"),
; sa.UniqueConstraint("email") among a table's columns: read as operations are
((call
  function: (_) @change.op
  arguments: [
    (argument_list [(string) (list) (tuple)] @change.arg)
    (argument_list (keyword_argument name: (identifier) @change.key value: (_) @change.value))]) @change.call
  (#match? @change.op "(^|\\.)(PrimaryKeyConstraint|ForeignKeyConstraint|UniqueConstraint)$"))
