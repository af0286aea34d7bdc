; framework: vue-router
; language: javascript
; paths: router/ | routes.
; needles: .vue | vue-router | @/views/
; inherits: vue/route-table
; A route table in a module of its own (`src/router/routes.js`, `src/routes.ts`), imported by
; the file that makes the router; the needles tell a Vue table from an Angular or React one.
