; framework: react
; language: javascript
; needles: createContext
; React contexts: `const AuthContext = createContext(…)`; the function calling
; `useContext(AuthContext)` (or `use(AuthContext)`) is its hook when named `use…`. The
; provider component and the keys of the value it provides are found by
; `react/providers-jsx` and `react/providers-tsx`; the functions and variables here place them.

; const AuthContext = createContext<AuthValue | null>(null)
((variable_declarator
  name: (_) @store.var
  value: [(call_expression function: (_) @_make) (parenthesized_expression (call_expression function: (_) @_make))])
  (#match? @_make "(^|\\.)createContext$")
  (#set! kind "react-context"))

; export function useAuth() { const context = useContext(AuthContext); … }
((call_expression
  function: (_) @_use
  arguments: (arguments . (_) @store.hook))
  (#any-of? @_use "useContext" "React.useContext" "use")
  (#set! function-prefix "use"))

; named functions: function AuthProvider() {…}, const useAuth = () => {…}
(function_declaration name: (identifier) @function.name) @function.scope
(function_expression name: (identifier) @function.name) @function.scope
(variable_declarator
  name: (_) @function.name
  value: [(arrow_function) (function_expression !name)] @function.scope)

; a provided value bound to a variable: const value = { user, login }, or
; const value = useMemo(() => ({ user, login }), [user, login])
((variable_declarator
  name: (identifier) @binding.name
  value: [(object
            [(pair key: (_) @binding.key)
             (method_definition name: (_) @binding.key)
             (shorthand_property_identifier) @binding.key])
          (call_expression
            arguments: (arguments
              .
              [(object
                 [(pair key: (_) @binding.key)
                  (method_definition name: (_) @binding.key)
                  (shorthand_property_identifier) @binding.key])
               (arrow_function
                 body: [(parenthesized_expression
                          (object
                            [(pair key: (_) @binding.key)
                             (method_definition name: (_) @binding.key)
                             (shorthand_property_identifier) @binding.key]))
                        (statement_block
                          (return_statement
                            (object
                              [(pair key: (_) @binding.key)
                               (method_definition name: (_) @binding.key)
                               (shorthand_property_identifier) @binding.key])))])
               (function_expression
                 body: (statement_block
                   (return_statement
                     (object
                       [(pair key: (_) @binding.key)
                        (method_definition name: (_) @binding.key)
                        (shorthand_property_identifier) @binding.key]))))]))])
  (#not-match? @binding.key "^\\["))
