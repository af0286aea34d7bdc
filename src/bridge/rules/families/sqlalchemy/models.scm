; framework: sqlalchemy
; language: python
; needles: __tablename__ | Table( | Column( | mapped_column | Mapped[ | SQLModel | .Model) | .Model,
; inherits: sqlalchemy/columns
; SQLAlchemy and Flask-SQLAlchemy models: a declarative class is a table named by its
; `__tablename__` (Flask-SQLAlchemy's `db.Model` without one: the class name in snake case;
; `__abstract__ = True`: none); any other class (a mixin, an abstract base) lends its columns
; to the classes extending it (`inherit.rs`). Its `Column(…)`/`mapped_column(…)` attributes and
; bare `Mapped[…]` annotations are columns (the type from the call, else from `Mapped[…]`;
; nullable unless `nullable=False`, a primary key or a `Mapped[…]` that is not `Optional`),
; `ForeignKey("t.id")`/`ForeignKey(Model.id)` their keys, `index=True` an index.
; `Table("name", metadata, Column("id", …), schema=…)` is a table too.

; class Order(Base): every class, a lender until a match says it is a table
((class_definition
  name: (identifier) @table.model
  superclasses: (argument_list [(identifier) @table.parent (attribute attribute: (identifier) @table.parent)])?) @table.scope
  (#set! origin "mapped-superclass")
  (#set! tentative "true"))

; __tablename__ = "orders"; a Flask-SQLAlchemy `db.Model` without one is `order_line`
([(class_definition
    body: (block
      (expression_statement
        (assignment left: (identifier) @_tablename right: (string) @table.name))))
  (class_definition
    name: (identifier) @table.model
    superclasses: (argument_list (attribute) @_model))] @table.scope
  (#eq? @_tablename "__tablename__")
  (#match? @_model "\\.Model$")
  (#not-match? @_model "^models\\.")
  (#not-match? @table.scope "__abstract__\\s*=\\s*True")
  (#set! @_model naming "snake"))

; __table_args__ = {"schema": "billing"}, or a tuple ending in one
((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @_args
        right: [
          (dictionary (pair key: (string) @_key value: (string) @table.schema))
          (tuple (dictionary (pair key: (string) @_key value: (string) @table.schema)) .)])))) @table.scope
  (#eq? @_args "__table_args__")
  (#match? @_key "^.schema.$")
  (#set! origin "mapped-superclass")
  (#set! tentative "true"))

; __table_args__ = (UniqueConstraint("a", "b", name="uq"), Index("ix_a", "a", unique=True), …):
; indexes on the table (attributes named stand for their columns)
((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @_args
        right: (tuple
          [(call
             function: (_) @_unique
             arguments: [
               (argument_list (string) @index.column)
               (argument_list
                 .
                 (string) @index.column
                 (keyword_argument name: (identifier) @_name value: (string) @index.name))] @index.scope)
           (call
             function: (_) @_index
             arguments: [
               (argument_list . (string) @index.name (string) @index.column)
               (argument_list
                 .
                 (string) @index.name
                 .
                 (string) @index.column
                 (keyword_argument name: (identifier) @_key value: (_) @index.unique))] @index.scope)])))))
  (#eq? @_args "__table_args__")
  (#match? @_unique "(^|\\.)UniqueConstraint$")
  (#match? @_index "(^|\\.)Index$")
  (#eq? @_name "name")
  (#eq? @_key "unique")
  (#set! @_unique unique "true"))

; id = Column(Integer, primary_key=True): nullable unless said otherwise or a primary key
((assignment
  left: (identifier) @column.field
  !type
  right: (call function: (_) @_column)) @column.scope
  (#match? @_column "(^|\\.)(Column|mapped_column)$")
  (#set! nullable "true"))

; email: Mapped[str] = mapped_column(String(320)), updated_at: Mapped[Optional[datetime]]:
; the type inside `Mapped[…]` (without `Optional`), nullable only if `Optional` (`python_types`)
([(assignment left: (identifier) @column.field type: (type) @column.annotation !right)
  (assignment
    left: (identifier) @column.field
    type: (type) @column.annotation
    right: (call function: (_) @_column))] @column.scope
  (#match? @column.annotation "^([A-Za-z_][A-Za-z_0-9]*\\.)*Mapped\\[")
  (#match? @_column "(^|\\.)(Column|mapped_column)$")
  (#set! type-text "python")
  (#set! nullable "false"))

; users = Table("users", metadata, Column("id", Integer, primary_key=True), …, schema="x")
((call
  function: (_) @_table
  arguments: (argument_list
    .
    (string) @table.name
    (call function: (_) @_column) @column.scope
    (keyword_argument name: (identifier) @_schema value: (string) @table.schema)?)) @table.scope
  (#match? @_table "(^|\\.)Table$")
  (#match? @_column "(^|\\.)Column$")
  (#eq? @_schema "schema")
  (#set! nullable "true"))

; email = mapped_column(String(320), index=True, unique=True): an index on the column (unique
; if the column is); Column("email", String, index=True) in a `Table(…)`
([(assignment
    left: (identifier) @index.column
    right: (call
      function: (_) @_column
      arguments: [
        (argument_list (keyword_argument name: (identifier) @_index value: (true)))
        (argument_list
          (keyword_argument name: (identifier) @_index value: (true))
          (keyword_argument name: (identifier) @_unique value: (_) @index.unique))
        (argument_list
          (keyword_argument name: (identifier) @_unique value: (_) @index.unique)
          (keyword_argument name: (identifier) @_index value: (true)))] @index.scope))
  (call
    function: (_) @_column
    arguments: [
      (argument_list . (string) @index.column (keyword_argument name: (identifier) @_index value: (true)))
      (argument_list
        .
        (string) @index.column
        (keyword_argument name: (identifier) @_index value: (true))
        (keyword_argument name: (identifier) @_unique value: (_) @index.unique))
      (argument_list
        .
        (string) @index.column
        (keyword_argument name: (identifier) @_unique value: (_) @index.unique)
        (keyword_argument name: (identifier) @_index value: (true)))] @index.scope)]
  (#match? @_column "(^|\\.)(Column|mapped_column)$")
  (#eq? @_index "index")
  (#eq? @_unique "unique"))
