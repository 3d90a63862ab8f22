package e2btest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/providers/e2b/internal/connectrpc"
	"github.com/agentenkit/agentenkit/sandbox"
)

const (
	// chunkSize is the most output one data event carries, as envd's.
	chunkSize = 32 << 10
	// maxReplay is how much earlier output Connect(pid) replays.
	maxReplay = 1 << 20
	// retainEnded is how long an ended process can still be connected to.
	retainEnded = 30 * time.Second
	// defaultKeepalive is envd's keepalive interval without the header.
	defaultKeepalive = 90 * time.Second
	// noLimit is the backend's time limit for a command envd runs unbounded.
	noLimit = 10 * 365 * 24 * time.Hour
)

// processConfigJSON is envd's ProcessConfig.
type processConfigJSON struct {
	Cmd  string            `json:"cmd"`
	Args []string          `json:"args,omitempty"`
	Envs map[string]string `json:"envs,omitempty"`
	Cwd  *string           `json:"cwd,omitempty"`
}

type evKind int

const (
	evData     evKind = iota
	evEnd             // exited or killed by a signal
	evDeadline        // killed at its Connect-Timeout-Ms
	evGone            // the sandbox ended under it
	evFailed          // the backend could not run it
)

type event struct {
	kind   evKind
	stdout []byte
	stderr []byte
	end    *endJSON
	msg    string
}

// endJSON is envd's EndEvent, zero values left out.
type endJSON struct {
	ExitCode int32  `json:"exitCode,omitempty"`
	Exited   bool   `json:"exited,omitempty"`
	Status   string `json:"status,omitempty"`
	Error    string `json:"error,omitempty"`
}

var killedEnd = endJSON{ExitCode: -1, Status: "signal: killed", Error: "signal: killed"}

// proc is one process started through Process/Start.
type proc struct {
	pid    uint32
	tag    string
	config processConfigJSON
	ctx    context.Context
	cancel context.CancelFunc

	mu        sync.Mutex
	subs      map[*sub]struct{}
	history   []event
	histBytes int
	term      *event // set once ended
}

// sub is one stream following a process: an unbounded queue, so a slow
// reader never blocks the command.
type sub struct {
	mu   sync.Mutex
	q    []event
	wake chan struct{}
}

func (sb *sub) push(ev event) {
	sb.mu.Lock()
	sb.q = append(sb.q, ev)
	sb.mu.Unlock()
	select {
	case sb.wake <- struct{}{}:
	default:
	}
}

func (sb *sub) take() []event {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	q := sb.q
	sb.q = nil
	return q
}

func (p *proc) publish(ev event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.term != nil {
		return
	}
	if ev.kind == evData {
		if p.histBytes < maxReplay {
			p.history = append(p.history, ev)
			p.histBytes += len(ev.stdout) + len(ev.stderr)
		}
	} else {
		t := ev
		p.term = &t
	}
	for s := range p.subs {
		s.push(ev)
	}
}

// subscribe follows the process from now, or with replay from its start
// (its kept output, and its end when it has ended).
func (p *proc) subscribe(replay bool) *sub {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := &sub{wake: make(chan struct{}, 1)}
	if replay {
		s.q = append(s.q, p.history...)
		if p.term != nil {
			t := *p.term
			if t.kind == evDeadline {
				t = event{kind: evEnd, end: &killedEnd}
			}
			s.q = append(s.q, t)
			return s
		}
	}
	p.subs[s] = struct{}{}
	return s
}

func (p *proc) unsubscribe(s *sub) {
	p.mu.Lock()
	delete(p.subs, s)
	p.mu.Unlock()
}

func (p *proc) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.term == nil
}

// outWriter turns a backend's output into data events.
type outWriter struct {
	p      *proc
	stderr bool
}

func (w outWriter) Write(b []byte) (int, error) {
	for off := 0; off < len(b); off += chunkSize {
		c := bytes.Clone(b[off:min(off+chunkSize, len(b))])
		if w.stderr {
			w.p.publish(event{kind: evData, stderr: c})
		} else {
			w.p.publish(event{kind: evData, stdout: c})
		}
	}
	return len(b), nil
}

// streamWriter writes a Connect server stream: 200 and envelopes, each
// flushed, then the end-of-stream message.
type streamWriter struct {
	w       http.ResponseWriter
	started bool
	err     error
}

func (sw *streamWriter) begin() {
	if !sw.started {
		sw.w.Header().Set("Content-Type", connectrpc.ContentTypeStream)
		sw.w.WriteHeader(http.StatusOK)
		sw.started = true
	}
}

func (sw *streamWriter) send(msg any) {
	if sw.err != nil {
		return
	}
	sw.begin()
	b, err := json.Marshal(msg)
	if err == nil {
		err = connectrpc.WriteEnvelope(sw.w, 0, b)
	}
	sw.err = err
	sw.flush()
}

