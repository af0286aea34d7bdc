; framework: django
; language: python
; needles: django | models.Model | AUTH_USER_MODEL
; Django models as tables: every class with a base is a table (`django_models.rs` keeps those
; whose bases lead to `models.Model` and names them by their app); its field calls are
; columns (a relation's is `<field>_id`, a foreign key to the model it names), `unique=True`,
; `db_index=True` and a `OneToOneField` indexes, a `ManyToManyField` without `through=` a join
; table; `class Meta` names the table, its indexes and constraints. The app registry's
; `AppConfig` labels, `AUTH_USER_MODEL`, the names bound to the user model and another ORM's
; `models` imported are for `django_models.rs`.

; class Post(TimeStamped, models.Model): one hit per base
((class_definition
  name: (identifier) @table.model
  superclasses: (argument_list [
    (identifier) @table.parent @model.base
    (attribute attribute: (identifier) @table.parent) @model.base])) @table.scope
  (#not-eq? @table.model "Meta"))

; title = models.CharField(…), author = models.ForeignKey(…): a column (a relation's is
; `author_id`; a `OneToOneField`'s is unique), not null unless said otherwise
((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @column.field
        right: (call function: [(_) @_foreign (_) @_one (_) @_field] @column.type)) @column.scope)))
  (#match? @_foreign "(^|\\.)ForeignKey$")
  (#match? @_one "(^|\\.)OneToOneField$")
  (#match? @_field "Field$")
  (#not-match? @_field "(OneToOne|ManyToMany)Field$")
  (#set! @_foreign naming "snake_id")
  (#set! @_one naming "snake_id")
  (#set! @_one unique "true")
  (#set! type-text "python")
  (#set! nullable "false"))

; CharField(max_length=200, null=True, unique=True, primary_key=True, db_column="x"): one
; hit per keyword argument
((class_definition
  body: (block
    (expression_statement
      (assignment
        right: (call
          function: (_) @_kind
          arguments: (argument_list [
            (keyword_argument name: (identifier) @_null value: (_) @column.nullable)
            (keyword_argument name: (identifier) @_unique value: (_) @column.unique)
            (keyword_argument name: (identifier) @_primary value: (_) @column.primary)
            (keyword_argument name: (identifier) @_column value: (string) @column.name)
            (keyword_argument name: (identifier) @_length) @column.length]))) @column.scope)))
  (#match? @_kind "(Field|ForeignKey)$")
  (#not-match? @_kind "ManyToManyField$")
  (#eq? @_null "null")
  (#eq? @_unique "unique")
  (#eq? @_primary "primary_key")
  (#eq? @_column "db_column")
  (#eq? @_length "max_length"))

; ForeignKey(User, …), OneToOneField(to="blog.Post", to_field="slug"): the model its key points
; at (resolved at linking), the column it references
((class_definition
  body: (block
    (expression_statement
      (assignment
        right: (call
          function: (_) @_kind
          arguments: [
            (argument_list . [(identifier) (string) (call)] @fk.model)
            (argument_list . (attribute attribute: (identifier) @fk.model))
            (argument_list (keyword_argument name: (identifier) @_to value: [(identifier) (string) (call)] @fk.model))
            (argument_list (keyword_argument name: (identifier) @_to value: (attribute attribute: (identifier) @fk.model)))
            (argument_list (keyword_argument name: (identifier) @_to_field value: (string) @fk.references))])) @column.scope)))
  (#match? @_kind "(^|\\.)(ForeignKey|OneToOneField)$")
  (#eq? @_to "to")
  (#eq? @_to_field "to_field")
  (#set! fk-references "primary"))

; user = models.OneToOneField(…): an index on the column (unless it is the key)
((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @index.column
        right: (call function: (_) @_kind arguments: (_) @index.scope)))))
  (#match? @_kind "(^|\\.)OneToOneField$")
  (#not-match? @index.scope "primary_key\\s*=\\s*True")
  (#set! unique "true"))

; slug = models.SlugField(unique=True), label = models.CharField(db_index=True): an index on
; the column (unique if `unique=True`), none on a primary key
((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @index.column
        right: (call
          function: (_) @_kind
          arguments: [
            (argument_list (keyword_argument name: (identifier) @_unique value: (true) @index.unique))
            (argument_list (keyword_argument name: (identifier) @_db_index value: (true)))] @index.scope)))))
  (#match? @_kind "(Field|ForeignKey)$")
  (#not-match? @_kind "ManyToManyField$")
  (#not-match? @index.scope "primary_key\\s*=\\s*True")
  (#eq? @_unique "unique")
  (#eq? @_db_index "db_index"))

; tags = models.ManyToManyField("Tag", db_table="x"): a join table (none with `through=`), made
; at linking
((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @join.property
        right: (call
          function: (_) @_kind
          arguments: [
            (argument_list . [(identifier) (string) (call)] @join.other)
            (argument_list . (attribute attribute: (identifier) @join.other))
            (argument_list (keyword_argument name: (identifier) @_to value: [(identifier) (string) (call)] @join.other))
            (argument_list (keyword_argument name: (identifier) @_to value: (attribute attribute: (identifier) @join.other)))] @_args)) @join.scope)))
  (#match? @_kind "(^|\\.)ManyToManyField$")
  (#not-match? @_args "through\\s*=")
  (#eq? @_to "to"))

; its `db_table="x"`
((class_definition
  body: (block
    (expression_statement
      (assignment
        right: (call
          function: (_) @_kind
          arguments: (argument_list (keyword_argument name: (identifier) @_table value: (string) @join.table)))))))
  (#match? @_kind "(^|\\.)ManyToManyField$")
  (#eq? @_table "db_table"))

; class Meta: (a class saying only that is a model too)
((class_definition
  name: (identifier) @table.model
  body: (block (class_definition name: (identifier) @_meta) @model.meta)) @table.scope
  (#eq? @_meta "Meta"))

; Meta: db_table = "x"; abstract = True and app_label = "kanban" (for `django_models.rs`)
((class_definition
  name: (identifier) @table.model
  body: (block
    (class_definition
      name: (identifier) @_meta
      body: (block
        (expression_statement [
          (assignment left: (identifier) @_db_table right: (string) @table.name)
          (assignment left: (identifier) @_abstract right: (true) @model.abstract)
          (assignment left: (identifier) @_app_label right: (string) @model.app_label)]))))) @table.scope
  (#eq? @_meta "Meta")
  (#eq? @_db_table "db_table")
  (#eq? @_abstract "abstract")
  (#eq? @_app_label "app_label"))

; Meta: indexes = [models.Index(fields=["a"], name="x")], constraints =
; [models.UniqueConstraint(…)]: an index per entry (fields stand for their columns) on the
; class's table (not the `Meta` class's, which SQLAlchemy's rules take for a mixin)
((class_definition
  body: (block
    (class_definition
      name: (identifier) @_meta
      body: (block
        (expression_statement
          (assignment
            left: (identifier) @_list
            right: (_
              (call
                function: [(_) @_unique (_) @_index]
                arguments: [
                  (argument_list
                    (keyword_argument name: (identifier) @_fields value: (_ (string) @index.column))
                    (keyword_argument name: (identifier) @_name value: (string) @index.name)?)
                  (argument_list
                    (keyword_argument name: (identifier) @_name value: (string) @index.name)
                    (keyword_argument name: (identifier) @_fields value: (_ (string) @index.column)))]) @index.scope))))))) @table.scope
  (#eq? @_meta "Meta")
  (#any-of? @_list "indexes" "constraints")
  (#match? @_unique "(^|\\.)UniqueConstraint$")
  (#match? @_index "(^|\\.)Index$")
  (#eq? @_fields "fields")
  (#eq? @_name "name")
  (#set! @_unique unique "true"))

; Meta: unique_together = (("a", "b"),), or the items of ("a", "b"): unique indexes
((class_definition
  body: (block
    (class_definition
      name: (identifier) @_meta
      body: (block
        (expression_statement
          (assignment
            left: (identifier) @_together
            right: [(_ (string) @index.column) @index.scope
                    (_ (_ (string) @index.column) @index.scope)])))))) @table.scope
  (#eq? @_meta "Meta")
  (#eq? @_together "unique_together")
  (#set! unique "true"))

; from tortoise import fields, models: the module's `models` (or `Model`) comes from another
; package than Django or the project's own modules, whose ORM names its tables by its rules
((import_from_statement
  module_name: (dotted_name) @model.foreign
  name: [(dotted_name) @_name (aliased_import alias: (identifier) @_name)])
  (#any-of? @_name "models" "Model")
  (#not-match? @model.foreign "^django"))

; User = get_user_model()
((module
  (expression_statement
    (assignment
      left: (identifier) @model.user_alias
      right: (call function: (_) @_get))))
  (#match? @_get "(^|\\.)get_user_model$"))

; class BoardsConfig(AppConfig): name = "project.boards"; label = "kanban"
((module
  (class_definition
    superclasses: (argument_list [(identifier) (attribute)] @_base)
    body: (block
      (expression_statement
        (assignment left: (identifier) @model.app_key right: (string (string_content) @model.app_value)))?)) @model.app)
  (#match? @_base "(^|\\.)AppConfig$")
  (#any-of? @model.app_key "name" "label"))

; AUTH_USER_MODEL = "accounts.Member"
((module
  (expression_statement
    (assignment left: (identifier) @_setting right: (string (string_content) @model.user_model))))
  (#eq? @_setting "AUTH_USER_MODEL")
  (#match? @model.user_model "\\."))
