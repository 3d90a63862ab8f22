package e2b

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentenkit/agentenkit/providers/e2b/internal/connectrpc"
	"github.com/agentenkit/agentenkit/sandbox"
)

const (
	// killGrace is how long past its limit a command may run before the
	// adapter kills it itself (envd should have ended it at the limit).
	killGrace = 2 * time.Second
	// startWait is how long a kill waits for the start event of a command
	// envd may have started already, to signal it by pid.
	startWait = 2 * time.Second
	// keepaliveSeconds asks envd for a keepalive event after this much
	// silence, as the SDKs do.
	keepaliveSeconds = 50
	// markerEnv carries a token unique to each command into its process
	// tree, so that what a timed-out command left behind can be found.
	markerEnv = "AGENTENKIT_COMMAND_ID"
	// maxTimeoutMs is the largest Connect-Timeout-Ms (10 digits).
	maxTimeoutMs = 9_999_999_999
)

// processConfig is envd's ProcessConfig.
type processConfig struct {
	Cmd  string            `json:"cmd"`
	Args []string          `json:"args,omitempty"`
	Envs map[string]string `json:"envs,omitempty"`
	Cwd  string            `json:"cwd,omitempty"`
}

// startRequest is envd's StartRequest.
type startRequest struct {
	Process processConfig `json:"process"`
	Stdin   *bool         `json:"stdin,omitempty"`
}

// processEvent is envd's ProcessEvent: exactly one member is set.
type processEvent struct {
	Start *struct {
		Pid uint32 `json:"pid"`
	} `json:"start"`
	Data *struct {
		Stdout b64 `json:"stdout"`
		Stderr b64 `json:"stderr"`
		Pty    b64 `json:"pty"`
	} `json:"data"`
	End       *endEvent `json:"end"`
	Keepalive *struct{} `json:"keepalive"`
}

// endEvent is how a process ended. Zero values are left out by envd: no
// exitCode means 0.
type endEvent struct {
	ExitCode int32  `json:"exitCode"`
	Exited   bool   `json:"exited"`
	Status   string `json:"status"`
	Error    string `json:"error"`
}

// b64 is protojson bytes: base64, padded or not, standard or URL alphabet.
type b64 []byte

func (b *b64) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if v, err := enc.DecodeString(s); err == nil {
			*b = v
			return nil
		}
	}
	return fmt.Errorf("bad base64 in output event (%d chars)", len(s))
}

// streamEnd is what a process stream said before its end-of-stream message.
type streamEnd struct {
	pid     uint32
	started bool
	end     *endEvent         // the end event, if one came
	rpcErr  *connectrpc.Error // the end-of-stream error, if any
}

// errStreamCut: the stream stopped without its end-of-stream message.
var errStreamCut = errors.New("the command stream ended without an end-of-stream message")

// readStream reads a Process/Start (or Connect) stream to its end-of-stream
// message, passing output to stdout and stderr as it comes and the pid to
// onStart. Keepalives are skipped.
func readStream(r io.Reader, onStart func(pid uint32), stdout, stderr io.Writer) (streamEnd, error) {
	var se streamEnd
	for {
		env, err := connectrpc.ReadEnvelope(r, 0)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return se, fmt.Errorf("%w: %w", errStreamCut, err)
		}
		if err != nil {
			return se, err
		}
		if env.EndStream() {
			es, err := connectrpc.ParseEndStream(env.Data)
			if err != nil {
				return se, err
			}
			se.rpcErr = es.Error
			return se, nil
		}
		var msg struct {
			Event processEvent `json:"event"`
		}
		if err := json.Unmarshal(env.Data, &msg); err != nil {
			return se, fmt.Errorf("e2b: bad process event: %w", err)
		}
		ev := msg.Event
		switch {
		case ev.Keepalive != nil:
		case ev.Start != nil:
			if se.started {
				return se, fmt.Errorf("e2b: the command stream began twice")
			}
			se.started, se.pid = true, ev.Start.Pid
			if onStart != nil {
				onStart(se.pid)
			}
		case !se.started:
			return se, fmt.Errorf("e2b: the command stream did not begin with a start event")
		case ev.Data != nil:
			if len(ev.Data.Stdout) > 0 {
				_, _ = stdout.Write(ev.Data.Stdout)
			}
			if len(ev.Data.Pty) > 0 {
				_, _ = stdout.Write(ev.Data.Pty)
			}
			if len(ev.Data.Stderr) > 0 {
				_, _ = stderr.Write(ev.Data.Stderr)
			}
		case ev.End != nil:
			end := *ev.End
			se.end = &end
		}
	}
}

