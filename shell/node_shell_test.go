package shell

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestNodeRun runs node through the shell: pipes, redirections, $?.
func TestNodeRun(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{`echo 'console.log(1+1)' | node`, "2\n[0]"},
		{`node -e 'process.exit(3)'; echo $?`, "3\n[0]"},
		{`printf 'console.log("to file")' > x.js; node x.js > out.txt; cat out.txt`, "to file\n[0]"},
		{`printf 'hello data' > data.txt; node -e 'console.log(require("fs").readFileSync("data.txt","utf8"))'`, "hello data\n[0]"},
		{`nodejs -p '[1,2].map(x => x * 2)'`, "[ 2, 4 ]\n[0]"},
		{`node -e 'require("fs").writeFileSync("w.txt", "from node\n")' && cat w.txt`, "from node\n[0]"},
		{`seq 3 | node -e 'console.log(require("fs").readFileSync(0, "utf8").split("\n").filter(Boolean).map(Number).reduce((a, b) => a + b))'`, "6\n[0]"},
		{`node -e 'console.log(process.env.GREETING, process.cwd())'`, "hi /home/user\n[0]"},
		{`node -e 'throw new Error("x")' 2>/dev/null; echo $?`, "1\n[0]"},
		{`node -e 'console.log("out"); console.error("err")' 2>&1 | cat`, "out\nerr\n[0]"},
		{`cd src && node -p 'process.cwd()'`, "/home/user/src\n[0]"},
		{`node -e 'for (;;) console.log("y")' | head -2`, "y\ny\n[0]"},
		{`printf '#!/usr/bin/env node\nconsole.log(process.argv.slice(2))\n' > t.js; chmod +x t.js; ./t.js a b`, "[ 'a', 'b' ]\n[0]"},
		{`command -v node nodejs`, "/usr/bin/node\n/usr/bin/nodejs\n[0]"},
		{`node -p 'require("fs").readFileSync("/dev/stdin", "utf8").length' < a.txt`, "20\n[0]"},
	} {
		got, err := runWith(newShTestFS(t, shTestFiles), tc.script, Options{Env: map[string]string{"GREETING": "hi"}})
		if err != nil || got != tc.want {
			t.Errorf("%s:\ngot  %q (%v)\nwant %q", tc.script, got, err, tc.want)
		}
	}
}

// TestNodeContextThroughShell: a node busy loop run by the shell ends at
// ctx's deadline with status 124, and the script does not go on.
func TestNodeContextThroughShell(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var out bytes.Buffer
	code, err := Run(ctx, `node -e 'while(true){}'; echo after`, Options{FS: newShTestFS(t, nil), Dir: "/", Stdout: &out, Stderr: &out})
	if code != TimeoutExitCode || !errors.Is(err, context.DeadlineExceeded) || strings.Contains(out.String(), "after") {
		t.Errorf("Run: %d %v %q", code, err, out.String())
	}
}
