package tools_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/tools"
)

func str(s string) *string { return &s }

// Each command runs in a new shell that starts where the last one ended.
func ExampleBash() {
	ctx := context.Background()
	env := tools.Env{Sandbox: memory.NewSandbox(memory.Options{})}
	bash := tools.Bash{}
	_, _ = bash.Run(ctx, env, tools.BashInput{Command: "mkdir -p src && cd src && X=1"})
	r, _ := bash.Run(ctx, env, tools.BashInput{Command: `pwd; echo "X=$X"`})
	fmt.Print(r.Stdout)
	r, _ = bash.Run(ctx, env, tools.BashInput{Restart: true, Command: "pwd"})
	fmt.Print(r.Stdout, r.Note, "\n")
	// Output:
	// /home/user/src
	// X=
	// /home/user
	// tool has been restarted.
}

func ExampleTextEditor() {
	ctx := context.Background()
	env := tools.Env{Sandbox: memory.NewSandbox(memory.Options{Files: map[string]string{"hello.py": "def hello():\n    print('hi')"}})}
	editor := tools.TextEditor{}
	out, _ := editor.Run(ctx, env, tools.EditorInput{Command: tools.CmdStrReplace, Path: "hello.py", OldStr: str("'hi'"), NewStr: str("'hello'")})
	fmt.Println(out.OK, out.Message)
	_, err := editor.Run(ctx, env, tools.EditorInput{Command: tools.CmdStrReplace, Path: "hello.py", OldStr: str("'hi'")})
	fmt.Println(err)
	view, _ := editor.Run(ctx, env, tools.EditorInput{Command: tools.CmdView, Path: "hello.py", ViewRange: []int{2, 2}})
	raw, _ := json.Marshal(view) // what the model sees
	fmt.Println(string(raw))
	// Output:
	// true The file hello.py has been edited. Here's the result of running `cat -n` on a snippet of hello.py:
	//      1	def hello():
	//      2	    print('hello')
	// Review the changes and make sure they are as expected. Edit the file again if necessary.
	// No replacement was performed, old_str `'hi'` did not appear verbatim in hello.py.
	// {"path":"hello.py","content":"Here's the result of running `cat -n` on hello.py:\n     2\t    print('hello')\n","totalLines":2}
}

func ExampleCapText() {
	fmt.Println(tools.CapText("abcdefghijklmnopqrstuvwxyz", 10))
	// Output:
	// abcde
	// ... [16 characters cut] ...
	// vwxyz
}
