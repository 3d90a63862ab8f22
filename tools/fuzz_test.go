package tools

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/providers/memory"
)

// FuzzEditor runs random sequences of create, str_replace, insert and
// undo_edit on one file of a memory sandbox, against a model of what each
// should do. It checks that no sequence corrupts the file: after every call
// the file is what the model says; a str_replace that succeeds changed
// exactly the one place old_str occurred; a failed call changed nothing;
// and undoing everything (up to MaxUndo edits) brings the original back.
//
//	go test ./tools -run '^$' -fuzz FuzzEditor -fuzztime 60s
func FuzzEditor(f *testing.F) {
	f.Add("", []byte{1, 0, 5, 1, 2, 3, 4, 5})                        // absent: create, then more
	f.Add("one\ntwo\nthree\n", []byte{0, 1, 0, 0, 3, 2, 1, 2, 3, 3}) // replace a substring, undo
	f.Add("a\tb\na\tb\n", []byte{0, 1, 1, 2, 0, 1, 3, 2, 3, 0})      // multiple matches
	f.Add("x", []byte{0, 2, 3, 4, 0, 6, 3, 3, 3, 3})                 // insert, undo past the start
	f.Add("é\n\n", []byte{0, 0, 4, 5, 5, 5, 5, 1, 2, 0, 2, 3, 2, 0, 0, 1, 1, 3, 3, 3})
	f.Fuzz(func(t *testing.T, original string, script []byte) {
		// Small files and scripts keep each run fast, so the fuzzer's
		// minimizing does not stall it; the edits' logic does not depend on
		// size (the size limits have their own tests).
		original = textOf(original[:min(len(original), 512)])
		script = script[:min(len(script), 256)]
		ctx := context.Background()
		files := map[string]string{}
		exists := len(script) == 0 || script[0]&1 == 0
		if exists {
			files["f.txt"] = original
		}
		sb := memory.NewSandbox(memory.Options{Files: files})
		env := Env{Sandbox: sb}
		ed := TextEditor{}
		r := &fuzzReader{b: script}
		r.byte()

		var cur *string // the model: the file's content, nil when absent
		if exists {
			cur = &original
		}
		var hist []*string
		edits := 0
		push := func(old *string) {
			hist = append(hist, old)
			if len(hist) > MaxUndo {
				hist = hist[1:]
			}
			edits++
		}
		check := func(what string) {
			t.Helper()
			got, err := sb.FileSystem().ReadFile(ctx, "f.txt")
			switch {
			case cur == nil && err == nil:
				t.Fatalf("after %s: the file is there (%q), the model says absent", what, got)
			case cur != nil && err != nil:
				t.Fatalf("after %s: %v; the model says %q", what, err, *cur)
			case cur != nil && got != *cur:
				t.Fatalf("after %s: the file is %q, the model says %q", what, got, *cur)
			}
		}
		run := func(in EditorInput) (string, bool) {
			t.Helper()
			in.Path = "f.txt"
			out, err := ed.Run(ctx, env, in)
			var te *Error
			if err != nil && !errors.As(err, &te) {
				t.Fatalf("%s: %v", in.Command, err)
			}
			return out.Text(), err == nil
		}

		for r.more() && edits < 2*MaxUndo {
			switch r.byte() % 4 {
			case 0:
				text := r.str()
				if _, ok := run(EditorInput{Command: CmdCreate, FileText: &text}); !ok {
					t.Fatalf("create %q failed", text)
				}
				push(cur)
				cur = &text
				check("create")
			case 1:
				var old string
				if cur != nil && r.byte()%2 == 0 && len(*cur) > 0 {
					// A piece of the file, so matches happen.
					s := *cur
					i := int(r.byte()) % len(s)
					j := min(len(s), i+1+int(r.byte())%8)
					old = strings.ToValidUTF8(s[i:j], "")
				} else {
					old = r.str()
				}
				var newStr *string
				if r.byte()%3 != 0 {
					s := r.str()
					newStr = &s
				}
				before := cur
				_, ok := run(EditorInput{Command: CmdStrReplace, OldStr: &old, NewStr: newStr})
				want := before != nil && old != "" && len(matches(*before, old)) == 1
				if ok != want {
					t.Fatalf("str_replace %q in %v: ok %v, want %v", old, deref(before), ok, want)
				}
				if ok {
					i := strings.Index(*before, old)
					replacement := ""
					if newStr != nil {
						replacement = *newStr
					}
					next := (*before)[:i] + replacement + (*before)[i+len(old):]
					push(before)
					cur = &next
				}
				check("str_replace")
			case 2:
				line := int(r.byte()) % 8
				if r.byte()%4 == 0 {
					line = -line
				}
				text := r.str()
				before := cur
				_, ok := run(EditorInput{Command: CmdInsert, InsertLine: &line, InsertText: &text})
				var lines []string
				if before != nil {
					lines = strings.Split(*before, "\n")
				}
				want := before != nil && line >= 0 && line <= len(lines)
				if ok != want {
					t.Fatalf("insert at %d in %v: ok %v, want %v", line, deref(before), ok, want)
				}
				if ok {
					next := strings.Join(append(append(append([]string{}, lines[:line]...), strings.Split(text, "\n")...), lines[line:]...), "\n")
					push(before)
					cur = &next
				}
				check("insert")
			case 3:
				_, ok := run(EditorInput{Command: CmdUndoEdit})
				want := cur != nil && len(hist) > 0
				if ok != want {
					t.Fatalf("undo_edit with %d in the history: ok %v, want %v", len(hist), ok, want)
				}
				if ok {
					cur = hist[len(hist)-1]
					hist = hist[:len(hist)-1]
				}
				check("undo_edit")
			}
		}

		// Undo everything there is.
		for cur != nil && len(hist) > 0 {
			if _, ok := run(EditorInput{Command: CmdUndoEdit}); !ok {
				t.Fatal("undo_edit failed with history left")
			}
			cur = hist[len(hist)-1]
			hist = hist[:len(hist)-1]
			check("the final undo_edit")
		}
		if out, ok := run(EditorInput{Command: CmdUndoEdit}); ok {
			t.Fatalf("an undo past the history worked: %q", out)
		}
		if edits <= MaxUndo {
			if exists != (cur != nil) || (exists && *cur != original) {
				t.Fatalf("after undoing %d edits the file is %v, want the original %q (exists %v)", edits, deref(cur), original, exists)
			}
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return "<absent>"
	}
	return *s
}

// fuzzAlphabet makes the strings of a script: few pieces, so that matches,
// repeats, tabs, line breaks and multi-byte characters are common.
var fuzzAlphabet = []string{"a", "b", "\n", "\t", " ", "é", "x\n", "ab"}

// textOf makes fuzzed text what the editor edits: valid UTF-8 without NUL.
func textOf(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "?"), "\x00", "?")
}

type fuzzReader struct{ b []byte }

func (r *fuzzReader) more() bool { return len(r.b) > 0 }

func (r *fuzzReader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// str reads a length and that many pieces of the alphabet.
func (r *fuzzReader) str() string {
	n := int(r.byte()) % 12
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(fuzzAlphabet[int(r.byte())%len(fuzzAlphabet)])
	}
	return b.String()
}
