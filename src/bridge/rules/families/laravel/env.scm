; framework: laravel
; language: php
; needles: env(
; Laravel's `env('APP_KEY', 'default')` (read in config/*.php).

((function_call_expression
  function: (name) @_env
  arguments: (arguments . (argument [(string) (encapsed_string)] @env.name)))
  (#eq? @_env "env")
  (#set! source "env()"))
