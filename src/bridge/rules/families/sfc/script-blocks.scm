; framework: sfc
; language: html
; needles: <script
; A single-file component's top-level `<script>` blocks (`sfc.rs`, not in the catalog): the
; code of each, and the language its `lang` attribute names.

(document (script_element (raw_text) @block.code) @block.scope)

((document
  (script_element
    (start_tag
      (attribute
        (attribute_name) @_name
        [(attribute_value) (quoted_attribute_value)] @block.lang))) @block.scope)
  (#eq? @_name "lang"))
