; framework: express
; language: javascript
; needles: express
; Express's apps and routers (what is called on them: `node/receivers`).

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

; the file's routers are Express's
((_ source: (string (string_fragment) @router.uses))
  (#eq? @router.uses "express"))

((call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @router.uses)))
  (#eq? @_require "require")
  (#eq? @router.uses "express"))
