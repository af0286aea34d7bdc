; framework: vue-router
; language: javascript
; needles: createRouter | RouteRecordRaw | new Router( | new VueRouter(
; inherits: vue/route-table
; A file that makes a router (`createRouter`, Vue 2's `new Router`) or types its route table.
