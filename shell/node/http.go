package node

import (
	_ "embed"
	"io"
	"net/url"
	"strings"

	"github.com/dop251/goja"

	shnet "github.com/agentenkit/agentenkit/shell/net"
)

// node's network: fetch and the http/https modules' request and get, over
// the shell's HTTP client (package shell/net), which asks the sandbox's
// host for each connection (the host checks its network policy). A request
// runs to its end in Go when the script starts it (goja runs one thing at
// a time); its response is then delivered as node does, on later turns.

// nHTTPRequest is native.httpRequest(method, url, [[name, value]...],
// body|undefined): {status, statusText, headers: [[name, value]...] as
// received, body: ArrayBuffer, url}, or {error, code} when there is no
// response.
func (r *nodeRT) nHTTPRequest(call goja.FunctionCall) goja.Value {
	vm := r.vm
	fail := func(code, msg string) goja.Value {
		o := vm.NewObject()
		o.Set("error", msg)
		o.Set("code", code)
		return o
	}
	u, err := url.Parse(call.Argument(1).String())
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fail("ERR_INVALID_URL", "Invalid URL")
	}
	if u.Path == "" {
		u.Path = "/"
	}
	req := &shnet.Request{Method: strings.ToUpper(call.Argument(0).String()), URL: u}
	var pairs [][]string
	if v := call.Argument(2); !goja.IsUndefined(v) && !goja.IsNull(v) {
		_ = vm.ExportTo(v, &pairs)
	}
	for _, p := range pairs {
		if len(p) == 2 {
			req.Header = append(req.Header, shnet.Field{Name: p[0], Value: p[1]})
		}
	}
	if b, ok := r.bytesOf(call.Argument(3)); ok {
		req.Body = b
	}
	resp, err := shnet.Do(r.ctx, shnet.ChannelDialer(r.fs), req)
	if err != nil {
		return fail(nodeNetCode(err), err.Error())
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return fail(nodeNetCode(err), err.Error())
	}
	o := vm.NewObject()
	o.Set("status", resp.StatusCode)
	o.Set("statusText", strings.TrimSpace(strings.TrimPrefix(resp.Status, strings.Fields(resp.Status + " ")[0])))
	var hs []any
	lines := strings.Split(string(resp.RawHeader), "\n")
	start := 0
	for i, l := range lines { // the last response's header (after any 1xx)
		if strings.HasPrefix(l, "HTTP/") {
			start = i + 1
		}
	}
	for _, l := range lines[start:] {
		if k, v, ok := strings.Cut(strings.TrimRight(l, "\r"), ":"); ok {
			hs = append(hs, vm.NewArray(strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)))
		}
	}
	o.Set("headers", vm.NewArray(hs...))
	o.Set("body", vm.NewArrayBuffer(body))
	o.Set("url", u.String())
	return o
}

// nodeNetCode is node's error code for a failed connection.
func nodeNetCode(err error) string {
	e, ok := err.(*shnet.Error)
	if !ok {
		return "ECONNRESET"
	}
	switch {
	case strings.Contains(e.Msg, "network policy"):
		return "EACCES"
	case e.Code == shnet.CodeResolve:
		return "ENOTFOUND"
	case e.Code == shnet.CodeTimeout:
		return "ETIMEDOUT"
	case e.Code == shnet.CodeCert || e.Code == shnet.CodeTLS:
		return "UNABLE_TO_VERIFY_LEAF_SIGNATURE"
	case e.Code == shnet.CodeConnect:
		return "ECONNREFUSED"
	}
	return "ECONNRESET"
}

// nodeJSHTTP is fetch (with Headers and Response) and the http and https
// modules, on native.httpRequest.
//
//go:embed js/http.js
var nodeJSHTTP string
