package hostnet

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wazerosys "github.com/tetratelabs/wazero/sys"
)

// ChannelPath is the file a guest opens (read-write) to get a connection
// from the host. Each open is a new channel. The protocol, lines ending in
// "\n", the host answering each one before the guest writes on:
//
//	guest: CONNECT HOST PORT [MS] host: OK ADDRESS | ERR CODE MESSAGE
//	guest: TLS SERVERNAME | RAW   host: OK | ERR CODE MESSAGE
//
// (MS, when given, ends the connection that many milliseconds from now,
// sooner than the command's own time limit) then the connection's bytes both ways: the guest's writes go out (TLS
// done by the host after "TLS"), its reads return what came in, 0 at the
// end. CODE is curl's number for the failure (CodeResolve, ...); MESSAGE
// is what to print. A host may add headers to the HTTP requests written on
// a channel (Config.Headers); the guest never sees them.
const ChannelPath = "/dev/agentenkit-net"

// IsChannel reports whether p, a path as wazero gives the filesystem
// (relative to the mount at "/"), is ChannelPath.
func IsChannel(p string) bool {
	return strings.TrimPrefix(p, "/") == ChannelPath[1:]
}

// Session is one command's share of the network: its time limit and the
// bytes its connections may still move.
type Session struct {
	Ctx    context.Context
	Budget *atomic.Int64
}

// ErrBudget is a command past its network byte budget.
var ErrBudget = errors.New("the command moved more bytes over the network than its limit")

// Open returns a new channel of cfg for the command of s. s nil is no
// command running: every CONNECT is refused.
func Open(cfg *Config, s *Session) experimentalsys.File {
	return &channel{cfg: cfg, s: s}
}

type channel struct {
	experimentalsys.UnimplementedFile
	cfg *Config
	s   *Session

	line   []byte // the control line written so far
	reply  []byte // the host's answer not yet read
	host   string
	port   int
	raw    net.Conn // after CONNECT
	conn   net.Conn // after TLS or RAW: the data phase
	out    io.Writer
	pw     *io.PipeWriter // header injection's input, when it runs
	stop   func() bool
	ctx    context.Context // the connection's: the command's, or shorter
	cancel context.CancelFunc
	shut   atomic.Bool
}

func (c *channel) IsDir() (bool, experimentalsys.Errno) { return false, 0 }
func (c *channel) IsAppend() bool                       { return false }
func (c *channel) SetAppend(bool) experimentalsys.Errno { return 0 }
func (c *channel) Dev() (uint64, experimentalsys.Errno) { return 0, 0 }
func (c *channel) Ino() (wazerosys.Inode, experimentalsys.Errno) {
	return 0, 0
}

// ChannelStat is what stat says of ChannelPath: a regular file, so that Go
// guests read it with plain blocking reads instead of handing it to their
// poller.
var ChannelStat = wazerosys.Stat_t{Mode: 0o666, Nlink: 1, Ino: 0x6e6574}

func (c *channel) Stat() (wazerosys.Stat_t, experimentalsys.Errno) { return ChannelStat, 0 }

func (c *channel) Write(b []byte) (int, experimentalsys.Errno) {
	if c.shut.Load() {
		return 0, experimentalsys.EBADF
	}
	if c.conn != nil {
		if err := c.count(len(b)); err != nil {
			return 0, experimentalsys.EIO
		}
		n, err := c.out.Write(b)
		if err != nil && n == 0 {
			return 0, experimentalsys.EIO
		}
		return n, 0
	}
	if len(c.reply) > 0 {
		return 0, experimentalsys.EINVAL // read the answer first
	}
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if len(c.line)+len(b) > 1024 {
			return 0, experimentalsys.EINVAL
		}
		c.line = append(c.line, b...)
		return len(b), 0
	}
	if i != len(b)-1 {
		return 0, experimentalsys.EINVAL // one line at a time
	}
	line := string(append(c.line, b[:i]...))
	c.line = c.line[:0]
	c.reply = []byte(c.command(line) + "\n")
	return len(b), 0
}

