; framework: fiber
; language: go
; needles: gofiber/fiber
; inherits: go/routes | go/groups | go/use

; the file's routers (and the functions handed one) are fiber's
((import_spec path: (interpreted_string_literal) @router.uses)
  (#match? @router.uses "gofiber/fiber")
  (#set! own-units "true"))
