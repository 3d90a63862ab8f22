package shell

import (
	"fmt"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

func TestNodeScratch(t *testing.T) {
	for _, src := range []string{
		"let x = ;",
		"\n\nfoo(\n",
		"let a = 1;\nlet a = 2;",
		"import fs from 'fs';",
		"x = `abc",
		"return 5",
		"#!/usr/bin/env node\nconsole.log(1)",
		"class A { #x = 1; static { } get x() { return this.#x } }; a?.b ?? 1; 2n ** 3n; let {a: q, ...r} = {a:1}",
		"'use strict'; with (a) {}",
		"x ||= 1; label: for (;;) { break label }; const o = {async *gen(){}}; for await (const x of []) {}",
	} {
		prg, err := parser.ParseFile(nil, "/t/x.js", src, 0)
		fmt.Printf("--- %q\nerr=%T %v\n", src, err, err)
		if el, ok := err.(parser.ErrorList); ok {
			for _, e := range el {
				fmt.Printf("  msg=%q pos=%v\n", e.Message, e.Position)
			}
		}
		if err == nil {
			_, err = goja.CompileAST(prg, false)
			fmt.Printf("  compile err=%T %v\n", err, err)
		}
	}
}
