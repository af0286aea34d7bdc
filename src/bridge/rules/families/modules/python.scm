; framework: modules
; language: python
; A Python file's import bindings, those inside functions too (app factories import their
; blueprints there), and its top-level string constants; run on demand
; (`extract/code/modules/python.rs` resolves the imports to files, `constants.rs` reads the rest).

; `from m import a, b as c`
((import_from_statement
  module_name: (_) @import.from
  name: [(dotted_name) @import.name
         (aliased_import name: (_) @import.name alias: (_) @import.local)]) @import.statement)

; `import a.b`, `import a.b as c`
((import_statement
  name: [(dotted_name) @import.module
         (aliased_import name: (_) @import.module alias: (_) @import.local)]) @import.statement)

; top-level constants (`API_PREFIX = "/api"`, `settings = Settings()`) and the attributes of
; top-level classes (`class Settings: API_V1_STR = "/api/v1"`); `code::modules::top_level`
; runs the file one top-level statement at a time
(expression_statement (assignment left: (identifier) @constant.name right: (_) @constant.value))

(class_definition
  name: (identifier) @constant.class
  body: (block
    (expression_statement (assignment left: (identifier) @constant.name right: (_) @constant.value))))
