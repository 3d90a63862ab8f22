package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/sandbox"
)

// The text editor's names: text_editor, and the names Claude's own
// versions of it go by.
const (
	TextEditorName = "text_editor"
	// StrReplaceBasedEditTool is the name of text_editor_20250429 and
	// text_editor_20250728 (Claude 4).
	StrReplaceBasedEditTool = "str_replace_based_edit_tool"
	// StrReplaceEditor is the name of text_editor_20241022 and
	// text_editor_20250124.
	StrReplaceEditor = "str_replace_editor"
)

// Anthropic's types of the built-in (schema-less) client tools these tools
// implement, which Claude knows by the name each requires: see NativeType.
// code_execution has none: Anthropic's code_execution_20250825 is a server
// tool, run by Anthropic in its own container, so declaring it would take
// the calls away from the sandbox.
const (
	// NativeBash is bash_20250124, named "bash".
	NativeBash = "bash_20250124"
	// NativeTextEditor is text_editor_20250728 (Claude 4), named
	// StrReplaceBasedEditTool.
	NativeTextEditor = "text_editor_20250728"
	// NativeStrReplaceEditor is text_editor_20250124 (Claude 3.7), named
	// StrReplaceEditor.
	NativeStrReplaceEditor = "text_editor_20250124"
)

// NativeType returns the Anthropic built-in tool type that a tool named
// name implements, or "" when there is none: NativeBash for "bash",
// NativeTextEditor for StrReplaceBasedEditTool, NativeStrReplaceEditor for
// StrReplaceEditor. TextEditorName and "code_execution" have none (a
// built-in type fixes its tool's name, and text_editor is no built-in's).
func NativeType(name string) string {
	switch name {
	case "bash":
		return NativeBash
	case StrReplaceBasedEditTool:
		return NativeTextEditor
	case StrReplaceEditor:
		return NativeStrReplaceEditor
	}
	return ""
}

// The text editor's commands.
const (
	CmdView       = "view"
	CmdCreate     = "create"
	CmdStrReplace = "str_replace"
	CmdInsert     = "insert"
	CmdUndoEdit   = "undo_edit"
)

// EditorCommands lists the commands, in the reference's order.
var EditorCommands = []string{CmdView, CmdCreate, CmdStrReplace, CmdInsert, CmdUndoEdit}

const (
	// DefaultMaxCharacters is how much of a file view shows before the
	// ClippedNotice, as the reference's 16 000.
	DefaultMaxCharacters = 16000
	// DefaultMaxEditBytes is the largest file the editor changes.
	DefaultMaxEditBytes = 1 << 20
	// DefaultMaxViewBytes is the largest file the editor reads to view.
	DefaultMaxViewBytes = 16 << 20
	// MaxUndo is how many edits of one file undo_edit can take back.
	MaxUndo = 10
	// snippetLines is how many lines around an edit its snippet shows.
	snippetLines = 4
	// maxListedDirs caps the folders a directory view lists.
	maxListedDirs = 1000
)

// ClippedNotice follows a view cut at the character limit (the reference's
// TRUNCATED_MESSAGE).
const ClippedNotice = "<response clipped><NOTE>To save on context only part of this file has been shown to you. You should retry this tool after you have searched inside the file with `grep -n` in order to find the line numbers of what you are looking for.</NOTE>"

// EditorInput is the text editor's input, as models send it. Pointers tell
// an absent parameter from an empty one.
type EditorInput struct {
	Command string `json:"command"`
	// Path is absolute, or relative to the start folder.
	Path string `json:"path"`
	// FileText is create's content.
	FileText *string `json:"file_text,omitempty"`
	// OldStr is what str_replace replaces: it must occur exactly once.
	OldStr *string `json:"old_str,omitempty"`
	// NewStr replaces OldStr (absent: deletes it); for insert, the text
	// when InsertText is absent (the older tool versions' parameter).
	NewStr *string `json:"new_str,omitempty"`
	// InsertLine is the line insert puts the text after; 0 is the top.
	InsertLine *int `json:"insert_line,omitempty"`
	// InsertText is insert's text (text_editor_20250728).
	InsertText *string `json:"insert_text,omitempty"`
	// ViewRange is [start, end] of the lines view shows, 1-based and
	// inclusive; end -1 is the end of the file.
	ViewRange []int `json:"view_range,omitempty"`
}

