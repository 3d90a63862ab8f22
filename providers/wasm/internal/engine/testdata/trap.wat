;; A WASI command whose _start traps at once. trap.wasm is this, assembled
;; (wat2wasm trap.wat); 37 bytes, written out by hand.
(module
  (func (export "_start")
    unreachable))
