; framework: vue-router
; language: javascript
; paths: router/ | routes.
; needles: component
; inherits: vue/route-table
; A route table in a module of its own (`src/router/routes.js`, `src/routes.ts`), imported by
; the file that makes the router.