func (sw *streamWriter) end(e *connectrpc.Error) {
	if sw.err != nil {
		return
	}
	sw.begin()
	b, _ := json.Marshal(connectrpc.EndStream{Error: e})
	sw.err = connectrpc.WriteEnvelope(sw.w, connectrpc.FlagEndStream, b)
	sw.flush()
}

func (sw *streamWriter) flush() {
	if f, ok := sw.w.(http.Flusher); ok {
		f.Flush()
	}
}

func eventMsg(ev any) map[string]any { return map[string]any{"event": ev} }

// streamRequest checks a stream call and returns its request message and
// Connect-Timeout-Ms.
func (e *envdReq) streamRequest(sw *streamWriter) ([]byte, time.Duration, bool) {
	if mt, _, _ := mime.ParseMediaType(e.r.Header.Get("Content-Type")); mt != connectrpc.ContentTypeStream {
		e.w.Header().Set("Accept-Post", "application/connect+json, application/connect+proto")
		e.w.WriteHeader(http.StatusUnsupportedMediaType)
		return nil, 0, false
	}
	var timeout time.Duration
	if v := e.r.Header.Get(connectrpc.HeaderTimeout); v != "" {
		ms, err := strconv.ParseUint(v, 10, 64)
		if err != nil || len(v) > 10 {
			sw.end(&connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: fmt.Sprintf("protocol error: invalid timeout %q", v)})
			return nil, 0, false
		}
		timeout = time.Duration(ms) * time.Millisecond
	}
	env, err := connectrpc.ReadEnvelope(bytes.NewReader(e.raw), 0)
	if err != nil || env.EndStream() {
		sw.end(&connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: fmt.Sprintf("protocol error: bad request envelope: %v", err)})
		return nil, 0, false
	}
	if _, cerr := rpcUser(e.r); cerr != nil {
		sw.end(cerr)
		return nil, 0, false
	}
	return env.Data, timeout, true
}

// keepalive is the Keepalive-Ping-Interval of the request.
func (e *envdReq) keepalive() time.Duration {
	if n, err := strconv.Atoi(e.r.Header.Get("Keepalive-Ping-Interval")); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return defaultKeepalive
}

type startRequestJSON struct {
	Process *processConfigJSON `json:"process"`
	Pty     json.RawMessage    `json:"pty"`
	Tag     *string            `json:"tag"`
	Stdin   *bool              `json:"stdin"`
}

// processStart is Process/Start: the command runs on the backend, bounded by
// Connect-Timeout-Ms; the stream carries start, data and end events.
func (e *envdReq) processStart() {
	sw := &streamWriter{w: e.w}
	msg, timeout, ok := e.streamRequest(sw)
	if !ok {
		return
	}
	var req startRequestJSON
	if cerr := decodeStrict(msg, &req); cerr != nil {
		sw.end(cerr)
		return
	}
	if req.Process == nil || req.Process.Cmd == "" {
		sw.end(&connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: "process.cmd is required"})
		return
	}
	if len(req.Pty) > 0 && string(req.Pty) != "null" {
		sw.end(&connectrpc.Error{Code: connectrpc.CodeUnimplemented, Message: "e2btest: PTYs are not supported"})
		return
	}
	cwd := ""
	if req.Process.Cwd != nil {
		cwd = *req.Process.Cwd
	}
	dir := e.sb.resolve(cwd)
	if ent, err := e.stat(dir); errors.Is(err, sandbox.ErrGone) {
		proxyGone(e.w, e.sb.id)
		return
	} else if err != nil || !ent.isDir() {
		sw.end(&connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: fmt.Sprintf("cwd '%s' does not exist", dir)})
		return
	}
	s := e.s
	pctx, cancel := context.WithCancel(s.ctx)
	if timeout > 0 {
		pctx, cancel = context.WithTimeout(s.ctx, timeout)
	}
	p := &proc{config: *req.Process, ctx: pctx, cancel: cancel, subs: map[*sub]struct{}{}}
	if req.Tag != nil {
		p.tag = *req.Tag
	}
	s.mu.Lock()
	if e.sb.ended {
		s.mu.Unlock()
		cancel()
		proxyGone(e.w, e.sb.id)
		return
	}
	s.pid++
	p.pid = 400 + s.pid
	e.sb.procs[p.pid] = p
	s.mu.Unlock()
	follow := p.subscribe(false)
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		user, _ := rpcUser(e.r) // checked by streamRequest
		command, bdir, env := e.sb.tree.backendCommand(commandLine(req.Process.Cmd, req.Process.Args), dir, user, e.sb.processEnv(user, req.Process.Envs))
		s.run(e.sb, p, command, bdir, env, timeout)
	}()

	sw.send(eventMsg(map[string]any{"start": map[string]uint32{"pid": p.pid}}))
	e.forward(sw, p, follow, nil, true)
}

