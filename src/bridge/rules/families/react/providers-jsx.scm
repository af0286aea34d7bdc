; framework: react
; language: jsx
; needles: createContext
; inherits: react/providers
; Context providers in JavaScript files (see react/providers).
