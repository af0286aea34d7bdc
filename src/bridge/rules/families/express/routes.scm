; framework: express
; language: javascript
; needles: express
; inherits: node/receivers
; Express: apps and routers, their routes and mounts (see `node/receivers`); the mount graph
; puts them under their prefixes across files.

; const app = express()
((call_expression function: (identifier) @_new) @router.new
  (#eq? @_new "express")
  (#set! app "true"))

; const router = Router({ mergeParams: true }), express.Router()
((call_expression
  function: [(identifier) @_new
             (member_expression object: (identifier) @_express property: (property_identifier) @_new)]) @router.new
  (#eq? @_new "Router")
  (#eq? @_express "express"))
