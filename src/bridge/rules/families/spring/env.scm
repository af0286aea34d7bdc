; framework: spring
; language: java
; needles: getenv | @Value
; Environment read in Java: `System.getenv("JWT_SECRET")`, and the `${VAR}`/`${VAR:default}`
; placeholders of `@Value("${JWT_SECRET}")` whose names are environment-style (upper case).

((method_invocation
  object: (identifier) @_system
  name: (identifier) @_getenv
  arguments: (argument_list . (string_literal) @env.name))
  (#eq? @_system "System")
  (#eq? @_getenv "getenv")
  (#set! source "System.getenv"))

((annotation
  name: (identifier) @_value
  arguments: (annotation_argument_list (string_literal) @env.placeholders))
  (#eq? @_value "Value")
  (#match? @env.placeholders "\\$\\{")
  (#set! source "@Value"))
