; framework: python
; language: python
; needles: Service
; Classes named …Service and their public methods (names not starting with `_`).

; class UserService:
((class_definition
  name: (identifier) @service.name)
  (#match? @service.name "^.+Service$"))

; def list(self): …, and decorated ones (@staticmethod def get(): …)
((class_definition
  name: (identifier) @service.name
  body: (block
    [(function_definition name: (identifier) @service.method)
     (decorated_definition definition: (function_definition name: (identifier) @service.method))]))
  (#match? @service.name "^.+Service$")
  (#not-match? @service.method "^_"))
