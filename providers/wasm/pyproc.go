package wasm

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// The control file: how a Python instance reaches the process calls the
// busybox shell has as host functions (hostproc.go). CPython for WASI
// cannot import host functions, but it can open a file. When the host
// starts a Python child it registers the child's procTable under a random
// token and gives the token in the environment (ctlEnv, which the image's
// sitecustomize takes out before any user code runs). Opening
// ctlDir+"/"+token on the sandbox's filesystem then gives a file whose
// writes are requests and whose reads are the answers, served with that
// table: Python's subprocess, os.system and os.popen (sitecustomize.py)
// start their commands through it as shell children, and os.chmod and
// os.umask use it too. A token names one Python process of one sandbox;
// another sandbox's filesystem does not know it, and nothing else is
// reachable through the file: the commands run in the sandbox, as the
// shell's would.
//
// The protocol, one request at a time: the guest writes a JSON object
// (ctlRequest), a newline, then the request's bytes (stdin data for
// "write"), all in one write; then reads the answer: 4 bytes of little
// endian length, then that many bytes: a JSON object (ctlAnswer), a
// newline, then the answer's bytes (output for "read").
const (
	ctlEnv = "AGENTENKIT_CTL"
	ctlDir = "dev/agentenkit-ctl" // relative to the mount, as wazero passes it
)

// ctlEntry is one registered Python process.
type ctlEntry struct {
	ctx   context.Context
	table *procTable
	st    *state
}

// ctlTokens maps tokens to their entries, for every sandbox of the process.
var ctlTokens sync.Map // string → *ctlEntry

// registerCtl registers t (a Python instance's table, in the sandbox st)
// and returns its token and the function that removes it.
func registerCtl(ctx context.Context, st *state, t *procTable) (string, func()) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	ctlTokens.Store(tok, &ctlEntry{ctx: ctx, table: t, st: st})
	return tok, func() { ctlTokens.Delete(tok) }
}

// openCtl opens the control file p (relative to the mount) of the sandbox
// st; ok is false when p is not a control file's path.
func openCtl(st *state, p string) (f experimentalsys.File, errno experimentalsys.Errno, ok bool) {
	tok, found := strings.CutPrefix(p, ctlDir+"/")
	if !found {
		return nil, 0, false
	}
	v, _ := ctlTokens.Load(tok)
	e, _ := v.(*ctlEntry)
	if e == nil || e.st != st {
		return nil, experimentalsys.ENOENT, true
	}
	return &ctlFile{e: e}, 0, true
}

// ctlRequest is one request to the control file.
type ctlRequest struct {
	Op string `json:"op"`
	// start
	Spec *procSpec `json:"spec,omitempty"`
	// write, closein, wanted, read, wait, kill, free
	H int32 `json:"h,omitempty"`
	// read: 1 stdout, 2 stderr; max bytes
	FD  int32 `json:"fd,omitempty"`
	Max int   `json:"max,omitempty"`
	// poll: milliseconds at most
	MS int `json:"ms,omitempty"`
	// kill: the signal it reports
	Sig int `json:"sig,omitempty"`
	// chmod, rename (from Path to To)
	Path string `json:"path,omitempty"`
	Mode uint32 `json:"mode,omitempty"`
	To   string `json:"to,omitempty"`
}

// ctlAnswer is the answer: R is the call's result as the host function
// returns it (res* codes included); Sig the signal that ended a process.
type ctlAnswer struct {
	R   int32 `json:"r"`
	Sig int   `json:"sig,omitempty"`
}

// maxCtlRead caps one read's bytes.
const maxCtlRead = 1 << 20

// ctlFile is an open control file.
type ctlFile struct {
	experimentalsys.UnimplementedFile
	e *ctlEntry

	mu     sync.Mutex
	answer []byte // unread part of the last answer
}

func (f *ctlFile) Stat() (sys.Stat_t, experimentalsys.Errno) {
	return sys.Stat_t{Mode: 0o600, Nlink: 1, Ino: 1}, 0
}

func (f *ctlFile) IsDir() (bool, experimentalsys.Errno) { return false, 0 }

func (f *ctlFile) Close() experimentalsys.Errno { return 0 }

func (f *ctlFile) Read(buf []byte) (int, experimentalsys.Errno) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := copy(buf, f.answer)
	f.answer = f.answer[n:]
	return n, 0
}

