package toolstest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/tools"
)

// editorCase is one call of the text editor against the reference's
// behaviour. In inputs and texts, {W} is the work folder.
type editorCase struct {
	name string
	// files seed the sandbox (relative to the work folder; a name ending
	// in "/" is a folder).
	files map[string]string
	// before are calls that must succeed first.
	before []string
	// tool is the name called; default text_editor.
	tool string
	// opts tune the editor.
	opts lifecycle.TextEditorOptions
	in   string
	// want is the result's text; wantErr the failure's, exactly.
	want, wantErr string
	// after are files' contents after the call; gone, files that must
	// not exist.
	after map[string]string
	gone  []string
}

const (
	cat   = "Here's the result of running `cat -n` on "
	rev   = "Review the changes and make sure they are as expected. Edit the file again if necessary."
	revIn = "Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary."
)

func editorCases() []editorCase {
	three := map[string]string{"a.txt": "one\ntwo\nthree\n"}
	long := strings.Repeat("x", 20000)
	twenty := ""
	for i := 1; i <= 20; i++ {
		twenty += fmt.Sprintf("l%d\n", i)
	}
	tree := map[string]string{
		"src/a.go": "package a\n", "src/.hidden": "h", "src/.git/config": "c",
		"src/sub/b.go": "package sub\n", "src/sub/deep/c.go": "package deep\n", "src/empty/": "",
	}
	return []editorCase{
		// view
		{name: "view a file in the cat -n format", files: three, in: `{"command":"view","path":"a.txt"}`,
			want: cat + "a.txt:\n     1\tone\n     2\ttwo\n     3\tthree\n     4\t\n"},
		{name: "view an absolute path", files: three, in: `{"command":"view","path":"{W}/a.txt"}`,
			want: cat + "{W}/a.txt:\n     1\tone\n     2\ttwo\n     3\tthree\n     4\t\n"},
		{name: "view a range", files: three, in: `{"command":"view","path":"a.txt","view_range":[2,3]}`,
			want: cat + "a.txt:\n     2\ttwo\n     3\tthree\n"},
		{name: "view a range to the end with -1", files: three, in: `{"command":"view","path":"a.txt","view_range":[2,-1]}`,
			want: cat + "a.txt:\n     2\ttwo\n     3\tthree\n     4\t\n"},
		{name: "view a range sent as a string", files: three, in: `{"command":"view","path":"a.txt","view_range":"[3, 3]"}`,
			want: cat + "a.txt:\n     3\tthree\n"},
		{name: "view range starting before the file", files: three, in: `{"command":"view","path":"a.txt","view_range":[0,2]}`,
			wantErr: "Invalid `view_range`: [0, 2]. Its first element `0` should be within the range of lines of the file: [1, 4]"},
		{name: "view range starting after the file", files: three, in: `{"command":"view","path":"a.txt","view_range":[5,-1]}`,
			wantErr: "Invalid `view_range`: [5, -1]. Its first element `5` should be within the range of lines of the file: [1, 4]"},
		{name: "view range ending after the file", files: three, in: `{"command":"view","path":"a.txt","view_range":[2,9]}`,
			wantErr: "Invalid `view_range`: [2, 9]. Its second element `9` should be smaller than the number of lines in the file: `4`"},
		{name: "view range ending before its start", files: three, in: `{"command":"view","path":"a.txt","view_range":[3,2]}`,
			wantErr: "Invalid `view_range`: [3, 2]. Its second element `2` should be larger or equal than its first `3`"},
		{name: "view range of one number", files: three, in: `{"command":"view","path":"a.txt","view_range":[1]}`,
			wantErr: "Invalid `view_range`. It should be a list of two integers."},
		{name: "view range of words", files: three, in: `{"command":"view","path":"a.txt","view_range":["a","b"]}`,
			wantErr: "Invalid `view_range`. It should be a list of two integers."},
		{name: "view a missing path", in: `{"command":"view","path":"nope.txt"}`,
			wantErr: "The path nope.txt does not exist. Please provide a valid path."},
		{name: "view a path under a file", files: three, in: `{"command":"view","path":"a.txt/b"}`,
			wantErr: "The path a.txt/b does not exist. Please provide a valid path."},
		{name: "view a folder two levels deep without hidden items", files: tree, in: `{"command":"view","path":"src"}`,
			want: "Here's the files and directories up to 2 levels deep in src, excluding hidden items:\nsrc\nsrc/a.go\nsrc/empty\nsrc/sub\nsrc/sub/b.go\nsrc/sub/deep\n\n"},
		{name: "view a folder by its absolute path", files: tree, in: `{"command":"view","path":"{W}/src/sub"}`,
			want: "Here's the files and directories up to 2 levels deep in {W}/src/sub, excluding hidden items:\n{W}/src/sub\n{W}/src/sub/b.go\n{W}/src/sub/deep\n{W}/src/sub/deep/c.go\n\n"},
		{name: "view a folder with a trailing slash", files: tree, in: `{"command":"view","path":"src/sub/"}`,
			want: "Here's the files and directories up to 2 levels deep in src/sub/, excluding hidden items:\nsrc/sub/\nsrc/sub/b.go\nsrc/sub/deep\nsrc/sub/deep/c.go\n\n"},
		{name: "view the work folder", files: map[string]string{"w.txt": "w"}, in: `{"command":"view","path":"{W}"}`,
			want: "Here's the files and directories up to 2 levels deep in {W}, excluding hidden items:\n{W}\n{W}/w.txt\n\n"},
		{name: "view a folder with a range", files: tree, in: `{"command":"view","path":"src","view_range":[1,2]}`,
			wantErr: "The `view_range` parameter is not allowed when `path` points to a directory."},
		{name: "view keeps tabs", files: map[string]string{"t.go": "func f() {\n\treturn\n}"}, in: `{"command":"view","path":"t.go"}`,
			want: cat + "t.go:\n     1\tfunc f() {\n     2\t\treturn\n     3\t}\n"},
		{name: "view clips a long file at 16000 characters", files: map[string]string{"long.txt": long}, in: `{"command":"view","path":"long.txt"}`,
			want: cat + "long.txt:\n     1\t" + long[:16000] + tools.ClippedNotice + "\n"},
		{name: "view clips at max_characters", files: map[string]string{"long.txt": long}, opts: lifecycle.TextEditorOptions{MaxCharacters: 10},
			in: `{"command":"view","path":"long.txt"}`, want: cat + "long.txt:\n     1\txxxxxxxxxx" + tools.ClippedNotice + "\n"},
		{name: "view refuses a file with NUL bytes", files: map[string]string{"bin.dat": "PK\x00\x01"}, in: `{"command":"view","path":"bin.dat"}`,
			wantErr: "The file bin.dat is not a text file (it has NUL bytes or is not valid UTF-8); this tool only views and edits text. Use bash for other files."},
		{name: "view refuses invalid UTF-8", files: map[string]string{"latin1.txt": "caf\xe9\n"}, in: `{"command":"view","path":"latin1.txt"}`,
			wantErr: "The file latin1.txt is not a text file (it has NUL bytes or is not valid UTF-8); this tool only views and edits text. Use bash for other files."},

		// create
		{name: "create a file", in: `{"command":"create","path":"new.txt","file_text":"hello\n"}`,
			want: "File created successfully at: new.txt", after: map[string]string{"new.txt": "hello\n"}},
		{name: "create makes the folders", in: `{"command":"create","path":"deep/er/x.txt","file_text":"x"}`,
			want: "File created successfully at: deep/er/x.txt", after: map[string]string{"deep/er/x.txt": "x"}},
		{name: "create an empty file", in: `{"command":"create","path":"{W}/empty.txt","file_text":""}`,
			want: "File created successfully at: {W}/empty.txt", after: map[string]string{"empty.txt": ""}},
		{name: "create replaces an existing file", files: three, in: `{"command":"create","path":"a.txt","file_text":"new\n"}`,
			want: "File created successfully at: a.txt. It replaced the file that was there; undo_edit brings that back.", after: map[string]string{"a.txt": "new\n"}},
		{name: "create refuses an existing file with NoOverwrite", files: three, opts: lifecycle.TextEditorOptions{NoOverwrite: true},
			in:      `{"command":"create","path":"a.txt","file_text":"new\n"}`,
			wantErr: "File already exists at: a.txt. Cannot overwrite files using command `create`.", after: three},
		{name: "create on a folder", files: tree, in: `{"command":"create","path":"src","file_text":"x"}`,
			wantErr: "The path src is a directory and only the `view` command can be used on directories"},
		{name: "create without file_text", in: `{"command":"create","path":"x.txt"}`,
			wantErr: "Parameter `file_text` is required for command: create", gone: []string{"x.txt"}},

		// str_replace
		{name: "str_replace one place", files: map[string]string{"f.py": "def f():\n    return 1\n"},
			in:    `{"command":"str_replace","path":"f.py","old_str":"return 1","new_str":"return 2"}`,
			want:  "The file f.py has been edited. " + cat + "a snippet of f.py:\n     1\tdef f():\n     2\t    return 2\n     3\t\n" + rev,
			after: map[string]string{"f.py": "def f():\n    return 2\n"}},
		{name: "str_replace with no match", files: map[string]string{"f.py": "def f():\n    return 1\n"},
			in:      `{"command":"str_replace","path":"f.py","old_str":"return 9","new_str":"x"}`,
			wantErr: "No replacement was performed, old_str `return 9` did not appear verbatim in f.py.", after: map[string]string{"f.py": "def f():\n    return 1\n"}},
		{name: "str_replace with matches on two lines", files: map[string]string{"m.txt": "x = 1\ny = 2\nx = 1\n"},
			in:      `{"command":"str_replace","path":"m.txt","old_str":"x = 1","new_str":"z"}`,
			wantErr: "No replacement was performed. Multiple occurrences of old_str `x = 1` in lines [1, 3]. Please ensure it is unique", after: map[string]string{"m.txt": "x = 1\ny = 2\nx = 1\n"}},
		{name: "str_replace reports where multi-line matches start", files: map[string]string{"m.txt": "a\nb\nc\na\nb\n"},
			in:      `{"command":"str_replace","path":"m.txt","old_str":"a\nb","new_str":"z"}`,
			wantErr: "No replacement was performed. Multiple occurrences of old_str `a\nb` in lines [1, 4]. Please ensure it is unique"},
		{name: "str_replace counts overlapping matches", files: map[string]string{"o.txt": "aaa\n"},
			in:      `{"command":"str_replace","path":"o.txt","old_str":"aa","new_str":"b"}`,
			wantErr: "No replacement was performed. Multiple occurrences of old_str `aa` in lines [1]. Please ensure it is unique"},
		{name: "str_replace without new_str deletes", files: map[string]string{"d.txt": "keep\ndrop\nkeep2\n"},
			in:    `{"command":"str_replace","path":"d.txt","old_str":"drop\n"}`,
			want:  "The file d.txt has been edited. " + cat + "a snippet of d.txt:\n     1\tkeep\n     2\tkeep2\n     3\t\n" + rev,
			after: map[string]string{"d.txt": "keep\nkeep2\n"}},
		{name: "str_replace keeps tabs", files: map[string]string{"t.go": "func f() {\n\treturn 1\n}\n"},
			in:    `{"command":"str_replace","path":"t.go","old_str":"\treturn 1","new_str":"\treturn 2"}`,
			want:  "The file t.go has been edited. " + cat + "a snippet of t.go:\n     1\tfunc f() {\n     2\t\treturn 2\n     3\t}\n     4\t\n" + rev,
			after: map[string]string{"t.go": "func f() {\n\treturn 2\n}\n"}},
		{name: "str_replace does not match spaces for a tab", files: map[string]string{"t.go": "func f() {\n\treturn 1\n}\n"},
			in:      `{"command":"str_replace","path":"t.go","old_str":"    return 1","new_str":"x"}`,
			wantErr: "No replacement was performed, old_str `    return 1` did not appear verbatim in t.go."},
		{name: "str_replace shows four lines around the edit", files: map[string]string{"n.txt": twenty},
			in:    `{"command":"str_replace","path":"n.txt","old_str":"l10\n","new_str":"L10\nL10b\n"}`,
			want:  "The file n.txt has been edited. " + cat + "a snippet of n.txt:\n     6\tl6\n     7\tl7\n     8\tl8\n     9\tl9\n    10\tL10\n    11\tL10b\n    12\tl11\n    13\tl12\n    14\tl13\n    15\tl14\n    16\tl15\n" + rev,
			after: map[string]string{"n.txt": strings.Replace(twenty, "l10\n", "L10\nL10b\n", 1)}},
		{name: "str_replace in text with accents", files: map[string]string{"u.txt": "héllo wörld\n"},
			in:    `{"command":"str_replace","path":"u.txt","old_str":"wörld","new_str":"wêlt"}`,
			want:  "The file u.txt has been edited. " + cat + "a snippet of u.txt:\n     1\théllo wêlt\n     2\t\n" + rev,
			after: map[string]string{"u.txt": "héllo wêlt\n"}},
		{name: "str_replace without old_str", files: three, in: `{"command":"str_replace","path":"a.txt","new_str":"x"}`,
			wantErr: "Parameter `old_str` is required for command: str_replace"},
		{name: "str_replace on a folder", files: tree, in: `{"command":"str_replace","path":"src","old_str":"a","new_str":"b"}`,
			wantErr: "The path src is a directory and only the `view` command can be used on directories"},
		{name: "str_replace on a missing file", in: `{"command":"str_replace","path":"{W}/nope.py","old_str":"a","new_str":"b"}`,
			wantErr: "The path {W}/nope.py does not exist. Please provide a valid path."},
		{name: "str_replace refuses a file over the edit limit", files: map[string]string{"big.txt": strings.Repeat("y", tools.DefaultMaxEditBytes+1)},
			in:      `{"command":"str_replace","path":"big.txt","old_str":"yy","new_str":"z"}`,
			wantErr: "The file big.txt is too large to edit with this tool (1048577 bytes; the limit is 1048576). Use bash instead: grep -n, head, tail or sed -n '10,20p' show parts of it."},

		// insert
		{name: "insert at the top with insert_text", files: map[string]string{"i.txt": "b\nc\n"},
			in:    `{"command":"insert","path":"i.txt","insert_line":0,"insert_text":"a"}`,
			want:  "The file i.txt has been edited. " + cat + "a snippet of the edited file:\n     1\ta\n     2\tb\n     3\tc\n     4\t\n" + revIn,
			after: map[string]string{"i.txt": "a\nb\nc\n"}},
		{name: "insert with new_str as the older versions send it", files: map[string]string{"i.txt": "a\nb\nc"},
			in:    `{"command":"insert","path":"i.txt","insert_line":2,"new_str":"X"}`,
			want:  "The file i.txt has been edited. " + cat + "a snippet of the edited file:\n     1\ta\n     2\tb\n     3\tX\n     4\tc\n" + revIn,
			after: map[string]string{"i.txt": "a\nb\nX\nc"}},
		{name: "insert prefers insert_text to new_str", files: map[string]string{"i.txt": "a\n"},
			in:    `{"command":"insert","path":"i.txt","insert_line":1,"insert_text":"yes","new_str":"no"}`,
			want:  "The file i.txt has been edited. " + cat + "a snippet of the edited file:\n     1\ta\n     2\tyes\n     3\t\n" + revIn,
			after: map[string]string{"i.txt": "a\nyes\n"}},
		{name: "insert deep in a file shows four lines before and after", files: map[string]string{"n.txt": twenty},
			in:    `{"command":"insert","path":"n.txt","insert_line":10,"insert_text":"\tnew"}`,
			want:  "The file n.txt has been edited. " + cat + "a snippet of the edited file:\n     7\tl7\n     8\tl8\n     9\tl9\n    10\tl10\n    11\t\tnew\n    12\tl11\n    13\tl12\n    14\tl13\n    15\tl14\n" + revIn,
			after: map[string]string{"n.txt": strings.Replace(twenty, "l10\n", "l10\n\tnew\n", 1)}},
		{name: "insert into an empty file", files: map[string]string{"e.txt": ""},
			in:    `{"command":"insert","path":"e.txt","insert_line":0,"insert_text":"x"}`,
			want:  "The file e.txt has been edited. " + cat + "a snippet of the edited file:\n     1\tx\n     2\t\n" + revIn,
			after: map[string]string{"e.txt": "x\n"}},
		{name: "insert_line sent as a string", files: map[string]string{"i.txt": "a\n"},
			in: `{"command":"insert","path":"i.txt","insert_line":"1","insert_text":"b"}`, after: map[string]string{"i.txt": "a\nb\n"},
			want: "The file i.txt has been edited. " + cat + "a snippet of the edited file:\n     1\ta\n     2\tb\n     3\t\n" + revIn},
		{name: "insert past the end", files: map[string]string{"i.txt": "a\nb\n"},
			in:      `{"command":"insert","path":"i.txt","insert_line":5,"insert_text":"x"}`,
			wantErr: "Invalid `insert_line` parameter: 5. It should be within the range of lines of the file: [0, 3]"},
		{name: "insert before the start", files: map[string]string{"i.txt": "a\nb\n"},
			in:      `{"command":"insert","path":"i.txt","insert_line":-1,"insert_text":"x"}`,
			wantErr: "Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 3]"},
		{name: "insert without insert_line", files: three, in: `{"command":"insert","path":"a.txt","insert_text":"x"}`,
			wantErr: "Parameter `insert_line` is required for command: insert"},
		{name: "insert without text", files: three, in: `{"command":"insert","path":"a.txt","insert_line":1}`,
			wantErr: "Parameter `insert_text` is required for command: insert"},

		// undo_edit
		{name: "undo a str_replace", files: map[string]string{"u.txt": "old\n"},
			before: []string{`{"command":"str_replace","path":"u.txt","old_str":"old","new_str":"new"}`},
			in:     `{"command":"undo_edit","path":"u.txt"}`,
			want:   "Last edit to u.txt undone successfully. " + cat + "u.txt:\n     1\told\n     2\t\n", after: map[string]string{"u.txt": "old\n"}},
		{name: "undo an insert by another path to the same file", files: map[string]string{"u.txt": "a\n"},
			before: []string{`{"command":"insert","path":"u.txt","insert_line":0,"insert_text":"z"}`},
			in:     `{"command":"undo_edit","path":"{W}/u.txt"}`,
			want:   "Last edit to {W}/u.txt undone successfully. " + cat + "{W}/u.txt:\n     1\ta\n     2\t\n", after: map[string]string{"u.txt": "a\n"}},
		{name: "undo with no history", files: three, in: `{"command":"undo_edit","path":"a.txt"}`,
			wantErr: "No edit history found for a.txt."},
		{name: "undo a create removes the file again", before: []string{`{"command":"create","path":"fresh.txt","file_text":"x"}`},
			in:   `{"command":"undo_edit","path":"fresh.txt"}`,
			want: "Last edit to fresh.txt undone successfully. The file did not exist before that edit, so it is gone again.", gone: []string{"fresh.txt"}},
		{name: "undo a create over a file brings it back", files: three, before: []string{`{"command":"create","path":"a.txt","file_text":"replaced"}`},
			in:   `{"command":"undo_edit","path":"a.txt"}`,
			want: "Last edit to a.txt undone successfully. " + cat + "a.txt:\n     1\tone\n     2\ttwo\n     3\tthree\n     4\t\n", after: three},
		{name: "undo on a missing path", in: `{"command":"undo_edit","path":"nope"}`,
			wantErr: "The path nope does not exist. Please provide a valid path."},

		// commands and names
		{name: "unknown command", files: three, in: `{"command":"delete","path":"a.txt"}`,
			wantErr: "Unrecognized command delete. The allowed commands for the text_editor tool are: view, create, str_replace, insert, undo_edit"},
		{name: "unknown command under Claude 4's name", tool: tools.StrReplaceBasedEditTool, files: three, in: `{"command":"append","path":"a.txt"}`,
			wantErr: "Unrecognized command append. The allowed commands for the str_replace_based_edit_tool tool are: view, create, str_replace, insert, undo_edit"},
		{name: "Claude 4's name edits too", tool: tools.StrReplaceBasedEditTool, files: three,
			in:   `{"command":"view","path":"a.txt","view_range":[1,1]}`,
			want: cat + "a.txt:\n     1\tone\n"},
		{name: "no path", in: `{"command":"view"}`, wantErr: "Parameter `path` is required for command: view"},
		{name: "a relative path with a folder", files: tree, in: `{"command":"view","path":"src/sub/b.go"}`,
			want: cat + "src/sub/b.go:\n     1\tpackage sub\n     2\t\n"},
	}
}

