//go:build wasip1

package shell

// The guest side of the wasm adapter's process API: inside the busybox
// image (this package built for GOOS=wasip1), a command that is another
// image (python3, or sh when Fallback sends it there) runs as a new module
// instance that the host starts on the same filesystem; pipeline stages,
// subshells and background jobs are goroutines of this instance
// (package shell/bash). The host module "agentenkit"
// (providers/wasm, hostproc.go) offers non-blocking calls, because a host
// call that blocks freezes every goroutine of a Go guest: the guest polls
// them, and proc_poll sleeps until one of its processes has news.
//
// The ABI (every result an i32; negative values are errors):
//
//	proc_start(spec, len)         handle > 0; spec is JSON (internal/procspec)
//	proc_write(h, buf, len)       bytes taken, or procWouldBlock, procClosed
//	proc_stdin_wanted(h)          1 when the child waits on an empty stdin, else 0; procClosed
//	proc_close_stdin(h)           0
//	proc_read(h, fd, buf, len)    bytes read, 0 at end of file, or procWouldBlock
//	proc_wait(h)                  exit status, or procRunning
//	proc_free(h)                  0; a child still running is killed
//	proc_poll(timeout_ms)         0; returns early when a process of this instance changes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"unsafe"

	"github.com/agentenkit/agentenkit/internal/procspec"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

//go:wasmimport agentenkit proc_start
func hostProcStart(spec unsafe.Pointer, n uint32) int32

//go:wasmimport agentenkit proc_write
func hostProcWrite(h int32, buf unsafe.Pointer, n uint32) int32

//go:wasmimport agentenkit proc_stdin_wanted
func hostProcStdinWanted(h int32) int32

//go:wasmimport agentenkit proc_close_stdin
func hostProcCloseStdin(h int32) int32

//go:wasmimport agentenkit proc_read
func hostProcRead(h int32, fd int32, buf unsafe.Pointer, n uint32) int32

//go:wasmimport agentenkit proc_wait
func hostProcWait(h int32) int32

//go:wasmimport agentenkit proc_free
func hostProcFree(h int32) int32

//go:wasmimport agentenkit proc_poll
func hostProcPoll(timeoutMillis int32) int32

// Results of the process calls.
const (
	procWouldBlock = -1 // proc_write, proc_read: try again later
	procClosed     = -2 // proc_write: the child's stdin is gone
	procRunning    = -1 // proc_wait

	procErrSpec    = -1 // proc_start: a spec the host cannot read
	procErrImage   = -2 // proc_start: no such image
	procErrLimit   = -3 // proc_start: too many processes
	procErrNoStart = -4 // proc_start: the child could not start
)

// procSpec is proc_start's spec: its strings travel as bytes, so names
// that are not UTF-8 arrive unchanged.
type procSpec = procspec.Spec

// umaskOf is the umask a child of c starts with.
func umaskOf(c *Call) *uint32 {
	m := uint32(posixfs.UmaskOf(c.FS))
	return &m
}

// errHostProc is a child the host would not start.
type errHostProc struct {
	name string
	code int32
}

func (e *errHostProc) Error() string {
	switch e.code {
	case procErrImage:
		return e.name + ": command not found"
	case procErrLimit:
		return e.name + ": fork: retry: Resource temporarily unavailable (too many processes in this command)"
	case procErrNoStart:
		return e.name + ": cannot start"
	}
	return fmt.Sprintf("%s: cannot start (error %d)", e.name, e.code)
}

// startProc asks the host to start spec and returns its handle.
func startProc(spec procSpec) (int32, error) {
	raw, err := json.Marshal(spec)
	if err != nil {
		return 0, err
	}
	h := hostProcStart(unsafe.Pointer(unsafe.SliceData(raw)), uint32(len(raw)))
	runtime.KeepAlive(raw)
	if h <= 0 {
		name := spec.Image
		if len(spec.Args) > 0 {
			name = spec.Args[0]
		}
		return 0, &errHostProc{name: name, code: h}
	}
	return h, nil
}

// procOut is one output stream of a child the guest copies.
type procOut struct {
	h    int32
	fd   int32 // 1 or 2
	w    io.Writer
	done bool
}

// procJob is a set of children started by one command: the first may take
// stdin from the guest, the outputs go to the guest's writers.
type procJob struct {
	procs []int32
	stdin io.Reader // copied to procs[0] when it asks for input; nil: none
	outs  []*procOut
}

