;; A WASI command whose _start calls itself without end: a stack overflow.
;; recurse.wasm is this, assembled; 38 bytes, written out by hand.
(module
  (func $start (call $start))
  (export "_start" (func $start)))
