package node

import _ "embed"

// The JavaScript half of the node builtin. nodePreludeProgram compiles these
// parts, in this order, as the body of one function of "native" (the Go
// functions natives makes) that returns the hooks the Go side calls
// (nodeHooks). They are the files of js/, embedded. util.inspect,
// util.format and path are ports of Node.js v20 code (MIT License,
// Copyright Node.js contributors and Joyent, Inc.); the rest follows Node.js v20's documented behaviour.

// nodeJSInspect is util.inspect and util.format, and the type checks they use.
//
//go:embed js/inspect.js
var nodeJSInspect string

// nodeJSPath is path (POSIX).
//
//go:embed js/path.js
var nodeJSPath string

// nodeJSCore is errors, events, Buffer, TextEncoder/TextDecoder, atob/btoa, StringDecoder.
//
//go:embed js/core.js
var nodeJSCore string

// nodeJSProcess is process, nextTick, timers, console, performance, structuredClone, fetch, webcrypto.
//
//go:embed js/process.js
var nodeJSProcess string

// nodeJSFS is fs, fs/promises and file streams over native.fs.
//
//go:embed js/fs.js
var nodeJSFS string

// nodeJSModules is os, util, assert, crypto, url, querystring, readline and the CommonJS loader.
//
//go:embed js/modules.js
var nodeJSModules string

// nodeJSGlobals is AbortController, the globals and the hooks (nodeHooks).
//
//go:embed js/globals.js
var nodeJSGlobals string
