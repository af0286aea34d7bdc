; framework: laravel
; language: php
; needles: middleware(
; paths: Controller
; Middleware a controller's constructor puts on its actions: `$this->middleware('auth.api')
; ->except(['index', 'show'])` (see rules/controllers.rs).

((class_declaration
  name: (name) @guard.controller
  body: (declaration_list
    (method_declaration
      name: (name) @_construct
      body: (compound_statement
        (expression_statement
          (member_call_expression
            object: (variable_name)
            name: (name) @_middleware
            arguments: (arguments . (argument [(string) (encapsed_string)] @guard.name))))))))
  (#eq? @_construct "__construct")
  (#eq? @_middleware "middleware")
  (#match? @guard.name "^.(auth|can:|role|permission|jwt|sanctum|passport|admin|verified)"))

((class_declaration
  name: (name) @guard.controller
  body: (declaration_list
    (method_declaration
      name: (name) @_construct
      body: (compound_statement
        (expression_statement
          (member_call_expression
            object: (member_call_expression
              object: (variable_name)
              name: (name) @_middleware
              arguments: (arguments . (argument [(string) (encapsed_string)] @guard.name)))
            name: (name) @_only
            arguments: (arguments . (argument [(array_creation_expression) (string) (encapsed_string)] @guard.only))))))))
  (#eq? @_construct "__construct")
  (#eq? @_middleware "middleware")
  (#eq? @_only "only")
  (#match? @guard.name "^.(auth|can:|role|permission|jwt|sanctum|passport|admin|verified)"))

((class_declaration
  name: (name) @guard.controller
  body: (declaration_list
    (method_declaration
      name: (name) @_construct
      body: (compound_statement
        (expression_statement
          (member_call_expression
            object: (member_call_expression
              object: (variable_name)
              name: (name) @_middleware
              arguments: (arguments . (argument [(string) (encapsed_string)] @guard.name)))
            name: (name) @_except
            arguments: (arguments . (argument [(array_creation_expression) (string) (encapsed_string)] @guard.except))))))))
  (#eq? @_construct "__construct")
  (#eq? @_middleware "middleware")
  (#eq? @_except "except")
  (#match? @guard.name "^.(auth|can:|role|permission|jwt|sanctum|passport|admin|verified)"))
