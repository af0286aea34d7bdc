; framework: django
; language: python
; needles: django | models.Model | AUTH_USER_MODEL
; Django models as the ORM's linking reads them (`rules/django.rs`, `orm::django`): classes
; with their bases, field calls with their arguments, `class Meta`; the app registry's
; `AppConfig` labels and `AUTH_USER_MODEL`; another ORM's `models` imported.

; class Post(TimeStamped, models.Model): one hit per base
((class_definition
  name: (identifier) @model.class
  superclasses: (argument_list [(identifier) (attribute) (subscript) (call)] @model.base)) @model.scope
  (#not-eq? @model.class "Meta"))

; title = models.CharField(max_length=200, unique=True): one hit per keyword argument, and
; the first positional argument (the model a relation points at)
((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @model.field
        right: (call
          function: (_) @model.kind
          arguments: (argument_list
            . [(identifier) (attribute) (string) (call)]? @model.target
            (keyword_argument name: (identifier) @model.key value: (_) @model.value)?) @model.args))))) @model.scope
  (#match? @model.kind "(Field|ForeignKey)$"))

; class Meta: db_table = "x", abstract = True, app_label = "kanban"; the entries of
; indexes = [models.Index(fields=["a"], name="x")] and constraints = [models.UniqueConstraint(…)];
; the groups of unique_together = (("a", "b"),) (or the items of ("a", "b"))
((class_definition
  body: (block
    (class_definition
      name: (identifier) @_meta
      body: (block
        (expression_statement
          (assignment
            left: (identifier) @model.meta
            right: [
              (_
                (call
                  function: (_) @model.index
                  arguments: (argument_list
                    (keyword_argument
                      name: (identifier) @model.key
                      value: [(_ (string (string_content) @model.item)) (_)] @model.value))) @model.entry)
              (_ [(string (string_content) @model.item)
                  (_ (string (string_content) @model.item)) @model.group]) @model.together
              (_) @model.value])))))) @model.scope
  (#eq? @_meta "Meta")
  (#match? @model.index "(^|\\.)(Index|UniqueConstraint)$"))

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
