; framework: go
; language: go
; needles: Getenv | LookupEnv | env:" | envconfig:" | BindEnv

; os.Getenv("DATABASE_URL"), os.LookupEnv("PORT")
((call_expression
  function: (selector_expression
    operand: (identifier) @_os
    field: (field_identifier) @_get)
  arguments: (argument_list . (interpreted_string_literal) @env.name))
  (#eq? @_os "os")
  (#any-of? @_get "Getenv" "LookupEnv")
  (#set! source "os.Getenv"))

; viper.BindEnv("key", "APP_KEY")
((call_expression
  function: (selector_expression field: (field_identifier) @_bind)
  arguments: (argument_list . (_) . (interpreted_string_literal) @env.name))
  (#eq? @_bind "BindEnv")
  (#set! source "viper"))

; struct tags of caarlos0/env and envconfig: `env:"PORT" envDefault:"8080"`
((field_declaration tag: (raw_string_literal) @env.tag)
  (#match? @env.tag "(^|[` ])(env|envconfig):\"")
  (#set! source "struct tag"))