// TextEditor is the text editor tool. The zero value is ready to use.
type TextEditor struct {
	// Name is the tool's name in messages; default TextEditorName.
	Name string
	// MaxCharacters clips a view (the max_characters of
	// text_editor_20250728); default DefaultMaxCharacters.
	MaxCharacters int
	// MaxEditBytes is the largest file it changes; default
	// DefaultMaxEditBytes.
	MaxEditBytes int64
	// MaxViewBytes is the largest file it views; default
	// DefaultMaxViewBytes.
	MaxViewBytes int64
	// NoOverwrite makes create refuse an existing file, with the
	// reference's text, instead of replacing it.
	NoOverwrite bool
	// CapChars caps the result's text (CapText); default
	// DefaultResultCapChars, negative for no cap.
	CapChars int
}

// EditorResult is the result of one text editor command, as the model
// sees it (JSON): a view is {"path", "content", "totalLines"}; a command
// that changes a file is {"ok": true, "message"}. Either has "note" when
// the sandbox has something to say (a fresh sandbox). A failed command is
// an error (*Error) instead.
type EditorResult struct {
	// Command is the command that ran; CmdView gives the view's shape.
	Command string `json:"-"`
	// Path is the viewed path, as the call gave it.
	Path string `json:"path"`
	// Content is the view, in the reference tool's words: the file's
	// lines numbered as cat -n numbers them (a view_range's only), or a
	// folder's listing two levels deep.
	Content string `json:"content"`
	// TotalLines is the number of lines of the viewed file (a last line
	// without a newline counts), or of the folder's listing.
	TotalLines int `json:"totalLines"`
	// OK is true for a change that was made.
	OK bool `json:"ok"`
	// Message says what changed, in the reference tool's words ("File
	// created successfully at: a.txt", "The file a.txt has been edited.
	// ...").
	Message string `json:"message"`
	// Note is for the model about the sandbox; usually "".
	Note string `json:"note,omitempty"`
}

// MarshalJSON gives the result's shape: view's or a change's.
func (r EditorResult) MarshalJSON() ([]byte, error) {
	if r.Command == CmdView {
		return json.Marshal(struct {
			Path       string `json:"path"`
			Content    string `json:"content"`
			TotalLines int    `json:"totalLines"`
			Note       string `json:"note,omitempty"`
		}{r.Path, r.Content, r.TotalLines, r.Note})
	}
	return json.Marshal(struct {
		OK      bool   `json:"ok"`
		Message string `json:"message"`
		Note    string `json:"note,omitempty"`
	}{r.OK, r.Message, r.Note})
}

// Text is the result as plain text: the note, then the view or the
// message, as the reference tool prints it.
func (r EditorResult) Text() string {
	if r.Command == CmdView {
		return SystemNote(r.Note) + r.Content
	}
	return SystemNote(r.Note) + r.Message
}