// processEnv is the environment of user's process as envd builds it: HOME,
// USER and LOGNAME, then the sandbox's envVars, then the request's envs.
// (PATH is the backend's.)
func (sb *sbx) processEnv(user string, envs map[string]string) map[string]string {
	home := HomeDir
	if user == rootUser {
		home = "/root"
	}
	env := map[string]string{"HOME": home, "USER": user, "LOGNAME": user}
	maps.Copy(env, sb.envVars)
	maps.Copy(env, envs)
	return env
}

// run runs a process on the backend (command, dir and envs are the
// backend's: see tree.backendCommand) and publishes its output, in the
// sandbox's paths, and how it ended.
func (s *Server) run(sb *sbx, p *proc, command, dir string, envs map[string]string, limit time.Duration) {
	defer p.cancel()
	backendLimit := limit
	if backendLimit <= 0 {
		backendLimit = noLimit
	}
	stdout, stderr := sb.tree.output(outWriter{p: p}), sb.tree.output(outWriter{p: p, stderr: true})
	res, err := sb.backend.RunCommand(p.ctx, command, sandbox.RunCommandOptions{
		Cwd: dir, Env: envs, Timeout: backendLimit,
		Stdout: stdout, Stderr: stderr,
	})
	_, _ = stdout.Close(), stderr.Close()
	s.mu.Lock()
	ended := sb.ended
	s.mu.Unlock()
	switch {
	case ended || errors.Is(err, sandbox.ErrGone):
		p.publish(event{kind: evGone})
	case errors.Is(p.ctx.Err(), context.DeadlineExceeded) || res.TimedOut:
		p.publish(event{kind: evDeadline})
	case p.ctx.Err() != nil:
		p.publish(event{kind: evEnd, end: &killedEnd})
	case err != nil:
		p.publish(event{kind: evFailed, msg: err.Error()})
	default:
		end := &endJSON{ExitCode: int32(res.ExitCode), Exited: true, Status: fmt.Sprintf("exit status %d", res.ExitCode)}
		if res.ExitCode != 0 {
			end.Error = end.Status
		}
		p.publish(event{kind: evEnd, end: end})
	}
	time.AfterFunc(retainEnded, func() {
		s.mu.Lock()
		delete(sb.procs, p.pid)
		s.mu.Unlock()
	})
}

// forward sends a process's events down a stream until its end, the
// client's departure or the stream's own deadline.
func (e *envdReq) forward(sw *streamWriter, p *proc, s *sub, deadline <-chan time.Time, isStart bool) {
	defer p.unsubscribe(s)
	interval := e.keepalive()
	ka := time.NewTimer(interval)
	defer ka.Stop()
	for {
		for _, ev := range s.take() {
			switch ev.kind {
			case evData:
				data := map[string][]byte{}
				if ev.stdout != nil {
					data["stdout"] = ev.stdout
				} else {
					data["stderr"] = ev.stderr
				}
				sw.send(eventMsg(map[string]any{"data": data}))
			case evEnd:
				sw.send(eventMsg(map[string]any{"end": ev.end}))
				sw.end(nil)
				return
			case evDeadline:
				if isStart {
					sw.end(&connectrpc.Error{Code: connectrpc.CodeDeadlineExceeded, Message: "context deadline exceeded"})
				} else {
					sw.send(eventMsg(map[string]any{"end": &killedEnd}))
					sw.end(nil)
				}
				return
			case evGone:
				// The sandbox vanished: the connection breaks, as a VM's would.
				panic(http.ErrAbortHandler)
			case evFailed:
				sw.end(&connectrpc.Error{Code: connectrpc.CodeUnknown, Message: ev.msg})
				return
			}
			if sw.err != nil {
				return // the client went away; the process runs on
			}
			ka.Reset(interval)
		}
		select {
		case <-s.wake:
		case <-e.r.Context().Done():
			return
		case <-ka.C:
			sw.send(eventMsg(map[string]any{"keepalive": struct{}{}}))
			ka.Reset(interval)
		case <-deadline:
			sw.end(&connectrpc.Error{Code: connectrpc.CodeDeadlineExceeded, Message: "context deadline exceeded"})
			return
		}
	}
}

// selectorJSON is envd's ProcessSelector.
type selectorJSON struct {
	Pid *uint32 `json:"pid"`
	Tag *string `json:"tag"`
}

