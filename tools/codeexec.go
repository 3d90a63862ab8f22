package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// DefaultCodeTimeout is the time limit of one code_execution run.
const DefaultCodeTimeout = 60 * time.Second

// Languages code_execution runs.
const (
	Python     = "python"
	JavaScript = "javascript"
)

// CodeNoCode is the error of a call without code.
const CodeNoCode = "no code provided."

// CodeInput is the code_execution tool's input.
type CodeInput struct {
	// Language is "python" (the default) or "javascript".
	Language string `json:"language,omitempty"`
	// Code is the program.
	Code string `json:"code"`
}

// CodeResult is what a run left.
type CodeResult struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exitCode"`
	// TimedOut is set when the run was stopped at the time limit; the exit
	// code is then 124.
	TimedOut bool `json:"timedOut,omitempty"`
	// Error says why the program failed: the last line of a traceback, or
	// the exit status. Empty when it succeeded.
	Error string `json:"error,omitempty"`
	// Files are the files the run made or changed in the work folder.
	Files []File `json:"files"`
	// Note is for the model: a fresh sandbox, a partial file listing.
	Note string `json:"note,omitempty"`
}

// CodeOutputSchema is the JSON schema of CodeResult (for MCP's
// outputSchema).
const CodeOutputSchema = `{
  "type": "object",
  "properties": {
    "stdout": {"type": "string", "description": "What the program printed on standard output (capped: start and end kept)."},
    "stderr": {"type": "string", "description": "What the program printed on standard error (capped: start and end kept)."},
    "exitCode": {"type": "integer", "description": "The program's exit status; 124 when it timed out."},
    "timedOut": {"type": "boolean", "description": "True when the program was stopped at the time limit."},
    "error": {"type": "string", "description": "Why the program failed: the last line of a traceback, or the exit status."},
    "files": {
      "type": "array",
      "description": "The files the run made or changed in the work folder.",
      "items": {
        "type": "object",
        "properties": {
          "path": {"type": "string", "description": "Relative to the work folder, slash-separated."},
          "mediaType": {"type": "string", "description": "The media type, from the extension."},
          "size": {"type": "integer", "description": "The size in bytes."}
        },
        "required": ["path", "mediaType", "size"]
      }
    },
    "note": {"type": "string", "description": "A note for the model: a fresh sandbox, a partial file listing."}
  },
  "required": ["stdout", "stderr", "exitCode", "files"]
}`

// CodeExecution is the code_execution tool. The zero value is ready to use.
type CodeExecution struct {
	// Timeout is the time limit per run; default DefaultCodeTimeout.
	Timeout time.Duration
	// CapChars caps stdout and stderr together (CapText); default
	// DefaultResultCapChars, negative for no cap.
	CapChars int
	// MaxWalk caps the entries each listing of the work folder visits, to
	// find the files made or changed; default DefaultMaxWalk.
	MaxWalk int
}

// languages maps what models write to a language.
var languages = map[string]string{
	"": Python, "python": Python, "python3": Python, "py": Python,
	"javascript": JavaScript, "js": JavaScript, "node": JavaScript, "nodejs": JavaScript,
}

// NormalizeLanguage returns the language a name means ("py" is python, "js"
// javascript), or "" for one code_execution does not run.
func NormalizeLanguage(name string) string {
	return languages[strings.ToLower(strings.TrimSpace(name))]
}

