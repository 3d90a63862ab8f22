package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Env is what one tool call works with.
type Env struct {
	// Sandbox is where the call runs. Required.
	Sandbox sandbox.Sandbox
	// Workdir is the start folder: the sandbox's work folder. Empty means
	// SandboxInfo.Workdir, asked of the sandbox.
	Workdir string
	// StateDir is the absolute path, inside the sandbox, of the folder for
	// the tools' own files. Empty means DefaultStateDir in the start folder.
	StateDir string
	// Emit, when set, receives the live output of a running command, in
	// order: stream is "stdout" or "stderr", text is valid UTF-8.
	Emit func(stream, text string)
	// Note, when set, is a note for the model about the sandbox (that it is
	// fresh and the old files are lost, say). It is put into the call's
	// result, or its *Error.
	Note string
}

// DefaultStateDir is the state dir, relative to the start folder, of an Env
// that names none.
const DefaultStateDir = ".agentenkit"

// resolve fills in the Env's defaults.
func (e Env) resolve(ctx context.Context) (Env, error) {
	if e.Sandbox == nil {
		return e, errors.New("tools: Env.Sandbox is required")
	}
	if e.Workdir == "" {
		info, err := e.Sandbox.GetInfo(ctx)
		if err != nil {
			return e, err
		}
		e.Workdir = info.Workdir
	}
	if e.Workdir == "" {
		e.Workdir = "/"
	}
	e.StateDir = sandbox.ResolvePath(e.Workdir, cmpOr(e.StateDir, DefaultStateDir))
	return e, nil
}

// abs resolves p against the start folder.
func (e Env) abs(p string) string { return sandbox.ResolvePath(e.Workdir, p) }

// state returns the path of a file of the tools' own.
func (e Env) state(elem ...string) string {
	return path.Join(append([]string{e.StateDir}, elem...)...)
}

// Error is a failure the model should see and can act on: a bad input, an
// old_str that does not match, a path that does not exist. Its text is the
// reference tools' wording where they have one.
type Error struct {
	// Text is what the model is told.
	Text string
	// Err is the failure behind it, if any (reading or writing the file).
	Err error
}

func (e *Error) Error() string { return e.Text }

// Unwrap returns Err, so that a sandbox that went away part way still
// matches sandbox.ErrGone.
func (e *Error) Unwrap() error { return e.Err }

// errorf returns an *Error.
func errorf(format string, args ...any) *Error {
	return &Error{Text: fmt.Sprintf(format, args...)}
}

// ranInto is the reference's text for a file that could not be read or
// written ("read" or "write to").
func ranInto(err error, verb, shown string) *Error {
	return &Error{Text: fmt.Sprintf("Ran into %v while trying to %s %s", err, verb, shown), Err: err}
}

// withNote prefixes an *Error's text with the Env's note, as the reference
// plumbing shows a system note: <system>note</system> and a newline.
func (e Env) withNote(err error) error {
	var te *Error
	if e.Note == "" || !errors.As(err, &te) {
		return err
	}
	return &Error{Text: SystemNote(e.Note) + te.Text, Err: te.Err}
}

// SystemNote renders a note for the model as the reference tools put one
// before a result's text: "<system>note</system>\n". Empty for no note.
func SystemNote(note string) string {
	if note == "" {
		return ""
	}
	return "<system>" + note + "</system>\n"
}

// joinNotes joins notes with newlines, skipping empty ones.
func joinNotes(notes ...string) string {
	var kept []string
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	return strings.Join(kept, "\n")
}

// shq quotes s for a POSIX shell.
func shq(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// emitWriter passes a command's output on to Env.Emit as it arrives,
// holding back an incomplete UTF-8 sequence at the end of a chunk until the
// rest comes, so every piece is valid text.
type emitWriter struct {
	stream string
	emit   func(stream, text string)
	carry  []byte
}

func newEmitWriter(stream string, emit func(stream, text string)) *emitWriter {
	if emit == nil {
		return nil
	}
	return &emitWriter{stream: stream, emit: emit}
}

func (w *emitWriter) Write(p []byte) (int, error) {
	buf := append(w.carry, p...)
	cut := len(buf)
	// Back up over at most three bytes of an unfinished rune.
	for i := 1; i <= 3 && i <= len(buf); i++ {
		b := buf[len(buf)-i]
		if utf8.RuneStart(b) {
			if !utf8.FullRune(buf[len(buf)-i:]) {
				cut = len(buf) - i
			}
			break
		}
	}
	if cut > 0 {
		w.emit(w.stream, strings.ToValidUTF8(string(buf[:cut]), "\uFFFD"))
	}
	w.carry = append([]byte(nil), buf[cut:]...)
	return len(p), nil
}

// flush sends what is held back.
func (w *emitWriter) flush() {
	if w != nil && len(w.carry) > 0 {
		w.emit(w.stream, strings.ToValidUTF8(string(w.carry), "\uFFFD"))
		w.carry = nil
	}
}

// writer returns w as an io.Writer, nil when there is no emit function (a
// nil *emitWriter in an interface would not be nil).
func (w *emitWriter) writer() io.Writer {
	if w == nil {
		return nil
	}
	return w
}
