; framework: react
; language: tsx
; needles: createContext
; inherits: react/providers
; Context providers in TSX files (see react/providers).
