; framework: modules
; language: python
; A Python file's import bindings, those inside functions too (app factories import their
; blueprints there); run on demand, `extract/code/modules/python.rs` resolves them to files.

; `from m import a, b as c`
((import_from_statement
  module_name: (_) @import.from
  name: [(dotted_name) @import.name
         (aliased_import name: (_) @import.name alias: (_) @import.local)]) @import.statement)

; `import a.b`, `import a.b as c`
((import_statement
  name: [(dotted_name) @import.module
         (aliased_import name: (_) @import.module alias: (_) @import.local)]) @import.statement)