// errWriterGone is a command whose output could not be written (its reader
// went away): the command was ended, as SIGPIPE would.
var errWriterGone = errors.New("output closed")

// run copies stdin in and the outputs out until every output stream ended
// and every child exited, and returns the children's exit statuses. When a
// write to one of the guest's writers fails, the children are killed and
// the error is errWriterGone. The children are freed on return.
func (j *procJob) run(ctx context.Context) ([]int, error) {
	defer func() {
		for _, h := range j.procs {
			hostProcFree(h)
		}
	}()
	buf := make([]byte, 32<<10)
	codes := make([]int, len(j.procs))
	exited := make([]bool, len(j.procs))
	var pending []byte // read from stdin, not yet taken by the child
	stdinOpen := len(j.procs) > 0
	if j.stdin == nil && stdinOpen {
		hostProcCloseStdin(j.procs[0])
		stdinOpen = false
	}
	idle := 0
	for {
		if err := ctx.Err(); err != nil {
			return codes, err
		}
		progress := false
		if stdinOpen {
			first := j.procs[0]
			if len(pending) == 0 {
				switch hostProcStdinWanted(first) {
				case 1:
					n, err := j.stdin.Read(buf)
					pending = append(pending[:0], buf[:n]...)
					if n > 0 {
						progress = true
					}
					if err != nil && len(pending) == 0 {
						hostProcCloseStdin(first)
						stdinOpen = false
						progress = true
					}
				case procClosed:
					stdinOpen = false
				}
			}
			if len(pending) > 0 {
				switch n := hostProcWrite(first, unsafe.Pointer(unsafe.SliceData(pending)), uint32(len(pending))); {
				case n > 0:
					pending = pending[n:]
					progress = true
				case n == procClosed:
					pending, stdinOpen = nil, false
				}
			}
		}
		open := 0
		for _, o := range j.outs {
			if o.done {
				continue
			}
			n := hostProcRead(o.h, o.fd, unsafe.Pointer(unsafe.SliceData(buf)), uint32(len(buf)))
			switch {
			case n > 0:
				progress = true
				if _, err := o.w.Write(buf[:n]); err != nil {
					return codes, errWriterGone
				}
			case n == 0 || n < procWouldBlock: // end of file, or a bad handle
				o.done = true
				progress = true
			}
			if !o.done {
				open++
			}
		}
		running := 0
		for i, h := range j.procs {
			if exited[i] {
				continue
			}
			if c := hostProcWait(h); c >= 0 {
				codes[i], exited[i] = int(c), true
				progress = true
			} else {
				running++
			}
		}
		if open == 0 && running == 0 {
			return codes, nil
		}
		if progress {
			idle = 0
			continue
		}
		// Nothing to do: let other goroutines run, then sleep until a child
		// has news (the host wakes us) or a while has passed.
		runtime.Gosched()
		idle++
		hostProcPoll(int32(min(idle*idle, 50)))
	}
}

// runHostImage runs args as a child of image with c's folder, environment
// and stdio, and returns its exit status as a Builtin does.
func runHostImage(ctx context.Context, c *Call, image string, args []string) error {
	h, err := startProc(procSpec{Image: image, Args: args, Dir: c.Dir, Env: c.Environ(), Umask: umaskOf(c)})
	if err != nil {
		var he *errHostProc
		if errors.As(err, &he) && he.code == procErrImage {
			return shNotFound(args[0])
		}
		fmt.Fprintf(c.Stderr, "%s: %v\n", args[0], err)
		return Exit(126)
	}
	job := &procJob{
		procs: []int32{h},
		stdin: c.Stdin,
		outs:  []*procOut{{h: h, fd: 1, w: c.Stdout}, {h: h, fd: 2, w: c.Stderr}},
	}
	codes, err := job.run(ctx)
	switch {
	case errors.Is(err, errWriterGone):
		return Exit(141)
	case err != nil:
		return err
	}
	return Exit(codes[0])
}

// HostImage returns a Builtin that runs its command as a new instance of
// image ("python" or "busybox"), started by the host on the same files with
// the command's folder, environment and stdio. It exists only in the
// busybox image (GOOS=wasip1).
func HostImage(image string) Builtin {
	return func(ctx context.Context, c *Call, args []string) error {
		return runHostImage(ctx, c, image, args)
	}
}

// NotFound returns the error a Fallback returns for a name it does not
// know: status 127, reported by the shell as "command not found".
func NotFound(name string) error { return shNotFound(name) }
