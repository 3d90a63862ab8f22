// Package wiretest is a scripted HTTP server for the model adapters' wire
// tests: each request gets the next scripted reply, a streamed body written
// in small pieces (flushed one by one, as a provider's stream arrives) or
// an error status with the provider's error JSON.
package wiretest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Reply is one scripted reply.
type Reply struct {
	Status  int // default 200
	Headers map[string]string
	// Body is sent as is: SSE text for a stream, error JSON otherwise.
	Body string
	// Piece is the size of the pieces the body is written in; default 7.
	Piece int
	// Hold, if set, is closed by the test to let the body finish: the
	// server writes Body[:Cut], then waits.
	Hold <-chan struct{}
	Cut  int
}

// Request is what the server got.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         map[string]any
	Raw          []byte
	At           time.Time
}

// Server serves Replies in order; a request past the last fails the test.
type Server struct {
	*httptest.Server
	t       *testing.T
	mu      sync.Mutex
	replies []Reply
	reqs    []Request
}

// New starts a server with replies; it closes when the test ends.
func New(t *testing.T, replies ...Reply) *Server {
	s := &Server{t: t, replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Requests returns the requests so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Raw: raw, At: time.Now()}
	_ = json.Unmarshal(raw, &req.Body)
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	var rep Reply
	ok := n < len(s.replies)
	if ok {
		rep = s.replies[n]
	}
	s.mu.Unlock()
	if !ok {
		s.t.Errorf("wiretest: request %d, but only %d replies are scripted", n+1, len(s.replies))
		http.Error(w, "unscripted", http.StatusTeapot)
		return
	}
	for k, v := range rep.Headers {
		w.Header().Set(k, v)
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
		if w.Header().Get("content-type") == "" {
			w.Header().Set("content-type", "text/event-stream; charset=utf-8")
		}
	} else if w.Header().Get("content-type") == "" {
		w.Header().Set("content-type", "application/json")
	}
	w.WriteHeader(status)
	piece := rep.Piece
	if piece <= 0 {
		piece = 7
	}
	body := rep.Body
	flusher, _ := w.(http.Flusher)
	write := func(s string) {
		for len(s) > 0 {
			k := min(piece, len(s))
			if _, err := io.WriteString(w, s[:k]); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
			s = s[k:]
		}
	}
	if rep.Hold != nil {
		write(body[:rep.Cut])
		select {
		case <-rep.Hold:
		case <-r.Context().Done():
			return
		}
		body = body[rep.Cut:]
	}
	write(body)
}
