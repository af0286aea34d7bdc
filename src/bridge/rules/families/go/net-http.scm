; framework: net/http
; language: go
; needles: net/http
; The standard library's ServeMux: `mux.HandleFunc("GET /items/{id}", handler)` (Go 1.22
; patterns name the method), `http.Handle("/static/", fs)`.

(call_expression
  function: (selector_expression
    operand: (_) @endpoint.receiver
    field: (field_identifier) @_handle)
  arguments: (argument_list
    .
    (interpreted_string_literal) @endpoint.path
    .
    (_) @endpoint.handler
    .)
  (#any-of? @_handle "HandleFunc" "Handle")
  (#match? @endpoint.path "^\"((GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) +)?/"))
