package net

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
)

// Field is one request header, as written.
type Field struct{ Name, Value string }

// Request is one HTTP/1.1 request. Header is sent in order after Host
// (added from URL unless Header has one); Body, when not nil, is sent with
// its Content-Length.
type Request struct {
	Method string
	URL    *url.URL
	Header []Field
	Body   []byte
}

// Get returns the value of the first field named name, and whether there is one.
func (r *Request) Get(name string) (string, bool) {
	for _, f := range r.Header {
		if strings.EqualFold(f.Name, name) {
			return f.Value, true
		}
	}
	return "", false
}

// Response is a response as received: RawHeader is its status line and
// header lines (and any 1xx responses before it) exactly as the server
// sent them, with the blank line.
type Response struct {
	*http.Response
	RawHeader []byte
	// Addr is the host:port the request went to.
	Addr string
}

// ParseURL parses a URL as curl takes it: no scheme means http.
func ParseURL(raw string) (*url.URL, error) {
	s := raw
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return nil, &Error{CodeBadURL, "URL using bad/illegal format or missing URL"}
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		u.Scheme = strings.ToLower(u.Scheme)
	default:
		return nil, &Error{CodeUnsupportedProtocol, fmt.Sprintf("Protocol %q not supported or disabled in libcurl", u.Scheme)}
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return u, nil
}

// HostPort returns u's host and port (80 or 443 by default).
func HostPort(u *url.URL) (string, int, error) {
	host := u.Hostname()
	port := 80
	if u.Scheme == "https" {
		port = 443
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return "", 0, &Error{CodeBadURL, "URL using bad/illegal format or missing URL"}
		}
		port = n
	}
	return host, port, nil
}

// hostHeader is the Host header for u: the port only when not the default.
func hostHeader(u *url.URL) string {
	h := u.Hostname()
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if p := u.Port(); p != "" && !(u.Scheme == "http" && p == "80" || u.Scheme == "https" && p == "443") {
		h += ":" + p
	}
	return h
}

// Do sends req over a new connection from dial and reads the response's
// header. The caller reads and closes the body (closing the connection).
func Do(ctx context.Context, dial Dialer, req *Request) (*Response, error) {
	host, port, err := HostPort(req.URL)
	if err != nil {
		return nil, err
	}
	conn, err := dial(ctx, host, port, req.URL.Scheme == "https")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	target := req.URL.EscapedPath()
	if req.URL.RawQuery != "" {
		target += "?" + req.URL.RawQuery
	}
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", req.Method, target)
	if _, ok := req.Get("Host"); !ok {
		fmt.Fprintf(&b, "Host: %s\r\n", hostHeader(req.URL))
	}
	for _, f := range req.Header {
		fmt.Fprintf(&b, "%s: %s\r\n", f.Name, f.Value)
	}
	if req.Body != nil {
		if _, ok := req.Get("Content-Length"); !ok {
			fmt.Fprintf(&b, "Content-Length: %d\r\n", len(req.Body))
		}
	}
	b.WriteString("\r\n")
	b.Write(req.Body)
	if _, err := conn.Write(b.Bytes()); err != nil {
		conn.Close()
		return nil, recvError(ctx, "Send failure", err)
	}
	br := bufio.NewReaderSize(conn, 32<<10)
	var raw []byte
	for {
		head, err := readHead(br)
		if err != nil {
			conn.Close()
			if len(head) == 0 && errors.Is(err, io.EOF) {
				return nil, &Error{52, "Empty reply from server"}
			}
			return nil, recvError(ctx, "Recv failure", err)
		}
		raw = append(raw, head...)
		// 1xx responses come before the real one.
		if len(head) >= 12 && bytes.HasPrefix(head, []byte("HTTP/")) && head[9] == '1' && !bytes.HasPrefix(head[9:], []byte("101")) {
			continue
		}
		hr := bufio.NewReader(io.MultiReader(bytes.NewReader(head), br))
		resp, err := http.ReadResponse(hr, &http.Request{Method: req.Method})
		if err != nil {
			conn.Close()
			return nil, &Error{8, "Weird server reply: " + err.Error()}
		}
		resp.Body = &body{ReadCloser: resp.Body, conn: conn, ctx: ctx}
		return &Response{Response: resp, RawHeader: raw, Addr: fmt.Sprintf("%s:%d", host, port)}, nil
	}
}

// readHead reads a status line and header lines up to the blank line.
func readHead(br *bufio.Reader) ([]byte, error) {
	var head []byte
	for {
		line, err := br.ReadSlice('\n')
		head = append(head, line...)
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			return head, err
		}
		if len(line) <= 2 && strings.TrimRight(string(line), "\r\n") == "" {
			if len(head) == len(line) {
				head = head[:0] // blank lines before the status line
				continue
			}
			return head, nil
		}
		if len(head) > 1<<20 {
			return head, errors.New("header too large")
		}
	}
}

// body closes the connection with the body and turns read errors into
// curl's.
type body struct {
	io.ReadCloser
	conn Conn
	ctx  context.Context
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = recvError(b.ctx, "Recv failure", err)
	}
	return n, err
}

func (b *body) Close() error {
	b.ReadCloser.Close()
	return b.conn.Close()
}

func recvError(ctx context.Context, what string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if ctx.Err() != nil || strings.Contains(err.Error(), "interrupted") || strings.Contains(err.Error(), "timed out") || strings.Contains(err.Error(), "deadline") {
		return &Error{CodeTimeout, "Operation timed out"}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{18, "transfer closed with outstanding read data remaining"}
	}
	return &Error{CodeRecv, what + ": " + err.Error()}
}

// CanonicalName is textproto's canonical form of a header name.
func CanonicalName(s string) string { return textproto.CanonicalMIMEHeaderKey(s) }
