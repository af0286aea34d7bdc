; framework: react
; language: javascript
; needles: export * | export {
; Components re-exported from other files (`rules/links.rs`): `export * from './Button'`,
; `export { Button, default as Avatar } from './Button'` (a PascalCase name the source file
; exports as a component, or that reads like one).

((export_statement
  (export_clause
    (export_specifier name: _ @component.original alias: (_)? @component.reexport))
  source: (string) @component.source))

((export_statement "*" source: (string) @component.star))
