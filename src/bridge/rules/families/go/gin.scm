; framework: gin
; language: go
; needles: gin-gonic/gin
; inherits: go/routes | go/groups | go/use

; the file's routers (and the functions handed one) are gin's
((import_spec path: (interpreted_string_literal) @router.uses)
  (#match? @router.uses "gin-gonic/gin")
  (#set! own-units "true"))
