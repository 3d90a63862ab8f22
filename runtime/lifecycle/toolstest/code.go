package toolstest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/tools"
)

func testCode(t *testing.T, h Harness) {
	w := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{})
	python := func(t *testing.T) {
		if !h.Python {
			t.Skip("needs python3 in the sandbox (Harness does not declare it)")
		}
		w.needs(t, w.thread(t), "python3", true)
	}

	t.Run("python prints", func(t *testing.T) {
		t.Parallel()
		python(t)
		ctx := w.thread(t)
		r := w.code(t, ctx, "python", "print('hi', 6*7)")
		assert.Equal(t, tools.CodeResult{Stdout: "hi 42\n", Files: []tools.File{}}, r)
		b, err := json.Marshal(r)
		require.NoError(t, err)
		assert.JSONEq(t, `{"stdout":"hi 42\n","stderr":"","exitCode":0,"files":[]}`, string(b), "files is a list, empty or not")
	})

	t.Run("python is the default language", func(t *testing.T) {
		t.Parallel()
		python(t)
		out, err := w.call(t, w.thread(t), lifecycle.ToolCodeExecution, `{"code": "import sys; print(sys.version_info[0])"}`)
		require.NoError(t, err)
		assert.Equal(t, "3\n", out.(tools.CodeResult).Stdout)
	})

	t.Run("it runs in the start folder, not where bash is", func(t *testing.T) {
		t.Parallel()
		python(t)
		ctx := w.thread(t)
		w.sh(t, ctx, "mkdir -p sub && cd sub")
		r := w.code(t, ctx, "python", "import os; print(os.getcwd())")
		assert.Equal(t, w.workdir(t, ctx)+"\n", r.Stdout)
	})

	t.Run("the work folder's modules import", func(t *testing.T) {
		t.Parallel()
		python(t)
		ctx := w.thread(t)
		w.writeFile(t, ctx, "helper.py", "X = 41\n")
		r := w.code(t, ctx, "python", "import helper\nprint(helper.X + 1)")
		assert.Equal(t, "42\n", r.Stdout, r.Stderr)
	})

	t.Run("files made or changed are listed with media types", func(t *testing.T) {
		t.Parallel()
		python(t)
		ctx := w.thread(t)
		w.writeFile(t, ctx, "same.txt", "unchanged\n")
		w.writeFile(t, ctx, "notes.md", "old\n")
		time.Sleep(1100 * time.Millisecond) // adapters with whole-second times tell the change apart
		r := w.code(t, ctx, "python", strings.Join([]string{
			"import os",
			"open('chart.png', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + bytes(100))",
			"os.makedirs('out/deep', exist_ok=True)",
			"open('out/deep/data.csv', 'w').write('a,b\\n1,2\\n')",
			"open('notes.md', 'w').write('new and longer\\n')",
			"open('blob.unknownext', 'w').write('?')",
		}, "\n"))
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Equal(t, []tools.File{
			{Path: "blob.unknownext", MediaType: "application/octet-stream", Size: 1},
			{Path: "chart.png", MediaType: "image/png", Size: 108},
			{Path: "notes.md", MediaType: "text/markdown", Size: 15},
			{Path: "out/deep/data.csv", MediaType: "text/csv", Size: 8},
		}, r.Files, "the program file in the state dir is not listed, nor unchanged files")
	})

	t.Run("a failing program says why", func(t *testing.T) {
		t.Parallel()
		python(t)
		ctx := w.thread(t)
		r := w.code(t, ctx, "python", "x = 1\nprint('before')\nx / 0")
		assert.Equal(t, 1, r.ExitCode)
		assert.Equal(t, "before\n", r.Stdout)
		assert.Equal(t, "ZeroDivisionError: division by zero", r.Error)
		assert.Contains(t, r.Stderr, "Traceback (most recent call last):")

		r = w.code(t, ctx, "python", "import sys\nsys.exit(3)")
		assert.Equal(t, 3, r.ExitCode)
		assert.Equal(t, "exit status 3", r.Error)

		r = w.code(t, ctx, "python", "def f(:\n  pass")
		assert.Equal(t, 1, r.ExitCode)
		assert.Equal(t, "SyntaxError: invalid syntax", r.Error)
	})

	t.Run("a program past the time limit is stopped", func(t *testing.T) {
		t.Parallel()
		python(t)
		// 5 s: time for CPython to start and print while every adapter's
		// tests run in parallel on a loaded machine.
		w := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{CodeExecution: lifecycle.CodeExecutionOptions{Timeout: 5 * time.Second}})
		ctx := w.thread(t)
		start := time.Now()
		r := w.code(t, ctx, "python", "import time, sys\nprint('started', flush=True)\ntime.sleep(30)")
		assert.Less(t, time.Since(start), 20*time.Second)
		assert.True(t, r.TimedOut)
		assert.Equal(t, 124, r.ExitCode)
		assert.Equal(t, "started\n", r.Stdout)
		assert.Equal(t, "timed out: the program did not finish within 5 seconds and was stopped", r.Error)
	})

	t.Run("javascript", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		w.needs(t, ctx, "node", h.JavaScript)

		w.writeFile(t, ctx, "lib.js", "module.exports = 41\n")
		r := w.code(t, ctx, "javascript", "const x = require('./lib')\nconsole.log(x + 1)\nrequire('fs').writeFileSync('page.html', '<p>hi</p>')")
		assert.Equal(t, "42\n", r.Stdout, r.Stderr)
		assert.Equal(t, []tools.File{{Path: "page.html", MediaType: "text/html", Size: 9}}, r.Files)

		r = w.code(t, ctx, "js", "console.log('a')\nthrow new TypeError('boom')")
		assert.Equal(t, 1, r.ExitCode)
		assert.Equal(t, "a\n", r.Stdout)
		assert.Equal(t, "TypeError: boom", r.Error)
	})

	t.Run("a sandbox without the language says so", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		if w.has(t, ctx, "python3") {
			t.Skip("this sandbox has python3")
		}
		r := w.code(t, ctx, "python", "print(1)")
		assert.Equal(t, 127, r.ExitCode)
		assert.Equal(t, "python3 is not available in this sandbox (exit status 127)", r.Error)
	})

	t.Run("bad input", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		_, err := w.call(t, ctx, lifecycle.ToolCodeExecution, `{"language": "ruby", "code": "puts 1"}`)
		assert.Equal(t, `Unsupported language "ruby": code_execution runs "python" or "javascript".`, modelError(t, err))
		_, err = w.call(t, ctx, lifecycle.ToolCodeExecution, `{"language": "python"}`)
		assert.Equal(t, "no code provided.", modelError(t, err))
	})
}
