; framework: modules
; language: javascript
; A script file's imports and exports, its top-level statements only (run on demand, one
; top-level statement at a time: `extract/code/modules/script.rs` keeps the bindings and
; resolves them across files).

; `import d from 's'`, `import * as m from 's'`, `import { a, b as c } from 's'`
(import_statement
  (import_clause
    [(identifier) @import.default
     (namespace_import (identifier) @import.module)
     (named_imports (import_specifier name: (_) @import.name alias: (_)? @import.local))])
  source: (string (string_fragment) @import.source))

; `const m = require('s')`, `const { a, b: c } = require('s')` (in a `const`, `let` or `var`)
((_
  (variable_declarator
    name: [(identifier) @import.module
           (object_pattern (shorthand_property_identifier_pattern) @import.name)
           (object_pattern (pair_pattern key: (_) @import.name value: (identifier) @import.local))]
    value: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string (string_fragment) @import.source)))))
  (#eq? @_require "require")
  (#set! require "true"))

; `export const a = 1`, `export function f`, `export class C`, `export default function f`
(export_statement
  "default"? @export.default
  declaration: [(function_declaration name: (_) @export.local)
                (generator_function_declaration name: (_) @export.local)
                (class_declaration name: (_) @export.local)
                (_ (variable_declarator name: (identifier) @export.local))])

; `export default x` (any other value is the module's own `default`)
(export_statement value: (_) @export.value)

; `export { a, b as c }`, `export { a as b } from 's'`
(export_statement
  (export_clause (export_specifier name: (_) @export.name alias: (_)? @export.as))
  source: (string (string_fragment) @export.source)?)

; `export * as ns from 's'`, `export * from 's'`
(export_statement
  (namespace_export (_) @export.namespace)
  source: (string (string_fragment) @export.source))

(export_statement "*" source: (string (string_fragment) @export.star))

; `module.exports = x`, `exports.a = b`, `module.exports.a = b`
(expression_statement
  (assignment_expression left: (member_expression) @export.target right: (_) @export.value))

; `module.exports = { a, b: c }`
((expression_statement
  (assignment_expression
    left: (member_expression) @_exports
    right: (object [(shorthand_property_identifier) @export.local
                    (pair key: (_) @export.as value: (_) @export.value)])))
  (#eq? @_exports "module.exports"))

; top-level constants and objects: `const a = …`, `export const a = …` (two patterns: as one
; alternation they cost five times as much to compile)
(_ (variable_declarator name: (identifier) @constant.name value: (_) @constant.value))

(export_statement
  declaration: (_ (variable_declarator name: (identifier) @constant.name value: (_) @constant.value)))
