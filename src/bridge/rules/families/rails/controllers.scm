; framework: rails
; language: ruby
; needles: before_action | before_filter
; paths: app/controllers
; Controller callbacks that check who is asking: `before_action :authenticate_user!`
; (Devise's helper or the app's own).

((call
  !receiver
  method: (identifier) @_before
  arguments: (argument_list . (simple_symbol) @guard.name))
  (#any-of? @_before "before_action" "before_filter" "prepend_before_action")
  (#auth-name? @guard.name)
  (#set! kind "before_action"))