func (c *channel) Read(b []byte) (int, experimentalsys.Errno) {
	if len(c.reply) > 0 {
		n := copy(b, c.reply)
		c.reply = c.reply[n:]
		return n, 0
	}
	if c.conn == nil || c.shut.Load() {
		return 0, experimentalsys.EBADF
	}
	n, err := c.conn.Read(b)
	if n > 0 {
		if c.count(n) != nil {
			return 0, experimentalsys.EIO
		}
		return n, 0
	}
	if err == nil || errors.Is(err, io.EOF) {
		return 0, 0
	}
	if isTimeout(err) || c.ctx != nil && c.ctx.Err() != nil {
		return 0, experimentalsys.EINTR
	}
	return 0, experimentalsys.EIO
}

func (c *channel) count(n int) error {
	if c.s == nil || c.s.Budget == nil {
		return nil
	}
	if c.s.Budget.Add(-int64(n)) < 0 {
		c.Close()
		return ErrBudget
	}
	return nil
}

func (c *channel) Close() experimentalsys.Errno {
	if c.shut.Swap(true) {
		return 0
	}
	if c.stop != nil {
		c.stop()
	}
	if c.cancel != nil {
		c.cancel()
	}
	if c.pw != nil {
		c.pw.Close()
	}
	if c.conn != nil {
		c.conn.Close()
	} else if c.raw != nil {
		c.raw.Close()
	}
	return 0
}

func errLine(code int, err error) string {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	return "ERR " + strconv.Itoa(code) + " " + msg
}

// command runs one control line and returns the answer.
func (c *channel) command(line string) string {
	f := strings.Fields(line)
	switch {
	case (len(f) == 3 || len(f) == 4) && f[0] == "CONNECT" && c.raw == nil:
		port, err := strconv.Atoi(f[2])
		if err != nil {
			return errLine(3, fmt.Errorf("bad port %q", f[2]))
		}
		if c.s == nil {
			return errLine(CodeConnect, &Refused{Host: f[1], Reason: "no command is running"})
		}
		ctx := c.s.Ctx
		if len(f) == 4 {
			ms, err := strconv.ParseInt(f[3], 10, 64)
			if err != nil || ms <= 0 {
				return errLine(3, fmt.Errorf("bad time limit %q", f[3]))
			}
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
			c.cancel = cancel
		}
		conn, err := c.cfg.Dial(ctx, f[1], port, "")
		if err != nil {
			var de *DialError
			if errors.As(err, &de) {
				return errLine(de.Code, de.Err)
			}
			return errLine(CodeConnect, err)
		}
		c.host, c.port, c.raw = f[1], port, conn
		if d, ok := ctx.Deadline(); ok {
			_ = conn.SetDeadline(d)
		}
		c.ctx = ctx
		c.stop = context.AfterFunc(ctx, func() { conn.Close() })
		return "OK " + conn.RemoteAddr().String()
	case len(f) == 2 && f[0] == "TLS" && c.raw != nil && c.conn == nil:
		tc, err := c.cfg.tlsClient(c.ctx, c.raw, f[1])
		if err != nil {
			var de *DialError
			errors.As(err, &de)
			c.raw.Close()
			return errLine(de.Code, de.Err)
		}
		c.data(tc)
		return "OK"
	case len(f) == 1 && f[0] == "RAW" && c.raw != nil && c.conn == nil:
		c.data(c.raw)
		return "OK"
	}
	return errLine(2, fmt.Errorf("bad request %q", line))
}

// data starts the data phase over conn, with header injection when the
// host has headers for this host.
func (c *channel) data(conn net.Conn) {
	c.conn, c.out = conn, conn
	var h http.Header
	if c.cfg.Headers != nil {
		h = c.cfg.Headers(strings.ToLower(c.host))
	}
	if len(h) == 0 {
		return
	}
	pr, pw := io.Pipe()
	c.pw, c.out = pw, pw
	go inject(pr, conn, h)
}

// inject copies HTTP requests from r to w, setting h's headers in each.
func inject(r *io.PipeReader, w net.Conn, h http.Header) {
	br := bufio.NewReader(r)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				w.Close()
			}
			r.CloseWithError(err)
			return
		}
		for k, v := range h {
			req.Header[http.CanonicalHeaderKey(k)] = v
		}
		if _, ok := req.Header["User-Agent"]; !ok {
			req.Header["User-Agent"] = []string{""} // Write adds Go's otherwise
		}
		if err := req.Write(w); err != nil {
			w.Close()
			r.CloseWithError(err)
			return
		}
	}
}
