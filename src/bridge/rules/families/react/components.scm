; Shared by react/components-jsx and react/components-tsx: exported UI components. A function,
; arrow or wrapped (`memo`, `forwardRef`, `observer`: `component.kind`) component counts when
; its body renders JSX (`component.scope` holds a `component.renders`) and no syntax error
; (`component.broken`); `export default` (`component.default`) makes its kind `default`, an
; anonymous one is named by its file (`component.anonymous`). A top-level one not exported where
; it is declared (`component.local`) counts when the file exports its name (`component.export`,
; `component.alias`).

; export function Button() {…}, export default function Page() {…}
((export_statement
  "default"? @component.default
  declaration: (function_declaration name: (identifier) @component.name) @component.scope)
  (#match? @component.name "^[A-Z]")
  (#not-match? @component.name "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! kind "function"))

; export class Panel extends React.Component {…}
((export_statement
  "default"? @component.default
  declaration: (class_declaration name: (_) @component.name (class_heritage) @_heritage))
  (#match? @component.name "^[A-Z]")
  (#match? @_heritage "Component")
  (#set! kind "class"))

; export const Card = () => …, = function () {…}, = memo(…), = React.forwardRef((props, ref) => …)
((export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @component.name
      value: [(arrow_function) @component.scope @_arrow
              (function_expression) @component.scope
              (call_expression
                function: [(identifier) @component.kind
                           (member_expression property: (property_identifier) @component.kind)]
                arguments: (arguments
                  .
                  [(identifier) @_inner
                   [(arrow_function) (function_expression) (call_expression)] @component.scope]))])))
  (#match? @component.name "^[A-Z]")
  (#any-of? @component.kind "memo" "forwardRef" "observer")
  (#match? @_inner "^[A-Z]")
  (#set! @_arrow kind "arrow")
  (#set! kind "function"))

; the same, declared without export
((program
  (function_declaration name: (identifier) @component.local) @component.scope)
  (#match? @component.local "^[A-Z]")
  (#set! kind "function"))

((program
  (class_declaration name: (_) @component.local (class_heritage) @_heritage))
  (#match? @component.local "^[A-Z]")
  (#match? @_heritage "Component")
  (#set! kind "class"))

((program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @component.local
      value: [(arrow_function) @component.scope @_arrow
              (function_expression) @component.scope
              (call_expression
                function: [(identifier) @component.kind
                           (member_expression property: (property_identifier) @component.kind)]
                arguments: (arguments
                  .
                  [(identifier) @_inner
                   [(arrow_function) (function_expression) (call_expression)] @component.scope]))])))
  (#match? @component.local "^[A-Z]")
  (#any-of? @component.kind "memo" "forwardRef" "observer")
  (#match? @_inner "^[A-Z]")
  (#set! @_arrow kind "arrow")
  (#set! kind "function"))

; export default () => <div />, export default function () {…}
((export_statement
  value: [(arrow_function) (function_expression !name)] @component.anonymous @component.scope)
  (#set! kind "default"))

((export_statement
  value: (function_expression name: (identifier) @component.name) @component.scope)
  (#match? @component.name "^[A-Z]")
  (#set! kind "default"))

; export default memo(Foo), export default memo(() => …)
((export_statement
  value: (call_expression
    function: [(identifier) @_wrap (member_expression property: (property_identifier) @_wrap)]
    arguments: (arguments . (identifier) @component.name)))
  (#any-of? @_wrap "memo" "forwardRef" "observer")
  (#match? @component.name "^[A-Z]")
  (#set! kind "default"))

((export_statement
  value: (call_expression
    function: [(identifier) @_wrap (member_expression property: (property_identifier) @_wrap)]
    arguments: (arguments . [(arrow_function) (function_expression) (call_expression)])) @component.anonymous @component.scope)
  (#any-of? @_wrap "memo" "forwardRef" "observer")
  (#set! kind "default"))

; export default Foo, export { Foo, Bar as Baz }
((export_statement "default" @component.default value: (identifier) @component.export))

((export_statement
  (export_clause
    (export_specifier name: (identifier) @component.export alias: (identifier)? @component.alias))
  !source))

; what renders: JSX anywhere in the scope (where it sits is not asked of the query: a pattern per
; place, `(return_statement …)`, `(arrow_function body: …)`, cost milliseconds each to compile)
[(jsx_element) (jsx_self_closing_element)] @component.renders

(ERROR) @component.broken
