// Package net is the shell's network commands, curl and wget, and the
// small HTTP client they, node's fetch and pip share. A command has no
// socket of its own: it asks the sandbox's host for a connection through a
// channel file (ChannelPath) that the wasm adapter serves, and the host
// checks every connection against the sandbox's network policy, resolves
// the name, dials the checked address and does TLS for https (it verifies
// every certificate: there is no insecure mode). Where no host serves the
// channel (the memory adapter), every connection fails with curl's code 7
// and a message saying the sandbox has no network.
//
// The commands register themselves in init; a program links them in by
// importing this package.
package net

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/afero"
)

// ChannelPath is the file through which a guest asks its host for a
// connection: providers/wasm/internal/hostnet documents the protocol (its
// constant of the same name is this one).
const ChannelPath = "/dev/agentenkit-net"

// Error is a failed transfer with curl's exit code for it.
type Error struct {
	Code int
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Codes of Error, as curl numbers them.
const (
	CodeUnsupportedProtocol = 1
	CodeBadURL              = 3
	CodeResolve             = 6
	CodeConnect             = 7
	CodeHTTP                = 22
	CodeWrite               = 23
	CodeRead                = 26
	CodeTimeout             = 28
	CodeTooManyRedirects    = 47
	CodeRecv                = 56
	CodeTLS                 = 35
	CodeCert                = 60
)

// Conn is a connection the host opened.
type Conn interface {
	io.ReadWriteCloser
}

// Dialer opens a connection to host:port, TLS done by the host when tls.
// The connection ends at ctx's deadline (the host enforces it: a guest
// blocked in a read cannot watch ctx itself).
type Dialer func(ctx context.Context, host string, port int, tls bool) (Conn, error)

// ChannelDialer returns the Dialer that asks the host through fsys's
// ChannelPath.
func ChannelDialer(fsys afero.Fs) Dialer {
	return func(ctx context.Context, host string, port int, tls bool) (Conn, error) {
		return dialChannel(ctx, fsys, host, port, tls)
	}
}

// testDialer replaces every ChannelDialer's work in tests (dialling the
// test's loopback servers directly); nil otherwise.
var testDialer Dialer

func dialChannel(ctx context.Context, fsys afero.Fs, host string, port int, tls bool) (Conn, error) {
	if testDialer != nil {
		return testDialer(ctx, host, port, tls)
	}
	if err := ctx.Err(); err != nil {
		return nil, &Error{CodeTimeout, "Operation timed out"}
	}
	f, err := fsys.OpenFile(ChannelPath, os.O_RDWR, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &Error{CodeConnect, fmt.Sprintf("Failed to connect to %s port %d after 0 ms: this sandbox has no network (its adapter offers none)", host, port)}
		}
		return nil, &Error{CodeConnect, fmt.Sprintf("Failed to connect to %s port %d after 0 ms: %v", host, port, err)}
	}
	ask := func(line string) (string, error) {
		if _, err := io.WriteString(f, line+"\n"); err != nil {
			return "", err
		}
		// The host answers with exactly one line per read.
		buf := make([]byte, 1024)
		n, err := f.Read(buf)
		if n == 0 {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		return strings.TrimSuffix(string(buf[:n]), "\n"), nil
	}
	fail := func(ans string, err error) (Conn, error) {
		f.Close()
		if err != nil {
			return nil, &Error{CodeConnect, fmt.Sprintf("Failed to connect to %s port %d after 0 ms: %v", host, port, err)}
		}
		code, msg := CodeConnect, ans
		if rest, ok := strings.CutPrefix(ans, "ERR "); ok {
			c, m, _ := strings.Cut(rest, " ")
			if n, err := strconv.Atoi(c); err == nil {
				code = n
			}
			msg = m
		}
		switch code {
		case CodeConnect:
			if !strings.HasPrefix(msg, "Failed to connect") {
				msg = fmt.Sprintf("Failed to connect to %s port %d after 0 ms: %s", host, port, msg)
			}
		case CodeResolve:
			msg = "Could not resolve host: " + host
		}
		return nil, &Error{code, msg}
	}
	line := fmt.Sprintf("CONNECT %s %d", host, port)
	if d, ok := ctx.Deadline(); ok {
		line += fmt.Sprintf(" %d", max(1, time.Until(d).Milliseconds()))
	}
	ans, err := ask(line)
	if err != nil || !strings.HasPrefix(ans, "OK") {
		return fail(ans, err)
	}
	mode := "RAW"
	if tls {
		mode = "TLS " + host
	}
	ans, err = ask(mode)
	if err != nil || !strings.HasPrefix(ans, "OK") {
		return fail(ans, err)
	}
	return f, nil
}
