package main

// The daemon's protocol over its unix socket: frames of one kind byte, the
// payload's length (4 bytes, big-endian) and the payload. The server speaks
// first (frameHello); the client sends one request (frameRequest); a run
// then streams frameStdout and frameStderr in the order the command wrote
// them and ends with frameExit, while the client may send frameCancel.

import (
	"bufio"
	"bytes"
	"debug/elf"
	byteorder "encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The frame kinds.
const (
	frameHello   byte = 'h' // server → client, first: daemonHello (JSON)
	frameRequest byte = 'q' // client → server: daemonRequest (JSON)
	frameStdout  byte = 'o' // server → client: bytes of the command's stdout
	frameStderr  byte = 'e' // server → client: bytes of its stderr
	frameExit    byte = 'x' // server → client, a run's last: daemonExit (JSON)
	frameCancel  byte = 'c' // client → server: one byte, the signal that interrupted the client
	frameReply   byte = 'r' // server → client: the answer to status and stop (daemonStatus, JSON)
)

// maxFrame caps a frame's payload; frameWriter splits longer writes.
const maxFrame = 1 << 20

// errFrameTooLong: a frame's length is past maxFrame (not our protocol).
var errFrameTooLong = errors.New("daemon protocol: frame longer than 1 MiB")

// writeFrame writes one frame with one Write.
func writeFrame(w io.Writer, kind byte, payload []byte) error {
	if len(payload) > maxFrame {
		return errFrameTooLong
	}
	buf := make([]byte, 5+len(payload))
	buf[0] = kind
	byteorder.BigEndian.PutUint32(buf[1:5], uint32(len(payload)))
	copy(buf[5:], payload)
	_, err := w.Write(buf)
	return err
}

// readFrame reads one frame.
func readFrame(r *bufio.Reader) (byte, []byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := byteorder.BigEndian.Uint32(hdr[1:])
	if n > maxFrame {
		return 0, nil, errFrameTooLong
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	return hdr[0], payload, nil
}

// frameWriter writes what a command prints as frames of one kind; the
// writers of one connection share mu, so frames never interleave.
type frameWriter struct {
	mu   *sync.Mutex
	w    io.Writer
	kind byte
}

// Write sends p as one frame or several of at most 64 KiB.
func (f *frameWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), 64<<10)]
		if err := writeFrame(f.w, f.kind, chunk); err != nil {
			return n, err
		}
		n += len(chunk)
		p = p[len(chunk):]
	}
	return n, nil
}

// daemonHello is the server's first frame: who answers.
type daemonHello struct {
	// Build identifies the executable (buildID): a client refuses a
	// daemon of another build.
	Build   string    `json:"build"`
	Version string    `json:"version"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
}

// daemonRequest is the client's one request.
type daemonRequest struct {
	// Op is "run" (Run says what), "status" or "stop".
	Op  string   `json:"op"`
	Run *runSpec `json:"run,omitempty"`
}

// daemonExit ends a run: the exit code the client exits with.
type daemonExit struct {
	Code int `json:"code"`
}

// daemonStatus answers status and stop.
type daemonStatus struct {
	daemonHello
	// Running is how many commands it runs now.
	Running int `json:"running"`
	// IdleExit is how long it stays up with no client.
	IdleExit time.Duration `json:"idleExit"`
	// RSS and PeakRSS are its resident memory now and at most (Linux's
	// VmRSS and VmHWM; 0 where unknown).
	RSS     uint64 `json:"rss"`
	PeakRSS uint64 `json:"peakRSS"`
	// Images are the wasm images it has loaded ("busybox", "python",
	// "node"), sorted.
	Images []string `json:"images"`
}

// buildID identifies this executable: the Go build ID the linker put in it
// (a hash of its content), else its path, size and time. Two binaries of
// one build (a copy) have the same.
var buildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	if id := goBuildID(exe); id != "" {
		return id
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	return fmt.Sprintf("%s:%d:%d", exe, fi.Size(), fi.ModTime().UnixNano())
})

// goBuildID reads the Go build ID of the executable file: from its ELF
// note, else from its first 64 KiB, where the linker puts it at the start
// of the text (Mach-O and others); "" when neither has it.
func goBuildID(file string) string {
	if f, err := elf.Open(file); err == nil {
		defer f.Close()
		if s := f.Section(".note.go.buildid"); s != nil {
			if data, err := s.Data(); err == nil && len(data) > 16 {
				nameSize := byteorder.LittleEndian.Uint32(data[0:4])
				descSize := byteorder.LittleEndian.Uint32(data[4:8])
				start := 12 + (nameSize+3)&^3
				if uint64(start)+uint64(descSize) <= uint64(len(data)) {
					return string(data[start : start+descSize])
				}
			}
		}
		return ""
	}
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	const prefix, suffix = "\xff Go build ID: \"", "\"\n \xff"
	i := bytes.Index(head, []byte(prefix))
	if i < 0 {
		return ""
	}
	rest := head[i+len(prefix):]
	j := bytes.Index(rest, []byte(suffix))
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

// buildVersion is the module version this binary was built from, with
// its VCS revision when the build recorded one.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v += " " + s.Value
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "+modified"
		}
	}
	return v
}

// procMemory returns this process's resident memory now and at its peak,
// from /proc/self/status (0, 0 where there is none).
func procMemory() (rss, peak uint64) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	for line := range strings.Lines(string(b)) {
		k, v, ok := strings.Cut(line, ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		f := strings.Fields(v)
		if len(f) < 1 {
			continue
		}
		n, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			continue
		}
		if k == "VmRSS" {
			rss = n << 10
		} else {
			peak = n << 10
		}
	}
	return rss, peak
}