// exitCode turns an end event into a shell-style status: the exit code, or
// 128+N for a process killed by signal N (envd reports -1 and "signal: …").
func (e *endEvent) exitCode() int {
	name, signaled := strings.CutPrefix(e.Status, "signal: ")
	if !signaled && e.ExitCode >= 0 {
		return int(e.ExitCode)
	}
	name = strings.TrimSuffix(name, " (core dumped)")
	if n, ok := linuxSignals[name]; ok {
		return 128 + n
	}
	if rest, ok := strings.CutPrefix(name, "signal "); ok {
		if n, err := strconv.Atoi(rest); err == nil && n > 0 && n < 128 {
			return 128 + n
		}
	}
	if e.ExitCode > 0 {
		return int(e.ExitCode)
	}
	return 255
}

// linuxSignals maps Go's names of Linux signals (as in "signal: killed") to
// their numbers; the sandbox is Linux whatever the app runs on.
var linuxSignals = map[string]int{
	"hangup": 1, "interrupt": 2, "quit": 3, "illegal instruction": 4,
	"trace/breakpoint trap": 5, "aborted": 6, "bus error": 7,
	"floating point exception": 8, "killed": 9, "user defined signal 1": 10,
	"segmentation fault": 11, "user defined signal 2": 12, "broken pipe": 13,
	"alarm clock": 14, "terminated": 15, "stack fault": 16,
	"child exited": 17, "continued": 18, "stopped (signal)": 19,
	"stopped": 20, "stopped (tty input)": 21, "stopped (tty output)": 22,
	"urgent I/O condition": 23, "CPU time limit exceeded": 24,
	"file size limit exceeded": 25, "virtual timer expired": 26,
	"profiling timer expired": 27, "window changed": 28, "I/O possible": 29,
	"power failure": 30, "bad system call": 31,
}

// RunCommand runs command with /bin/bash -l -c through envd's
// Process/Start stream and waits for it. The limit goes to envd as
// Connect-Timeout-Ms (envd kills the command then) and is kept here too: a
// little past it the adapter kills the command itself and stops reading.
// After a time-out, whatever the command left running is killed by its
// marker variable.
func (s *Sandbox) RunCommand(ctx context.Context, command string, opts sandbox.RunCommandOptions) (sandbox.CommandResult, error) {
	limit := opts.CommandTimeout()
	cwd := ""
	if opts.Cwd != "" {
		var err error
		if cwd, err = s.resolve(ctx, opts.Cwd); err != nil {
			return sandbox.CommandResult{}, err
		}
	} else if s.p.opts.Workdir != "" {
		cwd = s.p.opts.Workdir
	}
	token := newToken()
	envs := maps.Clone(opts.Env)
	if envs == nil {
		envs = map[string]string{}
	}
	envs[markerEnv] = token
	no := false
	req := startRequest{
		Process: processConfig{Cmd: "/bin/bash", Args: []string{"-l", "-c", command}, Envs: envs, Cwd: cwd},
		Stdin:   &no,
	}
	stdout, stderr := sandbox.NewOutput(opts.Stdout), sandbox.NewOutput(opts.Stderr)
	start := time.Now()

	// The stream's own context: the caller's values, but ended only here,
	// so that a cancelled caller still gets its command killed.
	reqCtx, cancelReq := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelReq()
	var pid atomic.Uint32
	started, ended := make(chan struct{}), make(chan struct{})
	type outcome struct {
		se  streamEnd
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		defer close(ended)
		resp, err := s.startStream(reqCtx, req, limit)
		if err != nil {
			done <- outcome{err: err}
			return
		}
		defer resp.Body.Close()
		se, err := readStream(resp.Body, func(p uint32) { pid.Store(p); close(started) }, stdout, stderr)
		done <- outcome{se, err}
	}()
	timer := time.NewTimer(limit + killGrace)
	defer timer.Stop()

	var o outcome
	select {
	case o = <-done:
	case <-timer.C:
		s.kill(startedPid(&pid, started, ended), token)
		cancelReq()
		<-done
		return sandbox.NewResult(stdout, stderr, 0, true, time.Since(start)), nil
	case <-ctx.Done():
		s.kill(startedPid(&pid, started, ended), token)
		cancelReq()
		<-done
		return sandbox.NewResult(stdout, stderr, -1, false, time.Since(start)), ctx.Err()
	}
	took := time.Since(start)
	if o.err != nil {
		var ae *APIError
		if errors.As(o.err, &ae) { // an answer (ErrGone for a 502 "not found")
			return sandbox.CommandResult{}, o.err
		}
		// The connection broke: the sandbox may have ended under it.
		err := s.goneOr(ctx, fmt.Errorf("e2b: command: %w", o.err))
		if o.se.started && !errors.Is(err, sandbox.ErrGone) {
			s.kill(o.se.pid, token)
		}
		return sandbox.CommandResult{}, err
	}
	if e := o.se.rpcErr; e != nil {
		switch {
		case e.Code == connectrpc.CodeDeadlineExceeded:
			s.kill(o.se.pid, token) // envd killed the shell; its children may live
			return sandbox.NewResult(stdout, stderr, 0, true, took), nil
		case o.se.end != nil:
			// The end came; the error after it changes nothing.
		case e.Code == connectrpc.CodeUnavailable:
			return sandbox.CommandResult{}, s.goneOr(ctx, s.streamError(e))
		default:
			return sandbox.CommandResult{}, s.streamError(e)
		}
	}
	if o.se.end == nil {
		return sandbox.CommandResult{}, fmt.Errorf("e2b: command: the stream ended without the command's end event")
	}
	return sandbox.NewResult(stdout, stderr, o.se.end.exitCode(), false, took), nil
}

