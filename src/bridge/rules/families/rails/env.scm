; framework: rails
; language: ruby
; needles: ENV
; Environment reads in Ruby: ENV['X'], ENV.fetch('X'), ENV.fetch("X", default).

((element_reference object: (constant) @_env . (string) @env.name)
  (#eq? @_env "ENV")
  (#set! source "ENV"))

((call
  receiver: (constant) @_env
  method: (identifier) @_fetch
  arguments: (argument_list . (string) @env.name))
  (#eq? @_env "ENV")
  (#any-of? @_fetch "fetch" "key?" "has_key?" "include?")
  (#set! source "ENV.fetch"))
