; framework: svelte
; language: javascript
; needles: svelte/store | $state(
; Svelte stores at a module's top level: `export const user = writable(…)`, `readable`,
; `derived`; and Svelte 5 shared state in `.svelte.ts` modules (`export const app = $state({…})`,
; `export const appState = new AppState()` of a class holding `$state` fields).

((program
  [(lexical_declaration
     (variable_declarator
       name: (identifier) @store.name
       value: (call_expression function: (identifier) @_make)))
   (export_statement
     declaration: (lexical_declaration
       (variable_declarator
         name: (identifier) @store.name
         value: (call_expression function: (identifier) @_make))))])
  (#any-of? @_make "writable" "readable" "derived")
  (#set! kind "svelte-store"))

((program
  (export_statement
    declaration: (lexical_declaration
      (variable_declarator
        name: (identifier) @store.name
        value: [(call_expression function: (identifier) @_make)
                (new_expression)]))))
  (#eq? @_make "$state")
  (#set! kind "svelte-state"))
