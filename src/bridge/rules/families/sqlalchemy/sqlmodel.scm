; framework: sqlmodel
; language: python
; needles: sqlmodel
; SQLModel models: a `table=True` class is a table named by the class name in lower case
; (unless `__tablename__` names it); its annotated attributes, and those of the classes it
; extends (`inherit.rs`), are columns: `name: T`, `name: T = default`, `name: T = Field(…)`
; with `primary_key`, `nullable`, `unique`, `index`, `foreign_key="team.id"`, or
; `sa_column=Column(…)` (read as SQLAlchemy's); nullable if `Optional[…]`/`… | None`
; (`python_types`).
; Relationships and class variables are none.

; class Hero(SQLModel, table=True)
((class_definition
  name: (identifier) @table.model
  superclasses: (argument_list (keyword_argument name: (identifier) @_table value: (true)))) @table.scope
  (#eq? @_table "table")
  (#not-match? @table.scope "__abstract__\\s*=\\s*True")
  (#set! naming "lower"))

; name: str, age: int | None = None, id: int | None = Field(default=None, primary_key=True)
((class_definition
  superclasses: (argument_list)
  body: (block
    (expression_statement
      [(assignment left: (identifier) @column.field type: (type) @column.annotation !right)
       (assignment
         left: (identifier) @column.field
         type: (type) @column.annotation
         right: [
           (call function: (_) @_field)
           (string) (concatenated_string) (integer) (float) (true) (false) (none) (unary_operator)
           (identifier) (attribute) (list) (tuple) (dictionary) (set) (lambda)])] @column.scope)))
  (#not-match? @column.annotation "^(ClassVar|list\\[|List\\[|([A-Za-z_][A-Za-z_0-9]*\\.)*Mapped\\[)")
  (#not-match? @column.field "^__")
  (#match? @_field "(^|\\.)Field$")
  (#set! type-text "python")
  (#set! nullable "false"))

; Field(primary_key=True, nullable=False, unique=True, foreign_key="user.id")
((call
  function: (_) @_field
  arguments: (argument_list [
    (keyword_argument name: (identifier) @_nullable value: (_) @column.nullable)
    (keyword_argument name: (identifier) @_unique value: (_) @column.unique)
    (keyword_argument name: (identifier) @_primary value: (_) @column.primary)
    (keyword_argument name: (identifier) @_foreign_key value: (string) @fk.table)]))
  (#match? @_field "(^|\\.)Field$")
  (#eq? @_nullable "nullable")
  (#eq? @_unique "unique")
  (#eq? @_primary "primary_key")
  (#eq? @_foreign_key "foreign_key")
  (#set! fk-table "dotted"))

; owner_id: int = Field(foreign_key="user.id", index=True): an index on the column
((assignment
  left: (identifier) @index.column
  right: (call
    function: (_) @_field
    arguments: [
      (argument_list (keyword_argument name: (identifier) @_index value: (true)))
      (argument_list
        (keyword_argument name: (identifier) @_index value: (true))
        (keyword_argument name: (identifier) @_unique value: (_) @index.unique))
      (argument_list
        (keyword_argument name: (identifier) @_unique value: (_) @index.unique)
        (keyword_argument name: (identifier) @_index value: (true)))] @index.scope))
  (#match? @_field "(^|\\.)Field$")
  (#eq? @_index "index")
  (#eq? @_unique "unique"))
