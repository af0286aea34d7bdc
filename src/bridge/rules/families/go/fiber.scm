; framework: fiber
; language: go
; needles: gofiber/fiber
; inherits: go/routes | go/groups | go/use
