; framework: net/http
; language: go
; needles: net/http
; The standard library's ServeMux: `mux.HandleFunc("GET /items/{id}", handler)` (Go 1.22
; patterns name the method), `http.Handle("/static/", fs)`.

; mux := http.NewServeMux(), and the package's own mux (`http.HandleFunc`)
(short_var_declaration
  left: (expression_list . (identifier) @router.bind)
  right: (expression_list
    .
    (call_expression
      function: (selector_expression field: (field_identifier) @_new)) @router.new @router.value)
  (#eq? @_new "NewServeMux"))

((import_spec path: (interpreted_string_literal) @router.new @router.value)
  (#eq? @router.new "\"net/http\"")
  (#set! bind "http"))

((call_expression
  function: (selector_expression
    operand: (_) @route.receiver
    field: (field_identifier) @_handle)
  arguments: (argument_list
    .
    (interpreted_string_literal) @route.path
    .
    (_) @route.handler
    .)) @route.call
  (#any-of? @_handle "HandleFunc" "Handle")
  (#match? @route.path "^\"((GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) +)?/")
  (#set! method "ALL"))