func (f *ctlFile) Write(buf []byte) (int, experimentalsys.Errno) {
	head, data, _ := strings.Cut(string(buf), "\n")
	var req ctlRequest
	if err := json.Unmarshal([]byte(head), &req); err != nil {
		return 0, experimentalsys.EINVAL
	}
	ans, out := f.e.serve(req, []byte(data))
	js, _ := json.Marshal(ans)
	msg := make([]byte, 4, 4+len(js)+1+len(out))
	msg = append(append(append(msg, js...), '\n'), out...)
	binary.LittleEndian.PutUint32(msg, uint32(len(msg)-4))
	f.mu.Lock()
	f.answer = msg
	f.mu.Unlock()
	return len(buf), 0
}

// serve answers one request with the entry's table.
func (e *ctlEntry) serve(req ctlRequest, data []byte) (ctlAnswer, []byte) {
	t, ctx := e.table, e.ctx
	r := func(v int32) ctlAnswer { return ctlAnswer{R: v} }
	switch req.Op {
	case "start":
		if req.Spec == nil {
			return r(resErrSpec), nil
		}
		return r(t.start(ctx, *req.Spec)), nil
	case "write":
		p := t.get(req.H)
		if p == nil || p.stdin == nil {
			return r(resBadHandle), nil
		}
		n, closed := p.stdin.tryWrite(data)
		if closed {
			return r(resClosed), nil
		}
		return r(int32(n)), nil
	case "closein":
		if p := t.get(req.H); p != nil && p.stdin != nil {
			p.stdin.closeWrite()
			return r(0), nil
		}
		return r(resBadHandle), nil
	case "wanted":
		p := t.get(req.H)
		if p == nil || p.stdin == nil {
			return r(resBadHandle), nil
		}
		want, gone := p.stdin.wanted()
		select {
		case <-p.done:
			gone = true
		default:
		}
		switch {
		case gone:
			return r(resClosed), nil
		case want:
			return r(1), nil
		}
		return r(0), nil
	case "read":
		p := t.get(req.H)
		if p == nil {
			return r(resBadHandle), nil
		}
		src := p.stdout
		if req.FD == 2 {
			src = p.stderr
		}
		if src == nil {
			return r(resBadHandle), nil
		}
		buf := make([]byte, min(max(req.Max, 1), maxCtlRead))
		n, eof := src.tryRead(buf)
		switch {
		case n > 0:
			return r(int32(n)), buf[:n]
		case eof:
			return r(0), nil
		}
		return r(resWouldBlock), nil
	case "wait":
		p := t.get(req.H)
		if p == nil {
			return r(resBadHandle), nil
		}
		select {
		case <-p.done:
			return ctlAnswer{R: int32(p.code), Sig: p.signal()}, nil
		default:
			return r(resRunning), nil
		}
	case "poll":
		if req.MS > 0 {
			timer := time.NewTimer(time.Duration(min(req.MS, 1000)) * time.Millisecond)
			defer timer.Stop()
			select {
			case <-t.wakeCh:
			case <-timer.C:
			case <-ctx.Done():
			}
		}
		return r(0), nil
	case "kill":
		p := t.get(req.H)
		if p == nil {
			return r(resBadHandle), nil
		}
		select {
		case <-p.done:
		default:
			p.killedBy.Store(int32(max(req.Sig, 1)))
			p.kill()
		}
		return r(0), nil
	case "free":
		t.mu.Lock()
		p := t.procs[req.H]
		delete(t.procs, req.H)
		t.mu.Unlock()
		if p != nil {
			select {
			case <-p.done:
			default:
				p.kill()
			}
		}
		return r(0), nil
	case "chmod":
		return r(int32(t.host.chmod(req.Path, req.Mode))), nil
	case "rename":
		return r(int32(t.host.rename(req.Path, req.To))), nil
	case "umask":
		return r(int32(t.umask)), nil
	}
	return r(resErrSpec), nil
}

// signal is the signal that ended p, as a parent's wait reports it: the
// one a kill asked for, SIGPIPE (13) for a writer whose reader went away;
// 0 when p exited by itself.
func (p *proc) signal() int {
	if s := p.killedBy.Load(); s > 0 {
		return int(s)
	}
	if p.sigpipe.Load() {
		return 13
	}
	return 0
}
