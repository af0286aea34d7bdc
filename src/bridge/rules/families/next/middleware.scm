; framework: nextjs
; language: javascript
; paths: middleware. | proxy.
; needles: export
; Next.js middleware that checks auth (`export default withAuth(…)`, `auth(…)`,
; `clerkMiddleware(…)`, `export { default } from "next-auth/middleware"`): a guard on the
; endpoints its `config.matcher` paths cover (`links.rs`).

((export_statement value: (call_expression function: (_) @middleware.guard)))

((export_statement
  (export_clause (export_specifier name: _ @_name))
  source: (string) @middleware.guard)
  (#any-of? @_name "default" "middleware"))

((export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @_config
      value: (object
        (pair
          key: (property_identifier) @_matcher
          value: [(string) @middleware.matcher (array (string) @middleware.matcher)])))))
  (#eq? @_config "config")
  (#eq? @_matcher "matcher"))
