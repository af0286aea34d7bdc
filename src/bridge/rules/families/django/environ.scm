; framework: django-environ
; language: python
; needles: env( | env. | ENV( | ENV. | environ.Env

; env("SECRET_KEY"), env("SENTRY_DSN", default=""): an `environ.Env()` instance called, by
; the names projects give it (`env = environ.Env()` here, or `from config.env import env`)
((call
  function: (identifier) @_env
  arguments: (argument_list . (string) @env.name))
  (#any-of? @_env "env" "ENV")
  (#match? @env.name "^[\"'][A-Za-z_][A-Za-z0-9_]*[\"']$")
  (#set! source "django-environ"))

; env.bool("DJANGO_DEBUG", default=False), env.list("ALLOWED_HOSTS"), env.int, env.str,
; env.db("DATABASE_URL"), env.cache_url("REDIS_URL"), …: its typed readers
((call
  function: (attribute
    object: (identifier) @_env
    attribute: (identifier) @_reader)
  arguments: (argument_list . (string) @env.name))
  (#any-of? @_env "env" "ENV")
  (#any-of? @_reader
    "str" "bool" "int" "float" "decimal" "json" "list" "tuple" "dict" "url" "path" "bytes"
    "db" "db_url" "cache" "cache_url" "email" "email_url" "search_url" "channels"
    "channels_url" "get_value")
  (#match? @env.name "^[\"'][A-Za-z_][A-Za-z0-9_]*[\"']$")
  (#set! source "django-environ"))

; environ.Env(DEBUG=(bool, False), ALLOWED_HOSTS=(list, [])): the variables it declares
((call
  function: (attribute
    object: (identifier) @_environ
    attribute: (identifier) @_Env)
  arguments: (argument_list (keyword_argument name: (identifier) @env.name)))
  (#eq? @_environ "environ")
  (#eq? @_Env "Env")
  (#set! source "django-environ"))