// startedPid is the command's pid once envd has told it: a caller that
// cancels between envd starting the command and its start event arriving
// would otherwise leave it to the marker sweep alone. It waits for the start
// event a short while, and not at all once the stream has ended.
func startedPid(pid *atomic.Uint32, started, ended <-chan struct{}) uint32 {
	if p := pid.Load(); p != 0 {
		return p
	}
	t := time.NewTimer(startWait)
	defer t.Stop()
	select {
	case <-started:
	case <-ended:
	case <-t.C:
	}
	return pid.Load()
}

// streamError is the *APIError of an error that ended a Start stream.
func (s *Sandbox) streamError(e *connectrpc.Error) error {
	return &APIError{
		Method:     http.MethodPost,
		Path:       "/process.Process/Start",
		StatusCode: connectrpc.CodeToHTTP(e.Code),
		Code:       e.Code,
		Message:    e.Message,
		SandboxID:  s.id,
	}
}

// goneOr returns ErrGone when the sandbox has gone, else err.
func (s *Sandbox) goneOr(ctx context.Context, err error) error {
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if aerr := s.alive(actx); errors.Is(aerr, sandbox.ErrGone) {
		return aerr
	}
	return err
}

// startStream opens a Process/Start stream: one request envelope, the limit
// as Connect-Timeout-Ms. It is never retried.
func (s *Sandbox) startStream(ctx context.Context, req startRequest, limit time.Duration) (*http.Response, error) {
	body := connectrpc.AppendEnvelope(nil, 0, jsonBody(req))
	c := s.envdCall(http.MethodPost, "/process.Process/Start", nil, body, false)
	c.header.Set("Content-Type", connectrpc.ContentTypeStream)
	c.header.Set(connectrpc.HeaderProtocolVersion, "1")
	c.header.Set("Keepalive-Ping-Interval", strconv.Itoa(keepaliveSeconds))
	if ms := limit.Milliseconds(); ms > 0 {
		c.header.Set(connectrpc.HeaderTimeout, strconv.FormatInt(min(ms, maxTimeoutMs), 10))
	}
	return s.p.do(ctx, c)
}

// kill ends a command that outlived its limit or its caller: SIGKILL to its
// pid, then a sweep for processes carrying its token (background children
// envd's kill of the shell leaves behind). Best effort, bounded in time.
func (s *Sandbox) kill(pid uint32, token string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if pid != 0 {
		req := map[string]any{"process": map[string]uint32{"pid": pid}, "signal": "SIGNAL_SIGKILL"}
		_ = s.rpc(ctx, "/process.Process/SendSignal", req, nil, true)
	}
	s.sweep(ctx, token)
}

// sweepScript kills every process whose environment holds the marker $1.
// Builtins only (read with an empty -d splits /proc/PID/environ at its NULs),
// so that a sandbox with many processes is swept quickly.
const sweepScript = `m="` + markerEnv + `=$1"
for d in /proc/[0-9]*; do
  while IFS= read -r -d '' v; do
    if [ "$v" = "$m" ]; then kill -9 "${d#/proc/}"; break; fi
  done < "$d/environ"
done 2>/dev/null
exit 0`

func (s *Sandbox) sweep(ctx context.Context, token string) {
	no := false
	req := startRequest{Process: processConfig{Cmd: "/bin/bash", Args: []string{"-c", sweepScript, "sweep", token}}, Stdin: &no}
	resp, err := s.startStream(ctx, req, 10*time.Second)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	_, _ = readStream(resp.Body, nil, io.Discard, io.Discard)
}

func newToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
