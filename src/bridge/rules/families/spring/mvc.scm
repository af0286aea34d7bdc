; framework: spring
; language: java
; needles: @GetMapping | @PostMapping | @PutMapping | @PatchMapping | @DeleteMapping | @RequestMapping
; Spring MVC controllers: a class-level `@RequestMapping("/api/users")` prefixes the routes of
; the methods whose `@GetMapping`, `@PostMapping`, … or `@RequestMapping(method = …)` map them;
; a mapping with no path is the prefix alone. The handler is the method's name, the request
; the type of its `@RequestBody` parameter. A `@FeignClient` interface calls routes, it maps none.

; @RequestMapping("/api/users") on a class (or an interface the controller implements): the
; prefix of the routes in its body
(_
  (modifiers
    (annotation
      name: (identifier) @_mapping
      arguments: (annotation_argument_list
        [(string_literal) @prefix.path
         (element_value_array_initializer . (string_literal) @prefix.path)
         (element_value_pair
           key: (identifier) @_key
           value: [(string_literal) @prefix.path
                   (element_value_array_initializer . (string_literal) @prefix.path)])])))
  body: (_) @prefix.scope
  (#eq? @_mapping "RequestMapping")
  (#any-of? @_key "value" "path"))

; @GetMapping("/{id}"), @PostMapping(value = "/x"), @DeleteMapping(path = {"/a", "/b"}): one
; route per path (a `@RequestMapping` with no `method` maps every method)
(_
  (modifiers)? @_owner
  body: (_
    (method_declaration
      (modifiers
        (annotation
          name: (identifier) @endpoint.method
          arguments: (annotation_argument_list
            [(string_literal) @endpoint.path
             (element_value_array_initializer (string_literal) @endpoint.path)
             (element_value_pair
               key: (identifier) @_key
               value: [(string_literal) @endpoint.path
                       (element_value_array_initializer (string_literal) @endpoint.path)])]) @_args))
      name: (identifier) @endpoint.handler))
  (#match? @endpoint.method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")
  (#not-match? @_args "method\\s*=")
  (#any-of? @_key "value" "path")
  (#not-match? @_owner "@FeignClient"))

; @GetMapping, @PostMapping(produces = …): the class prefix alone
(_
  (modifiers)? @_owner
  body: (_
    (method_declaration
      (modifiers
        [(marker_annotation name: (identifier) @endpoint.method)
         (annotation
           name: (identifier) @endpoint.method
           arguments: (annotation_argument_list) @_args)])
      name: (identifier) @endpoint.handler))
  (#match? @endpoint.method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")
  (#match? @_args "^\\(\\s*(\\)|[A-Za-z_]+\\s*=)")
  (#not-match? @_args "(value|path|method)\\s*=")
  (#not-match? @_owner "@FeignClient"))

; @RequestMapping(value = "/x", method = RequestMethod.POST), `method = {GET, HEAD}`: a route
; per path and method, whichever order the attributes are written in; with no path, the class
; prefix alone
(_
  (modifiers)? @_owner
  body: (_
    (method_declaration
      (modifiers
        (annotation
          name: (identifier) @_mapping
          arguments: (annotation_argument_list
            (element_value_pair
              key: (identifier) @_key
              value: [(string_literal) @endpoint.path
                      (element_value_array_initializer (string_literal) @endpoint.path)])
            (element_value_pair
              key: (identifier) @_verb
              value: [(field_access field: (identifier) @endpoint.method)
                      (identifier) @endpoint.method
                      (element_value_array_initializer
                        [(field_access field: (identifier) @endpoint.method) (identifier) @endpoint.method])]))))
      name: (identifier) @endpoint.handler))
  (#eq? @_mapping "RequestMapping")
  (#any-of? @_key "value" "path")
  (#eq? @_verb "method")
  (#not-match? @_owner "@FeignClient"))

(_
  (modifiers)? @_owner
  body: (_
    (method_declaration
      (modifiers
        (annotation
          name: (identifier) @_mapping
          arguments: (annotation_argument_list
            (element_value_pair
              key: (identifier) @_verb
              value: [(field_access field: (identifier) @endpoint.method)
                      (identifier) @endpoint.method
                      (element_value_array_initializer
                        [(field_access field: (identifier) @endpoint.method) (identifier) @endpoint.method])])
            (element_value_pair
              key: (identifier) @_key
              value: [(string_literal) @endpoint.path
                      (element_value_array_initializer (string_literal) @endpoint.path)]))))
      name: (identifier) @endpoint.handler))
  (#eq? @_mapping "RequestMapping")
  (#any-of? @_key "value" "path")
  (#eq? @_verb "method")
  (#not-match? @_owner "@FeignClient"))

(_
  (modifiers)? @_owner
  body: (_
    (method_declaration
      (modifiers
        (annotation
          name: (identifier) @_mapping
          arguments: (annotation_argument_list
            (element_value_pair
              key: (identifier) @_verb
              value: [(field_access field: (identifier) @endpoint.method)
                      (identifier) @endpoint.method
                      (element_value_array_initializer
                        [(field_access field: (identifier) @endpoint.method) (identifier) @endpoint.method])])) @_args))
      name: (identifier) @endpoint.handler))
  (#eq? @_mapping "RequestMapping")
  (#eq? @_verb "method")
  (#not-match? @_args "(value|path)\\s*=")
  (#not-match? @_owner "@FeignClient"))

; the request: the type of the handler's `@RequestBody` parameter (`@Valid @RequestBody
; RegisterRequest request`)
((method_declaration
  parameters: (formal_parameters
    (formal_parameter
      (modifiers [(marker_annotation name: (identifier) @_body) (annotation name: (identifier) @_body)])
      type: (_) @request.type))) @request.scope
  (#eq? @_body "RequestBody"))
