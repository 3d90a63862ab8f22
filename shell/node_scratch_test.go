package shell

import (
	"fmt"
	"testing"

	"github.com/dop251/goja"
)

func TestNodeScratch(t *testing.T) {
	vm := goja.New()
	vm.Set("exit", func(call goja.FunctionCall) goja.Value { vm.Interrupt("exit!"); return goja.Undefined() })
	for _, src := range []string{
		"function f() {\n  throw new TypeError('bad');\n}\nf()",
		"let e = new Error('x');\nfunction g(){ throw e }\ng()",
		"null.x",
		"Promise.resolve().then(() => { exit(); console_log('after') }); 5",
		"class B extends Uint8Array { hi() { return this.length } }; const b = new B(3); [b.hi(), b instanceof Uint8Array, Object.prototype.toString.call(b), B.toString().slice(0,20)]",
		"async function af(){}; [Object.prototype.toString.call(af), (function*(){}).constructor.name, af.constructor.name]",
		"try { null.x } catch (e) { e.stack }",
		"(function(){ let x = ; })",
	} {
		v, err := vm.RunScript("/t/x.js", src)
		fmt.Printf("--- %q\nv=%v\nerr=%T %v\n", src, v, err, err)
		if ex, ok := err.(*goja.Exception); ok {
			for _, f := range ex.Stack() {
				fmt.Printf("  frame %s %s %v\n", f.FuncName(), f.SrcName(), f.Position())
			}
		}
		vm.ClearInterrupt()
	}
}
