package images

// The quickjs image: QuickJS-NG built for wasm32-wasip1 in reactor mode, as
// published in the npm package quickjs-wasi (MIT). It is not a command: it
// has no _start, imports six functions of its own from module "env"
// (host_call, host_interrupt, host_promise_rejection, host_module_normalize,
// host_module_load, host_get_timezone_offset) besides
// wasi_snapshot_preview1, and is driven through its exports (_initialize,
// qjs_init, qjs_eval, qjs_new_host_function, …). A `node x.js` for the wasm
// adapter needs a small host-side driver over those exports.
const (
	QuickJSPackage   = "quickjs-wasi"
	QuickJSVersion   = "3.7.0"
	QuickJSIntegrity = "sha512-6nOShBtCglrQL6yH+hptIfEdA1WlSmvY/Mm5Ypn9IvtsaDsrYIg8x+xoIXQt02w66a0f1eLTAj1lhfgAbJ4WVw=="
)

var quickjs = npmPackage{
	Name:      QuickJSPackage,
	Version:   QuickJSVersion,
	Integrity: QuickJSIntegrity,
	Size:      574852,
	Folder:    "quickjs-wasi-" + QuickJSVersion,
	Files: map[string]string{
		"package/quickjs.wasm": "quickjs.wasm",
		"package/LICENSE":      "LICENSE",
	},
}