// find returns the process a selector names; running only unless ended is
// set. Nil with a not_found error otherwise.
func (e *envdReq) find(sel *selectorJSON, ended bool) (*proc, *connectrpc.Error) {
	if sel == nil || (sel.Pid == nil) == (sel.Tag == nil) {
		return nil, &connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: "process selector needs exactly one of pid and tag"}
	}
	e.s.mu.Lock()
	var found *proc
	for _, p := range e.sb.procs {
		if (sel.Pid != nil && p.pid == *sel.Pid) || (sel.Tag != nil && p.tag == *sel.Tag) {
			found = p
			break
		}
	}
	e.s.mu.Unlock()
	if found == nil || (!ended && !found.running()) {
		if sel.Pid != nil {
			return nil, &connectrpc.Error{Code: connectrpc.CodeNotFound, Message: fmt.Sprintf("process with pid %d not found", *sel.Pid)}
		}
		return nil, &connectrpc.Error{Code: connectrpc.CodeNotFound, Message: fmt.Sprintf("process with tag %s not found", *sel.Tag)}
	}
	return found, nil
}

// processConnect is Process/Connect: start, the kept output, then live
// events; its Connect-Timeout-Ms bounds only the stream.
func (e *envdReq) processConnect() {
	sw := &streamWriter{w: e.w}
	msg, timeout, ok := e.streamRequest(sw)
	if !ok {
		return
	}
	var req struct {
		Process *selectorJSON `json:"process"`
	}
	if cerr := decodeStrict(msg, &req); cerr != nil {
		sw.end(cerr)
		return
	}
	p, cerr := e.find(req.Process, true)
	if cerr != nil {
		sw.end(cerr)
		return
	}
	follow := p.subscribe(true)
	sw.send(eventMsg(map[string]any{"start": map[string]uint32{"pid": p.pid}}))
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	e.forward(sw, p, follow, deadline, false)
}

func (e *envdReq) processList(*struct{}) (any, *connectrpc.Error) {
	e.s.mu.Lock()
	var procs []*proc
	for _, p := range e.sb.procs {
		procs = append(procs, p)
	}
	e.s.mu.Unlock()
	sort.Slice(procs, func(i, j int) bool { return procs[i].pid < procs[j].pid })
	out := []map[string]any{}
	for _, p := range procs {
		if !p.running() {
			continue
		}
		info := map[string]any{"config": p.config, "pid": p.pid}
		if p.tag != "" {
			info["tag"] = p.tag
		}
		out = append(out, info)
	}
	return map[string]any{"processes": out}, nil
}

type signalRequest struct {
	Process *selectorJSON   `json:"process"`
	Signal  json.RawMessage `json:"signal"`
}

// processSignal is Process/SendSignal: SIGKILL and SIGTERM both end the
// command (its context is cancelled, which kills it on the backend).
func (e *envdReq) processSignal(req *signalRequest) (any, *connectrpc.Error) {
	var name string
	var num int
	switch {
	case json.Unmarshal(req.Signal, &name) == nil:
	case json.Unmarshal(req.Signal, &num) == nil:
		name = map[int]string{9: "SIGNAL_SIGKILL", 15: "SIGNAL_SIGTERM"}[num]
	}
	if name != "SIGNAL_SIGKILL" && name != "SIGNAL_SIGTERM" {
		return nil, &connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: fmt.Sprintf("invalid signal: %s", req.Signal)}
	}
	p, cerr := e.find(req.Process, false)
	if cerr != nil {
		return nil, cerr
	}
	p.cancel()
	return nil, nil
}

type inputRequest struct {
	Process *selectorJSON   `json:"process"`
	Input   json.RawMessage `json:"input"`
}

func (e *envdReq) processInput(req *inputRequest) (any, *connectrpc.Error) {
	if _, cerr := e.find(req.Process, false); cerr != nil {
		return nil, cerr
	}
	return nil, &connectrpc.Error{Code: connectrpc.CodeUnimplemented, Message: "e2btest: stdin is not supported"}
}

func (e *envdReq) processCloseStdin(req *struct {
	Process *selectorJSON `json:"process"`
}) (any, *connectrpc.Error) {
	if _, cerr := e.find(req.Process, false); cerr != nil {
		return nil, cerr
	}
	return nil, nil // there is no stdin to close
}

// commandLine is what the backend's shell runs for cmd and args: the script
// of "bash [-l] -c SCRIPT [NAME ARGS...]" (with ARGS as positional
// parameters), else the whole command line, quoted.
func commandLine(cmd string, args []string) string {
	if b := path.Base(cmd); b == "bash" || b == "sh" {
		a := args
		if len(a) > 0 && a[0] == "-l" {
			a = a[1:]
		}
		if len(a) >= 2 && a[0] == "-c" {
			if len(a) > 3 {
				return "set -- " + quoteAll(a[3:]) + "\n" + a[1]
			}
			return a[1]
		}
	}
	return quoteAll(append([]string{cmd}, args...))
}

func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}