func testEditor(t *testing.T, h Harness) {
	worlds := map[string]*world{}
	world := func(o lifecycle.TextEditorOptions) *world {
		key := fmt.Sprint(o.MaxCharacters, o.NoOverwrite, o.MaxUses)
		if w, ok := worlds[key]; ok {
			return w
		}
		w := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{TextEditor: o})
		worlds[key] = w
		return w
	}
	cases := editorCases()
	// Every world is made here, on this test, so that a missing adapter
	// skips the editor's tests as a whole instead of failing a subtest
	// whose parent was skipped.
	for _, c := range cases {
		world(c.opts)
	}
	t.Run("reference", func(t *testing.T) {
		for _, c := range cases {
			w := world(c.opts)
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				ctx := w.thread(t)
				wd := w.workdir(t, ctx)
				sub := func(s string) string { return strings.ReplaceAll(s, "{W}", wd) }
				for p, content := range c.files {
					if strings.HasSuffix(p, "/") {
						require.NoError(t, w.sandbox(t, ctx).FileSystem().Mkdir(ctx, p))
						continue
					}
					w.writeFile(t, ctx, p, content)
				}
				tool := c.tool
				if tool == "" {
					tool = lifecycle.ToolTextEditor
				}
				for _, in := range c.before {
					_, err := w.call(t, ctx, tool, sub(jsonSub(in, wd)))
					require.NoError(t, err, in)
				}
				if c.wantErr != "" {
					_, err := w.call(t, ctx, tool, jsonSub(c.in, wd))
					assert.Equal(t, sub(c.wantErr), modelError(t, err))
				} else {
					out, err := w.edit(t, ctx, jsonSub(c.in, wd), tool)
					require.NoError(t, err)
					assert.Equal(t, sub(c.want), out)
				}
				for p, want := range c.after {
					got, ok := w.readFile(t, ctx, p)
					assert.True(t, ok, "%s exists", p)
					assert.Equal(t, want, got, p)
				}
				for _, p := range c.gone {
					_, ok := w.readFile(t, ctx, p)
					assert.False(t, ok, "%s is not there", p)
				}
			})
		}
	})

	w := world(lifecycle.TextEditorOptions{})
	t.Run("undo takes back up to 10 edits of a file", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		w.writeFile(t, ctx, "f.txt", "v0")
		for i := 1; i <= 11; i++ {
			w.mustEdit(t, ctx, fmt.Sprintf(`{"command":"str_replace","path":"f.txt","old_str":"v%d","new_str":"v%d"}`, i-1, i))
		}
		for i := 10; i >= 1; i-- {
			out := w.mustEdit(t, ctx, `{"command":"undo_edit","path":"f.txt"}`)
			assert.Equal(t, "Last edit to f.txt undone successfully. "+cat+fmt.Sprintf("f.txt:\n     1\tv%d\n", i), out)
		}
		_, err := w.edit(t, ctx, `{"command":"undo_edit","path":"f.txt"}`)
		assert.Equal(t, "No edit history found for f.txt.", modelError(t, err), "the 11th undo")
		got, _ := w.readFile(t, ctx, "f.txt")
		assert.Equal(t, "v1", got, "the oldest edit is past the limit")
	})

	t.Run("files edited through bash and the editor agree", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		w.sh(t, ctx, "mkdir -p pkg && cd pkg && printf 'a\\tb\\n' > t.tsv")
		out := w.mustEdit(t, ctx, `{"command":"str_replace","path":"pkg/t.tsv","old_str":"a\tb","new_str":"a\tc"}`)
		assert.Contains(t, out, "     1\ta\tc\n")
		assert.Equal(t, "a\tc\n", w.sh(t, ctx, "cat t.tsv").Stdout, "bash, still in pkg, sees the tab kept")
	})
}

// jsonSub puts the work folder into a JSON input's {W}, escaped as JSON.
func jsonSub(in, wd string) string {
	b, _ := json.Marshal(wd)
	return strings.ReplaceAll(in, "{W}", strings.Trim(string(b), `"`))
}
