; framework: rails
; language: ruby
; needles: Controller
; paths: app/controllers
; The class a controller extends: it inherits that class's `before_action` guards (see
; rules/controllers.rs).

(class
  name: [(constant) (scope_resolution)] @controller.name
  superclass: (superclass [(constant) (scope_resolution)] @controller.base))

(module
  name: [(constant) (scope_resolution)] @controller.module
  body: (body_statement
    (class
      name: [(constant) (scope_resolution)] @controller.name
      superclass: (superclass [(constant) (scope_resolution)] @controller.base))))
