; framework: gin
; language: go
; needles: gin-gonic/gin
; inherits: go/routes | go/groups | go/use
