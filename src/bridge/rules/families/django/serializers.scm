; framework: drf
; language: python
; needles: Serializer
; Django REST framework serializers: `class ArticleSerializer(serializers.ModelSerializer)`
; with its declared fields (`title = serializers.CharField(max_length=255)`) and the model
; fields its `Meta.fields` names; a field that is `read_only` or `required=False` (or a
; read-only kind) is optional in a request.

((class_definition
  name: (identifier) @shape.name
  superclasses: (argument_list [(identifier) (attribute)] @_base)) @shape.scope
  (#match? @_base "Serializer$")
  (#set! kind "drf")
  (#set! validation "true"))

((class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @field.name
        right: (call function: [(identifier) (attribute)] @field.type) @field.value))))
  (#match? @field.type "(Field|Serializer|Relation)$")
  (#set! type "call")
  (#set! optional-when "read_only=True|required=False|ReadOnlyField(|SerializerMethodField(|HiddenField("))

; class Meta: fields = ["id", "title"]
((class_definition
  name: (identifier) @_meta
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @_fields
        right: [(list (string) @field.name) (tuple (string) @field.name)]))))
  (#eq? @_meta "Meta")
  (#eq? @_fields "fields"))
