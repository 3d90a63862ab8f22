package cond

import (
	"io/fs"
	"path"
	"strings"
	"testing"
	"testing/fstest"
)

// fsEnv is an Env over a map file system with the working directory /.
type fsEnv struct {
	fsys fstest.MapFS
	opts map[string]bool
	vars map[string]bool
}

func (e fsEnv) Abs(p string) string { return path.Clean("/" + p) }

func (e fsEnv) Stat(p string) (fs.FileInfo, error) {
	return fs.Stat(e.fsys, strings.TrimPrefix(p, "/"))
}

func (e fsEnv) Lstat(p string) (fs.FileInfo, error) { return e.Stat(p) }
func (e fsEnv) Option(name string) bool             { return e.opts[name] }
func (e fsEnv) IsSet(name string) bool              { return e.vars[name] }
func (e fsEnv) IsNameRef(name string) bool          { return false }

// TestTest: each want (status 0 true, 1 false, 2 with the message) was
// printed by bash 5.2's test builtin in a directory with a file f
// ("hi\n"), an empty file empty and a directory d.
func TestTest(t *testing.T) {
	env := fsEnv{
		fsys: fstest.MapFS{
			"f":     {Data: []byte("hi\n"), Mode: 0o644},
			"empty": {Mode: 0o644},
			"d":     {Mode: fs.ModeDir | 0o755},
		},
		opts: map[string]bool{"errexit": true},
		vars: map[string]bool{"x": true},
	}
	tests := []struct {
		args   string
		status int
		msg    string
	}{
		{args: "", status: 1},
		{args: "-f f", status: 0},
		{args: "-f d", status: 1},
		{args: "-d d", status: 0},
		{args: "-s f", status: 0},
		{args: "-s empty", status: 1},
		{args: "-e nope", status: 1},
		{args: "! -e nope", status: 0},
		{args: "f -ef ./f", status: 0},
		{args: "a = a", status: 0},
		{args: "a != a", status: 1},
		{args: "b > a", status: 0},
		{args: "1 -eq 01", status: 0},
		{args: "-x", status: 0},
		{args: "-z", status: 0},
		{args: "a -a b", status: 0},
		{args: "( a )", status: 0},
		{args: "! a = b", status: 0},
		{args: "-o errexit", status: 0},
		{args: "-o nounset", status: 1},
		{args: "-v x", status: 0},
		{args: "-v y", status: 1},
		{args: "a -eq 1", status: 2, msg: "a: integer expression expected"},
		{args: "x y", status: 2, msg: "x: unary operator expected"},
		{args: "x -lt", status: 2, msg: "x: unary operator expected"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			ok, err := Test(env, strings.Fields(tt.args))
			status, msg := 1, ""
			if ok {
				status = 0
			}
			if err != nil {
				e, isErr := err.(*Error)
				if !isErr {
					t.Fatalf("Test(%s) error %T %v, want *Error", tt.args, err, err)
				}
				status, msg = 2, e.Msg
			}
			if status != tt.status || msg != tt.msg {
				t.Fatalf("Test(%s) = %d %q, want %d %q", tt.args, status, msg, tt.status, tt.msg)
			}
		})
	}
}
