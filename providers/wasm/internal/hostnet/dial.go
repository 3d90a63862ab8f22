package hostnet

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Config is what the host needs to open a guest's connections.
type Config struct {
	// Policy decides which host names are reachable.
	Policy Policy
	// Headers returns request headers the host adds to every HTTP request
	// to host (credentials the guest never sees), or nil.
	Headers func(host string) http.Header
	// Log is told of every connection refused or opened.
	Log func(Event)

	// Test-only: Resolve maps names to addresses instead of DNS, and
	// AllowLoopback lets loopback addresses (127.0.0.0/8, ::1) through the
	// address check; RootCAs replaces the system's roots.
	Resolve       map[string]string
	AllowLoopback bool
	RootCAs       *x509.CertPool
}

// Event is one connection a guest asked for.
type Event struct {
	Host    string
	Port    int
	TLS     bool
	Allowed bool
	// Reason is why it was refused, or the address dialled.
	Reason string
}

// Error codes of a failed connect, as curl numbers them (the shell's curl
// exits with them).
const (
	CodeResolve = 6  // couldn't resolve host
	CodeConnect = 7  // couldn't connect (also: refused by the policy)
	CodeTimeout = 28 // timed out
	CodeTLS     = 35 // TLS handshake failed
	CodeCert    = 60 // the peer's certificate was not verified
)

// DialError is a connection that could not be opened, with curl's code.
type DialError struct {
	Code int
	Err  error
}

func (e *DialError) Error() string { return e.Err.Error() }
func (e *DialError) Unwrap() error { return e.Err }

// resolve returns host's addresses, each checked.
func (c *Config) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		addrs = []netip.Addr{a}
	} else if c.Resolve != nil {
		s, ok := c.Resolve[strings.ToLower(host)]
		if !ok {
			return nil, &DialError{CodeResolve, fmt.Errorf("could not resolve host: %s", host)}
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, &DialError{CodeResolve, fmt.Errorf("could not resolve host: %s", host)}
		}
		addrs = []netip.Addr{a}
	} else {
		found, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		if err != nil || len(found) == 0 {
			return nil, &DialError{CodeResolve, fmt.Errorf("could not resolve host: %s", host)}
		}
		addrs = found
	}
	for _, a := range addrs {
		if c.AllowLoopback && a.Unmap().IsLoopback() {
			continue
		}
		if why := CheckAddr(a); why != "" {
			return nil, &DialError{CodeConnect, &Refused{Host: host, Reason: why}}
		}
	}
	return addrs, nil
}

// Dial opens a TCP connection to host:port for a guest, checked against the
// policy; with tlsName set the host does TLS over it, verifying the peer as
// tlsName. It dials the addresses it checked, never the name again.
func (c *Config) Dial(ctx context.Context, host string, port int, tlsName string) (net.Conn, error) {
	ev := Event{Host: host, Port: port, TLS: tlsName != ""}
	conn, err := c.dial(ctx, host, port, tlsName, &ev)
	if c.Log != nil {
		if err != nil {
			ev.Reason = err.Error()
		}
		ev.Allowed = err == nil
		c.Log(ev)
	}
	return conn, err
}

func (c *Config) dial(ctx context.Context, host string, port int, tlsName string, ev *Event) (net.Conn, error) {
	if port < 1 || port > 65535 {
		return nil, &DialError{CodeConnect, fmt.Errorf("port %d is out of range", port)}
	}
	if err := c.Policy.Allows(host, port); err != nil {
		return nil, &DialError{CodeConnect, err}
	}
	addrs, err := c.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	var conn net.Conn
	for _, a := range addrs {
		ap := netip.AddrPortFrom(a, uint16(port))
		conn, err = d.DialContext(ctx, "tcp", ap.String())
		if err == nil {
			ev.Reason = ap.String()
			break
		}
	}
	if err != nil {
		code := CodeConnect
		if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
			code = CodeTimeout
		}
		return nil, &DialError{code, fmt.Errorf("failed to connect to %s port %d: %s", host, port, connRefusedText(err))}
	}
	if tlsName == "" {
		return conn, nil
	}
	tc, err := c.tlsClient(ctx, conn, tlsName)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return tc, nil
}

// tlsClient does TLS over conn, verifying the peer as name (always: there
// is no insecure mode).
func (c *Config) tlsClient(ctx context.Context, conn net.Conn, name string) (net.Conn, error) {
	tc := tls.Client(conn, &tls.Config{ServerName: name, RootCAs: c.RootCAs, MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}})
	if err := tc.HandshakeContext(ctx); err != nil {
		var cv *tls.CertificateVerificationError
		if errors.As(err, &cv) {
			return nil, &DialError{CodeCert, fmt.Errorf("SSL certificate problem: %s", certText(cv.Err))}
		}
		return nil, &DialError{CodeTLS, fmt.Errorf("TLS connect error: %v", err)}
	}
	return tc, nil
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func connRefusedText(err error) string {
	s := err.Error()
	switch {
	case strings.Contains(s, "connection refused"):
		return "Connection refused"
	case isTimeout(err):
		return "Connection timed out"
	}
	return s
}

func certText(err error) string {
	var ua x509.UnknownAuthorityError
	var hn x509.HostnameError
	switch {
	case errors.As(err, &ua):
		return "unable to get local issuer certificate"
	case errors.As(err, &hn):
		return "no alternative certificate subject name matches target host name"
	}
	return err.Error()
}