// Run runs one program in the start folder.
func (c CodeExecution) Run(ctx context.Context, env Env, in CodeInput) (CodeResult, error) {
	env, err := env.resolve(ctx)
	if err != nil {
		return CodeResult{}, err
	}
	lang := NormalizeLanguage(in.Language)
	if lang == "" {
		return CodeResult{}, env.withNote(errorf(`Unsupported language %q: code_execution runs "python" or "javascript".`, in.Language))
	}
	if strings.TrimSpace(in.Code) == "" {
		return CodeResult{}, env.withNote(&Error{Text: CodeNoCode})
	}
	limit := c.MaxWalk
	if limit <= 0 {
		limit = DefaultMaxWalk
	}
	skip := []string{env.StateDir}
	before, byCommand, err := list(ctx, env.Sandbox, env.Workdir, skip, limit, true)
	if err != nil {
		return CodeResult{}, err
	}

	st := store{env.Sandbox}
	prog := env.state("code", "run-"+randomHex(6)+map[string]string{Python: ".py", JavaScript: ".js"}[lang])
	if err := st.write(ctx, prog, []byte(in.Code)); err != nil {
		return CodeResult{}, err
	}
	defer func() { _ = st.remove(context.WithoutCancel(ctx), prog) }()
	var cmd string
	switch lang {
	case Python:
		// The program's own folder is the state dir: put the start folder
		// on the path too, so the work folder's modules import.
		cmd = "PYTHONPATH=" + shq(env.Workdir) + "${PYTHONPATH:+:$PYTHONPATH} python3 " + shq(prog)
	case JavaScript:
		// From standard input, require("./x") resolves in the start folder.
		cmd = "node < " + shq(prog)
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultCodeTimeout
	}
	stdout, stderr := newEmitWriter("stdout", env.Emit), newEmitWriter("stderr", env.Emit)
	r, err := env.Sandbox.RunCommand(ctx, cmd, sandbox.RunCommandOptions{
		Cwd:     env.Workdir,
		Timeout: timeout,
		Stdout:  stdout.writer(),
		Stderr:  stderr.writer(),
	})
	stdout.flush()
	stderr.flush()
	if err != nil {
		return CodeResult{}, err
	}
	after, _, err := list(ctx, env.Sandbox, env.Workdir, skip, limit, byCommand)
	if err != nil {
		return CodeResult{}, err
	}
	res := CodeResult{ExitCode: r.ExitCode, TimedOut: r.TimedOut, Files: changed(before, after), Note: env.Note}
	if !before.complete || !after.complete {
		res.Note = joinNotes(res.Note, fmt.Sprintf("the work folder has more than %d entries; only the first %d were checked for files made or changed", limit, limit))
	}
	if r.Truncated {
		res.Note = joinNotes(res.Note, fmt.Sprintf("the program printed more than %d bytes on a stream; the rest was dropped", sandbox.MaxOutputBytes))
	}
	res.Error = programError(lang, r, timeout)
	res.Stdout, res.Stderr = capPair(r.Stdout, r.Stderr, capOr(c.CapChars))
	return res, nil
}

// errorLine is the line a traceback or a stack trace names its error in:
// "ZeroDivisionError: division by zero", "TypeError: x is not a function".
var errorLine = regexp.MustCompile(`^([A-Za-z_$][\w$.]*)?(Error|Exception|Interrupt|Exit)\b`)

// programError says why a program failed, or "" when it did not.
func programError(lang string, r sandbox.CommandResult, timeout time.Duration) string {
	switch {
	case r.TimedOut:
		return fmt.Sprintf("timed out: the program did not finish within %s seconds and was stopped", seconds(timeout))
	case r.ExitCode == 0:
		return ""
	case r.ExitCode == sandbox.NotFoundExitCode && !strings.Contains(r.Stderr, "Traceback") && !strings.Contains(r.Stderr, "Error"):
		prog := map[string]string{Python: "python3", JavaScript: "node"}[lang]
		return fmt.Sprintf("%s is not available in this sandbox (exit status %d)", prog, r.ExitCode)
	}
	lines := strings.Split(strings.TrimRight(r.Stderr, "\n"), "\n")
	if lang == Python && strings.Contains(r.Stderr, "Traceback (most recent call last):") {
		// Python ends a traceback with the exception line.
		if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
			return last
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); errorLine.MatchString(l) {
			return l
		}
	}
	return fmt.Sprintf("exit status %d", r.ExitCode)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
