; framework: rails
; language: ruby
; needles: before_action | before_filter
; paths: app/controllers
; Controller callbacks that check who is asking: `before_action :authenticate_user!,
; except: [:index]` (Devise's helper or the app's own), put on the controller's actions (see
; rules/controllers.rs); `skip_before_action` takes one off.

((class
  name: [(constant) (scope_resolution)] @guard.controller
  body: (body_statement
    [(call
      !receiver
      method: (identifier) @_before
      arguments: (argument_list . (simple_symbol) @guard.name) @guard.options)
     (call
      !receiver
      method: (identifier) @_skip
      arguments: (argument_list . (simple_symbol) @guard.skipped) @guard.options)]))
  (#any-of? @_before "before_action" "before_filter" "prepend_before_action")
  (#auth-name? @guard.name)
  (#any-of? @_skip "skip_before_action" "skip_before_filter")
  (#set! @_before kind "before_action"))

; the same inside `module Api … end`
((module
  name: [(constant) (scope_resolution)] @controller.module
  body: (body_statement
    (class
      name: [(constant) (scope_resolution)] @guard.controller
      body: (body_statement
        [(call
          !receiver
          method: (identifier) @_before
          arguments: (argument_list . (simple_symbol) @guard.name) @guard.options)
         (call
          !receiver
          method: (identifier) @_skip
          arguments: (argument_list . (simple_symbol) @guard.skipped) @guard.options)]))))
  (#any-of? @_before "before_action" "before_filter" "prepend_before_action")
  (#auth-name? @guard.name)
  (#any-of? @_skip "skip_before_action" "skip_before_filter")
  (#set! @_before kind "before_action"))
