package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/tools"
)

func cmdShell(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "shell", "shell [--provider P] [--thread T] [--timeout D]", `
Reads command lines from the terminal (or any stdin) and runs each in the
sandbox, its output streamed as it comes. Each line runs in a new shell that
starts where the last one ended: cd carries over, variables do not (as the
bash tool does for a model). A line ending in \ goes on on the next one.
exit [N] or end of input (Ctrl-D) ends the session with the last line's exit
status; Ctrl-C stops the running line.

Without --thread the sandbox lasts for the session. With --thread T it is the
thread's: the next shell or run with the same thread finds its files.`)
	provider := providerFlag(fs)
	thread := fs.String("thread", "", "the thread whose sandbox to use (kept after the session)")
	timeout := fs.Duration("timeout", 10*time.Minute, "kill a line's command after this long (exit 124)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(e, fs, fmt.Sprintf("shell takes no arguments (got %q); use agentenkit run -- COMMAND for one command", strings.Join(fs.Args(), " ")))
	}
	st, err := openState(ctx, e, *provider)
	if err != nil {
		return fail(e, err)
	}
	defer st.Close()
	tid := *thread
	if tid == "" {
		tid = "shell-" + randomHex(6)
		defer func() {
			if err := st.rt.DeleteThread(context.WithoutCancel(ctx), tid); err != nil {
				fmt.Fprintf(e.stderr, "agentenkit: end the session's sandbox: %v\n", err)
			}
		}()
	}
	tctx := lifecycle.WithThread(ctx, tid)
	// The sandbox is made before the first prompt, so an error shows now.
	h, err := st.rt.SandboxFor(tctx)
	if err != nil {
		return fail(e, threadHint(err, tid))
	}
	interactive := isTerminal(e.stdin)
	if interactive {
		fmt.Fprintf(e.stderr, "agentenkit shell: %s sandbox %s (thread %s). exit or Ctrl-D ends it.\n", h.Sandbox.Provider(), h.Sandbox.ID(), tid)
	}
	if note := h.Note; note != "" {
		fmt.Fprintln(e.stderr, "agentenkit: "+note)
	}
	bash := tools.Bash{Timeout: *timeout, CapChars: -1}
	var in interrupter
	in.watch(e, interactive)
	lines := readLines(e.stdin)
	status := 0
	for {
		if interactive {
			fmt.Fprint(e.stderr, "$ ")
		}
		line, ok := <-lines
		if !ok {
			if interactive {
				fmt.Fprintln(e.stderr)
			}
			return status
		}
		for strings.HasSuffix(line, `\`) {
			if interactive {
				fmt.Fprint(e.stderr, "> ")
			}
			more, ok := <-lines
			if !ok {
				break
			}
			line = strings.TrimSuffix(line, `\`) + more // as the shell does, backslash-newline goes
		}
		cmd := strings.TrimSpace(line)
		if cmd == "" || strings.HasPrefix(cmd, "#") {
			continue
		}
		if code, ok := exitLine(cmd, status); ok {
			return code
		}
		code, err := shellLine(tctx, e, st.rt, bash, &in, cmd)
		if err != nil {
			fmt.Fprintf(e.stderr, "agentenkit: %v\n", err)
			if errors.Is(err, context.Canceled) && ctx.Err() != nil {
				return 130
			}
			status = 1
			continue
		}
		status = code
	}
}

// interrupter sends interrupts to the running line, if any; at the prompt
// one just gives a fresh prompt, as bash does.
type interrupter struct {
	mu          sync.Mutex
	cancel      context.CancelFunc
	interrupted bool
}

func (in *interrupter) watch(e *env, interactive bool) {
	if e.interrupts == nil {
		return
	}
	go func() {
		for range e.interrupts {
			in.mu.Lock()
			if in.cancel != nil {
				in.cancel()
				in.interrupted = true
			} else if interactive {
				fmt.Fprint(e.stderr, "\n$ ") // the terminal has echoed ^C
			}
			in.mu.Unlock()
		}
	}()
}

// begin returns the ctx of a line that an interrupt cancels, and end, which
// reports whether it was.
func (in *interrupter) begin(ctx context.Context) (context.Context, func() bool) {
	ctx, cancel := context.WithCancel(ctx)
	in.mu.Lock()
	in.cancel, in.interrupted = cancel, false
	in.mu.Unlock()
	return ctx, func() bool {
		in.mu.Lock()
		defer in.mu.Unlock()
		in.cancel = nil
		cancel()
		return in.interrupted
	}
}

// shellLine runs one line through the bash tool, streaming its output, and
// returns its exit status.
func shellLine(ctx context.Context, e *env, rt *runtime.Runtime, bash tools.Bash, in *interrupter, cmd string) (int, error) {
	ctx, end := in.begin(ctx)
	res, err := func() (tools.BashResult, error) {
		h, err := rt.SandboxFor(ctx)
		if err != nil {
			return tools.BashResult{}, err
		}
		if note := h.Note; note != "" {
			fmt.Fprintln(e.stderr, "agentenkit: "+note)
		}
		env := tools.Env{Sandbox: h.Sandbox, Emit: func(stream, text string) {
			if stream == "stderr" {
				io.WriteString(e.stderr, text)
			} else {
				io.WriteString(e.stdout, text)
			}
		}}
		return bash.Run(ctx, env, tools.BashInput{Command: cmd})
	}()
	if end() {
		fmt.Fprintln(e.stderr) // after the ^C the terminal echoed
		return 130, nil
	}
	if err != nil {
		var te *tools.Error
		if errors.As(err, &te) {
			fmt.Fprintln(e.stderr, te.Text)
			return 1, nil
		}
		return 0, err
	}
	if res.TimedOut {
		fmt.Fprintf(e.stderr, "agentenkit: the command timed out and was killed (--timeout sets the limit)\n")
	}
	return res.ExitCode, nil
}

var exitPattern = regexp.MustCompile(`^(exit|logout)(\s+(-?\d+))?\s*;?$`)

// exitLine reports whether cmd ends the session, and with which status.
func exitLine(cmd string, last int) (int, bool) {
	m := exitPattern.FindStringSubmatch(cmd)
	if m == nil {
		return 0, false
	}
	if m[3] == "" {
		return last, true
	}
	n, _ := strconv.Atoi(m[3])
	return n & 0xff, true
}

// readLines sends stdin's lines on a channel, closed at EOF. Reading in the
// background lets an interrupt stop a running line while a read waits.
func readLines(r io.Reader) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := br.ReadString('\n')
			if line != "" || err == nil {
				ch <- strings.TrimRight(line, "\r\n")
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// isTerminal reports whether r is a terminal (a character device).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
