; Shared by the SQLAlchemy models and the Alembic migrations: what a `Column(…)` (or
; `mapped_column(…)`) call says of the column whose `column.scope` holds it.

; Column("order_number", sa.String(32), sa.ForeignKey("users.id"), nullable=False, unique=True,
; primary_key=True, name="x", type_=Text): its name, type, constraints and keys
((call
  function: (_) @_column
  arguments: [
    (argument_list . (string) @column.name)
    (argument_list [(identifier) (attribute) (call)] @column.type)
    (argument_list
      (call
        function: (_) @_foreign_key
        arguments: (argument_list
          .
          [(string) @fk.table
           (attribute object: (_) @fk.model attribute: (identifier) @fk.references)
           (identifier) @fk.model])))
    (argument_list [
      (keyword_argument name: (identifier) @_nullable value: (_) @column.nullable)
      (keyword_argument name: (identifier) @_unique value: (_) @column.unique)
      (keyword_argument name: (identifier) @_primary value: (_) @column.primary)
      (keyword_argument name: (identifier) @_name value: (string) @column.name)
      (keyword_argument name: (identifier) @_type value: (_) @column.type)])])
  (#match? @_column "(^|\\.)(Column|mapped_column)$")
  (#not-match? @column.type "^([A-Za-z_][A-Za-z_0-9]*\\.)*ForeignKey\\(")
  (#match? @_foreign_key "(^|\\.)ForeignKey$")
  (#eq? @_nullable "nullable")
  (#eq? @_unique "unique")
  (#eq? @_primary "primary_key")
  (#eq? @_name "name")
  (#eq? @_type "type_")
  (#set! type-text "python")
  (#set! fk-table "dotted")
  (#set! fk-naming "snake"))
