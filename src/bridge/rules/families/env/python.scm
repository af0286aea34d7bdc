; framework: python
; language: python
; needles: environ | getenv
; Environment variables Python code reads through `os`.

; os.environ["DATABASE_URL"]
((subscript
  value: (_) @_environ
  subscript: (string) @env.name)
  (#any-of? @_environ "os.environ" "environ")
  (#match? @env.name "^.[A-Za-z_][A-Za-z0-9_]*.$")
  (#set! source "os.environ"))

; os.environ.get("DEBUG", "0"), os.environ.setdefault("DJANGO_SETTINGS_MODULE", …)
((call
  function: (_) @_get
  arguments: (argument_list . (string) @env.name))
  (#any-of? @_get "os.environ.get" "environ.get" "os.environ.setdefault")
  (#match? @env.name "^.[A-Za-z_][A-Za-z0-9_]*.$")
  (#set! source "os.environ"))

; os.getenv("SECRET_KEY")
((call
  function: (_) @_get
  arguments: (argument_list . (string) @env.name))
  (#any-of? @_get "os.getenv" "getenv")
  (#match? @env.name "^.[A-Za-z_][A-Za-z0-9_]*.$")
  (#set! source "os.getenv"))
