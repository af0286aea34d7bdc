; framework: react
; language: jsx
; needles: react | React | </ | />
; inherits: react/components
; Components in JavaScript files (see react/components).