// EditorOutputSchema is the JSON schema of EditorResult (for MCP's
// outputSchema): the view's shape or a change's.
const EditorOutputSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "view: the path viewed, as given."},
    "content": {"type": "string", "description": "view: the file's lines numbered as cat -n numbers them, or a folder's listing."},
    "totalLines": {"type": "integer", "description": "view: the number of lines of the file (or of the listing)."},
    "ok": {"type": "boolean", "description": "A change: true once it is made."},
    "message": {"type": "string", "description": "A change: what changed."},
    "note": {"type": "string", "description": "A note about the sandbox (it is fresh), when there is one."}
  },
  "anyOf": [
    {"required": ["path", "content", "totalLines"]},
    {"required": ["ok", "message"]}
  ]
}`

// Run runs one command and returns its result.
func (t TextEditor) Run(ctx context.Context, env Env, in EditorInput) (EditorResult, error) {
	env, err := env.resolve(ctx)
	if err != nil {
		return EditorResult{}, err
	}
	out, total, err := t.run(ctx, env, in)
	if err != nil {
		return EditorResult{}, env.withNote(err)
	}
	out = CapText(out, capOr(t.CapChars))
	if in.Command == CmdView {
		return EditorResult{Command: CmdView, Path: in.Path, Content: out, TotalLines: total, Note: env.Note}, nil
	}
	return EditorResult{Command: in.Command, OK: true, Message: out, Note: env.Note}, nil
}

// countLines counts text's lines: its newlines, and a last line without
// one.
func countLines(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// editCall is one command in progress.
type editCall struct {
	t     TextEditor
	env   Env
	fsys  sandbox.FileSystem
	in    EditorInput
	abs   string // the resolved path
	shown string // the path as the model wrote it
	total int    // a view's line count
}

func (t TextEditor) run(ctx context.Context, env Env, in EditorInput) (string, int, error) {
	c, out, err := t.dispatch(ctx, env, in)
	if c == nil {
		return out, 0, err
	}
	return out, c.total, err
}

// dispatch runs in's command; the call it returns, if any, has the view's
// line count.
func (t TextEditor) dispatch(ctx context.Context, env Env, in EditorInput) (*editCall, string, error) {
	if !isCommand(in.Command) {
		return nil, "", errorf("Unrecognized command %s. The allowed commands for the %s tool are: %s", in.Command, cmpOr(t.Name, TextEditorName), strings.Join(EditorCommands, ", "))
	}
	if in.Path == "" {
		return nil, "", errorf("Parameter `path` is required for command: %s", in.Command)
	}
	c := &editCall{t: t, env: env, fsys: env.Sandbox.FileSystem(), in: in, abs: env.abs(in.Path), shown: in.Path}
	st, exists, err := c.stat(ctx, c.abs)
	if err != nil {
		return nil, "", err
	}
	switch {
	case !exists && in.Command != CmdCreate:
		return nil, "", errorf("The path %s does not exist. Please provide a valid path.", c.shown)
	case exists && in.Command == CmdCreate && (t.NoOverwrite || st.isDir):
		if st.isDir {
			return nil, "", errorf("The path %s is a directory and only the `view` command can be used on directories", c.shown)
		}
		return nil, "", errorf("File already exists at: %s. Cannot overwrite files using command `create`.", c.shown)
	case exists && st.isDir && in.Command != CmdView:
		return nil, "", errorf("The path %s is a directory and only the `view` command can be used on directories", c.shown)
	}
	var out string
	switch {
	case in.Command == CmdView && st.isDir:
		out, err = c.viewDir(ctx)
	case in.Command == CmdView:
		out, err = c.view(ctx, st)
	case in.Command == CmdCreate:
		out, err = c.create(ctx, st, exists)
	case in.Command == CmdStrReplace:
		out, err = c.strReplace(ctx, st)
	case in.Command == CmdInsert:
		out, err = c.insert(ctx, st)
	default:
		out, err = c.undo(ctx)
	}
	return c, out, err
}

func isCommand(cmd string) bool {
	for _, c := range EditorCommands {
		if c == cmd {
			return true
		}
	}
	return false
}

// stat finds p through its parent's listing: whether it exists, is a
// folder, and its size. The port has no Stat.
func (c *editCall) stat(ctx context.Context, p string) (stat, bool, error) {
	if p == "/" {
		return stat{isDir: true}, true, nil
	}
	ents, err := c.fsys.ReadDir(ctx, path.Dir(p))
	if errors.Is(err, sandbox.ErrOutsideRoot) {
		// The root of an adapter that confines a host folder (local) has
		// its parent outside: list p itself.
		_, err := c.fsys.ReadDir(ctx, p)
		switch {
		case err == nil:
			return stat{isDir: true}, true, nil
		case errors.Is(err, sandbox.ErrOutsideRoot):
			return stat{}, false, errorf("The path %s is outside the sandbox.", c.shown)
		}
		return stat{}, false, nil
	}
	switch {
	case err != nil && (errors.Is(err, fs.ErrNotExist) || isNotDir(err)):
		return stat{}, false, nil
	case err != nil:
		return stat{}, false, err
	}
	name := path.Base(p)
	for _, e := range ents {
		if e.Name == name {
			return stat{size: e.Size, mod: e.ModTime, isDir: e.IsDir}, true, nil
		}
	}
	return stat{}, false, nil
}

// isNotDir reports a listing of something that is not a folder.
func isNotDir(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && (errors.Is(err, fs.ErrInvalid) || strings.Contains(strings.ToLower(pe.Err.Error()), "not a directory"))
}

// read returns a text file's content, refusing one too large or not text.
func (c *editCall) read(ctx context.Context, st stat, limit int64, verb string) (string, error) {
	if st.size > limit {
		return "", errorf("The file %s is too large to %s with this tool (%d bytes; the limit is %d). Use bash instead: grep -n, head, tail or sed -n '10,20p' show parts of it.", c.shown, verb, st.size, limit)
	}
	b, err := c.fsys.ReadFileBytes(ctx, c.abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", errorf("The path %s does not exist. Please provide a valid path.", c.shown)
	case errors.Is(err, fs.ErrInvalid):
		// A folder after all (through a link, which a listing shows as a
		// file).
		return "", &Error{Text: fmt.Sprintf("The path %s is a directory and only the `view` command can be used on directories", c.shown), Err: err}
	case err != nil:
		return "", ranInto(err, "read", c.shown)
	}
	if int64(len(b)) > limit {
		return "", errorf("The file %s is too large to %s with this tool (%d bytes; the limit is %d). Use bash instead: grep -n, head, tail or sed -n '10,20p' show parts of it.", c.shown, verb, len(b), limit)
	}
	if !isText(b) {
		return "", errorf("The file %s is not a text file (it has NUL bytes or is not valid UTF-8); this tool only views and edits text. Use bash for other files.", c.shown)
	}
	return string(b), nil
}

// readForEdit reads a file to change.
func (c *editCall) readForEdit(ctx context.Context, st stat) (string, error) {
	return c.read(ctx, st, cmpInt64(c.t.MaxEditBytes, DefaultMaxEditBytes), "edit")
}

func isText(b []byte) bool { return bytes.IndexByte(b, 0) < 0 && utf8.Valid(b) }

func cmpInt64(n, def int64) int64 {
	if n > 0 {
		return n
	}
	return def
}

func (c *editCall) maxChars() int {
	if c.t.MaxCharacters > 0 {
		return c.t.MaxCharacters
	}
	return DefaultMaxCharacters
}

// view shows a file, or a range of its lines, in the cat -n format.
func (c *editCall) view(ctx context.Context, st stat) (string, error) {
	content, err := c.read(ctx, st, cmpInt64(c.t.MaxViewBytes, DefaultMaxViewBytes), "view")
	if errors.Is(err, fs.ErrInvalid) {
		return c.viewDir(ctx)
	}
	if err != nil {
		return "", err
	}
	c.total = countLines(content)
	initLine := 1
	if vr := c.in.ViewRange; vr != nil {
		if len(vr) != 2 {
			return "", errorf("Invalid `view_range`. It should be a list of two integers.")
		}
		lines := strings.Split(content, "\n")
		n := len(lines)
		start, end := vr[0], vr[1]
		shown := fmt.Sprintf("[%d, %d]", start, end)
		switch {
		case start < 1 || start > n:
			return "", errorf("Invalid `view_range`: %s. Its first element `%d` should be within the range of lines of the file: [1, %d]", shown, start, n)
		case end > n:
			return "", errorf("Invalid `view_range`: %s. Its second element `%d` should be smaller than the number of lines in the file: `%d`", shown, end, n)
		case end != -1 && end < start:
			return "", errorf("Invalid `view_range`: %s. Its second element `%d` should be larger or equal than its first `%d`", shown, end, start)
		}
		if end == -1 {
			end = n
		}
		content = strings.Join(lines[start-1:end], "\n")
		initLine = start
	}
	return makeOutput(content, c.shown, initLine, c.maxChars()), nil
}

// viewDir lists a folder two levels deep, hidden entries left out, one path
// per line with the folder first, as the reference's find does.
func (c *editCall) viewDir(ctx context.Context) (string, error) {
	if c.in.ViewRange != nil {
		return "", errorf("The `view_range` parameter is not allowed when `path` points to a directory.")
	}
	base := strings.TrimRight(c.shown, "/")
	if base == "" {
		base = "/"
	}
	join := func(parent, name string) string {
		if strings.HasSuffix(parent, "/") {
			return parent + name
		}
		return parent + "/" + name
	}
	var b strings.Builder
	b.WriteString(c.shown + "\n")
	ents, err := c.fsys.ReadDir(ctx, c.abs)
	if err != nil {
		return "", ranInto(err, "read", c.shown)
	}
	dirs := 0
	for _, e := range ents {
		if strings.HasPrefix(e.Name, ".") {
			continue
		}
		p := join(base, e.Name)
		b.WriteString(p + "\n")
		if !e.IsDir || dirs >= maxListedDirs {
			continue
		}
		dirs++
		sub, err := c.fsys.ReadDir(ctx, path.Join(c.abs, e.Name))
		if err != nil {
			continue // unreadable: find would say so on stderr; list the rest
		}
		for _, s := range sub {
			if !strings.HasPrefix(s.Name, ".") {
				b.WriteString(join(p, s.Name) + "\n")
			}
		}
	}
	c.total = countLines(b.String())
	listing := clip(b.String(), c.maxChars())
	return "Here's the files and directories up to 2 levels deep in " + c.shown + ", excluding hidden items:\n" + listing + "\n", nil
}

// create writes a file, replacing one that is there unless NoOverwrite.
func (c *editCall) create(ctx context.Context, st stat, exists bool) (string, error) {
	if c.in.FileText == nil {
		return "", errorf("Parameter `file_text` is required for command: create")
	}
	h := c.history()
	var old *string
	if exists {
		content, err := c.readForEdit(ctx, st)
		if err != nil {
			return "", err
		}
		old = &content
	}
	if err := c.write(ctx, h, old, *c.in.FileText); err != nil {
		return "", err
	}
	if exists {
		return "File created successfully at: " + c.shown + ". It replaced the file that was there; undo_edit brings that back.", nil
	}
	return "File created successfully at: " + c.shown, nil
}

// strReplace replaces the one place old_str occurs.
func (c *editCall) strReplace(ctx context.Context, st stat) (string, error) {
	if c.in.OldStr == nil {
		return "", errorf("Parameter `old_str` is required for command: str_replace")
	}
	oldStr, newStr := *c.in.OldStr, ""
	if c.in.NewStr != nil {
		newStr = *c.in.NewStr
	}
	if oldStr == "" {
		return "", errorf("No replacement was performed, old_str is empty. Give the exact text to replace, with enough context to make it unique.")
	}
	content, err := c.readForEdit(ctx, st)
	if err != nil {
		return "", err
	}
	at := matches(content, oldStr)
	switch {
	case len(at) == 0:
		return "", errorf("No replacement was performed, old_str `%s` did not appear verbatim in %s.", oldStr, c.shown)
	case len(at) > 1:
		return "", errorf("No replacement was performed. Multiple occurrences of old_str `%s` in lines %s. Please ensure it is unique", oldStr, pyList(matchLines(content, at)))
	}
	i := at[0]
	next := content[:i] + newStr + content[i+len(oldStr):]
	if err := c.write(ctx, c.history(), &content, next); err != nil {
		return "", err
	}
	line := strings.Count(content[:i], "\n")
	start := max(0, line-snippetLines)
	end := line + snippetLines + strings.Count(newStr, "\n")
	lines := strings.Split(next, "\n")
	snippet := strings.Join(lines[min(start, len(lines)):min(end+1, len(lines))], "\n")
	return "The file " + c.shown + " has been edited. " +
		makeOutput(snippet, "a snippet of "+c.shown, start+1, c.maxChars()) +
		"Review the changes and make sure they are as expected. Edit the file again if necessary.", nil
}

// insert puts text after line insert_line.
func (c *editCall) insert(ctx context.Context, st stat) (string, error) {
	if c.in.InsertLine == nil {
		return "", errorf("Parameter `insert_line` is required for command: insert")
	}
	text := c.in.InsertText
	if text == nil {
		text = c.in.NewStr
	}
	if text == nil {
		return "", errorf("Parameter `insert_text` is required for command: insert")
	}
	content, err := c.readForEdit(ctx, st)
	if err != nil {
		return "", err
	}
	at := *c.in.InsertLine
	lines := strings.Split(content, "\n")
	n := len(lines)
	if at < 0 || at > n {
		return "", errorf("Invalid `insert_line` parameter: %d. It should be within the range of lines of the file: [0, %d]", at, n)
	}
	added := strings.Split(*text, "\n")
	next := make([]string, 0, n+len(added))
	next = append(append(append(next, lines[:at]...), added...), lines[at:]...)
	snippet := make([]string, 0, 2*snippetLines+len(added))
	snippet = append(append(append(snippet, lines[max(0, at-snippetLines):at]...), added...), lines[at:min(n, at+snippetLines)]...)
	if err := c.write(ctx, c.history(), &content, strings.Join(next, "\n")); err != nil {
		return "", err
	}
	return "The file " + c.shown + " has been edited. " +
		makeOutput(strings.Join(snippet, "\n"), "a snippet of the edited file", max(1, at-snippetLines+1), c.maxChars()) +
		"Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.", nil
}

// undo takes back the last edit of the file.
func (c *editCall) undo(ctx context.Context) (string, error) {
	h := c.history()
	prev, ok, err := h.last(ctx)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errorf("No edit history found for %s.", c.shown)
	}
	if prev == nil {
		if err := c.fsys.Remove(ctx, c.abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", ranInto(err, "write to", c.shown)
		}
	} else if err := c.fsys.WriteFile(ctx, c.abs, []byte(*prev)); err != nil {
		return "", ranInto(err, "write to", c.shown)
	}
	if err := h.drop(ctx); err != nil {
		return "", err
	}
	if prev == nil {
		return "Last edit to " + c.shown + " undone successfully. The file did not exist before that edit, so it is gone again.", nil
	}
	return "Last edit to " + c.shown + " undone successfully. " + makeOutput(*prev, c.shown, 1, c.maxChars()), nil
}

// write records old (nil: the file did not exist) in the history, then
// writes the file; a failed write takes the record back.
func (c *editCall) write(ctx context.Context, h history, old *string, content string) error {
	if err := h.push(ctx, old); err != nil {
		return err
	}
	if err := c.fsys.WriteFile(ctx, c.abs, []byte(content)); err != nil {
		_ = h.drop(context.WithoutCancel(ctx))
		return ranInto(err, "write to", c.shown)
	}
	return nil
}

func (c *editCall) history() history {
	return history{st: store{c.env.Sandbox}, dir: c.env.state("text_editor", "history", pathKey(c.abs)), path: c.abs}
}

// matches returns the byte offset of every place old occurs in s,
// overlapping ones included (in "aaa", "aa" occurs at 0 and 1).
func matches(s, old string) []int {
	var at []int
	for from := 0; from <= len(s)-len(old); {
		i := strings.Index(s[from:], old)
		if i < 0 {
			break
		}
		at = append(at, from+i)
		_, size := utf8.DecodeRuneInString(s[from+i:])
		from += i + max(size, 1)
	}
	return at
}

// matchLines returns the 1-based lines the matches at offsets start on,
// each line once.
func matchLines(s string, at []int) []int {
	var lines []int
	line, pos := 1, 0
	for _, i := range at {
		line += strings.Count(s[pos:i], "\n")
		pos = i
		if len(lines) == 0 || lines[len(lines)-1] != line {
			lines = append(lines, line)
		}
	}
	return lines
}

// pyList renders ints as Python prints a list: [1, 5, 9].
func pyList(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// clip cuts s after limit characters and adds ClippedNotice (the
// reference's maybe_truncate).
func clip(s string, limit int) string {
	if limit <= 0 || len(s) <= limit || utf8.RuneCountInString(s) <= limit {
		return s
	}
	return s[:byteOffset(s, limit)] + ClippedNotice
}

// makeOutput renders content in the cat -n format under the reference's
// header: each line as its number right-aligned in 6 columns, a tab and
// the line, numbering from initLine; clipped first, tabs kept.
func makeOutput(content, descriptor string, initLine, limit int) string {
	content = clip(content, limit)
	var b strings.Builder
	b.WriteString("Here's the result of running `cat -n` on " + descriptor + ":\n")
	for i, line := range strings.Split(content, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%6d\t%s", initLine+i, line)
	}
	b.WriteByte('\n')
	return b.String()
}
