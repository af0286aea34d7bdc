; framework: spring
; language: java
; needles: getenv | ${ | Property(
; Environment read in Java: `System.getenv("JWT_SECRET")`, and the `${VAR}`/`${VAR:default}`
; placeholders (environment-style, upper case) of annotations: `@Value("${JWT_SECRET}")`,
; `@FeignClient(url = "${BILLING_URL}")`, `@Scheduled(cron = "${REPORT_CRON}")`; and Spring's
; `Environment` asked for an environment-style name: `env.getProperty("STRIPE_KEY")`.

((method_invocation
  object: (identifier) @_system
  name: (identifier) @_getenv
  arguments: (argument_list . (string_literal) @env.name))
  (#eq? @_system "System")
  (#eq? @_getenv "getenv")
  (#set! source "System.getenv"))

((method_invocation
  object: (_) @_environment
  name: (identifier) @_get
  arguments: (argument_list . (string_literal) @env.name))
  (#any-of? @_get "getProperty" "getRequiredProperty")
  (#not-eq? @_environment "System")
  (#match? @env.name "^\"[A-Z][A-Z0-9_]*\"$")
  (#set! source "Environment.getProperty"))

((annotation
  name: (identifier) @_value
  arguments: (annotation_argument_list (string_literal) @env.placeholders))
  (#eq? @_value "Value")
  (#match? @env.placeholders "\\$\\{")
  (#set! source "@Value"))

((annotation
  name: (identifier) @_annotation
  arguments: (annotation_argument_list
    [(string_literal) @env.placeholders
     (element_value_pair value: (string_literal) @env.placeholders)]))
  (#not-eq? @_annotation "Value")
  (#match? @env.placeholders "\\$\\{")
  (#set! source "annotation"))
