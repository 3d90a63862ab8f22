package tools

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// DefaultBashTimeout is the time limit of one bash command.
const DefaultBashTimeout = 120 * time.Second

// The bash tool's reference texts (anthropic-quickstarts bash.py).
const (
	// BashRestarted is the result of restart: true.
	BashRestarted = "tool has been restarted."
	// BashNoCommand is the error of a call with neither a command nor
	// restart.
	BashNoCommand = "no command provided."
)

// BashInput is the bash tool's input, as models send it.
type BashInput struct {
	// Command is the command to run. Required unless Restart.
	Command string `json:"command,omitempty"`
	// Restart goes back to the start folder. With a command, the command
	// then runs there.
	Restart bool `json:"restart,omitempty"`
}

// BashResult is what one command left.
type BashResult struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exitCode"`
	// TimedOut is set when the command was stopped at the time limit; the
	// exit code is then 124.
	TimedOut bool `json:"timedOut,omitempty"`
	// Note is for the model: the restart, the time limit, a fresh sandbox.
	Note string `json:"note,omitempty"`
}

// BashOutputSchema is the JSON schema of BashResult (for MCP's
// outputSchema).
const BashOutputSchema = `{
  "type": "object",
  "properties": {
    "stdout": {"type": "string", "description": "What the command printed on standard output (capped: start and end kept)."},
    "stderr": {"type": "string", "description": "What the command printed on standard error (capped: start and end kept)."},
    "exitCode": {"type": "integer", "description": "The command's exit status; 124 when it timed out."},
    "timedOut": {"type": "boolean", "description": "True when the command was stopped at the time limit."},
    "note": {"type": "string", "description": "A note for the model: the restart, the time limit, a fresh sandbox."}
  },
  "required": ["stdout", "stderr", "exitCode"]
}`

// Bash is the bash tool. The zero value is ready to use.
type Bash struct {
	// Timeout is the time limit per command; default DefaultBashTimeout.
	Timeout time.Duration
	// CapChars caps stdout and stderr together (CapText); default
	// DefaultResultCapChars, negative for no cap.
	CapChars int
}

// Run runs one call. Each command runs in a new shell that starts in the
// folder the last one ended in.
func (b Bash) Run(ctx context.Context, env Env, in BashInput) (BashResult, error) {
	env, err := env.resolve(ctx)
	if err != nil {
		return BashResult{}, err
	}
	cwdFile := env.state("bash", "cwd")
	note := env.Note
	if in.Restart {
		if err := (store{env.Sandbox}).remove(ctx, cwdFile); err != nil {
			return BashResult{}, err
		}
		note = joinNotes(note, BashRestarted)
		if strings.TrimSpace(in.Command) == "" {
			return BashResult{Note: note}, nil
		}
	}
	if strings.TrimSpace(in.Command) == "" {
		return BashResult{}, env.withNote(&Error{Text: BashNoCommand})
	}
	timeout := b.Timeout
	if timeout <= 0 {
		timeout = DefaultBashTimeout
	}
	stdout, stderr := newEmitWriter("stdout", env.Emit), newEmitWriter("stderr", env.Emit)
	r, err := env.Sandbox.RunCommand(ctx, bashPrefix(cwdFile, env.Workdir)+in.Command, sandbox.RunCommandOptions{
		Timeout: timeout,
		Stdout:  stdout.writer(),
		Stderr:  stderr.writer(),
	})
	stdout.flush()
	stderr.flush()
	if err != nil {
		return BashResult{}, err
	}
	if r.TimedOut {
		note = joinNotes(note, fmt.Sprintf("timed out: bash has not returned in %s seconds and was stopped", seconds(timeout)))
	}
	if r.Truncated {
		note = joinNotes(note, fmt.Sprintf("the command printed more than %d bytes on a stream; the rest was dropped", sandbox.MaxOutputBytes))
	}
	res := BashResult{ExitCode: r.ExitCode, TimedOut: r.TimedOut, Note: note}
	res.Stdout, res.Stderr = capPair(r.Stdout, r.Stderr, capOr(b.CapChars))
	return res, nil
}

// bashPrefix goes before a command, on its first line so the command's line
// numbers stay as written: it changes to the folder the last command ended
// in (the start folder when none did, or that folder is gone) and saves the
// folder this command ends in, however it ends. Both paths are absolute, so
// cd needs no "--" (which not every shell's cd takes).
func bashPrefix(cwdFile, start string) string {
	save := "mkdir -p " + shq(path.Dir(cwdFile)) + " 2>/dev/null; pwd > " + shq(cwdFile) + " 2>/dev/null"
	return `cd "$(cat ` + shq(cwdFile) + ` 2>/dev/null || printf %s ` + shq(start) + `)" 2>/dev/null; trap ` + shq(save) + ` EXIT; `
}

// seconds renders d in seconds: "120", "0.5".
func seconds(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", d.Seconds()), "0"), ".")
}

// capOr is a tool's cap: DefaultResultCapChars for 0, none for negative.
func capOr(n int) int {
	if n == 0 {
		return DefaultResultCapChars
	}
	return n
}
