package connectrpc

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

func TestEnvelopeRoundTrip(t *testing.T) {
	var b []byte
	b = AppendEnvelope(b, 0, []byte(`{"a":1}`))
	b = AppendEnvelope(b, 0, nil)
	b = AppendEnvelope(b, FlagEndStream, []byte(`{}`))
	r := iotest.OneByteReader(bytes.NewReader(b))
	for i, want := range []Envelope{{0, []byte(`{"a":1}`)}, {0, []byte{}}, {FlagEndStream, []byte(`{}`)}} {
		got, err := ReadEnvelope(r, 0)
		if err != nil {
			t.Fatalf("envelope %d: %v", i, err)
		}
		if got.Flags != want.Flags || !bytes.Equal(got.Data, want.Data) {
			t.Fatalf("envelope %d: got %+v, want %+v", i, got, want)
		}
	}
	if _, err := ReadEnvelope(r, 0); err != io.EOF {
		t.Fatalf("after the last envelope: %v, want io.EOF", err)
	}
}

func TestEnvelopeCutShort(t *testing.T) {
	b := AppendEnvelope(nil, 0, []byte(`{"a":1}`))
	for n := 1; n < len(b); n++ {
		if _, err := ReadEnvelope(bytes.NewReader(b[:n]), 0); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("cut at %d: %v, want io.ErrUnexpectedEOF", n, err)
		}
	}
	if _, err := ReadEnvelope(bytes.NewReader(b), 3); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
}

func TestParseEndStream(t *testing.T) {
	for in, code := range map[string]string{
		``:   "",
		`{}`: "",
		`{"error":{"code":"deadline_exceeded","message":"x"},"metadata":{"a":["b"]}}`: CodeDeadlineExceeded,
		`{"error":{"message":"no code"}}`:                                             CodeUnknown,
	} {
		es, err := ParseEndStream([]byte(in))
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		got := ""
		if es.Error != nil {
			got = es.Error.Code
		}
		if got != code {
			t.Fatalf("%q: code %q, want %q", in, got, code)
		}
	}
	if _, err := ParseEndStream([]byte(`{`)); err == nil {
		t.Fatal("bad JSON accepted")
	}
}

func TestCodes(t *testing.T) {
	for code, status := range map[string]int{CodeNotFound: 404, CodeInvalidArgument: 400, CodeUnauthenticated: 401, CodeDeadlineExceeded: 504, CodeAlreadyExists: 409, CodeUnavailable: 503, "whatever": 500} {
		if got := CodeToHTTP(code); got != status {
			t.Errorf("CodeToHTTP(%s) = %d, want %d", code, got, status)
		}
	}
	for status, code := range map[int]string{502: CodeUnavailable, 404: CodeUnimplemented, 401: CodeUnauthenticated, 418: CodeUnknown} {
		if got := HTTPToCode(status); got != code {
			t.Errorf("HTTPToCode(%d) = %s, want %s", status, got, code)
		}
	}
}

// FuzzReadEnvelope: arbitrary bytes never panic the decoder, which never
// returns more payload than it was given, and what AppendEnvelope writes
// reads back the same.
func FuzzReadEnvelope(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 2, '{', '}'}, []byte(`{"x":1}`))
	f.Add([]byte{2, 0, 0, 0, 0}, []byte{})
	f.Add([]byte{1, 0, 0, 0, 1, 'x'}, []byte("y"))
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff}, []byte(nil))
	f.Fuzz(func(t *testing.T, data, payload []byte) {
		r := bytes.NewReader(data)
		total := 0
		for {
			env, err := ReadEnvelope(r, 1<<16)
			if err != nil {
				break
			}
			total += 5 + len(env.Data)
			if env.EndStream() {
				_, _ = ParseEndStream(env.Data)
			}
		}
		if total > len(data) {
			t.Fatalf("read %d bytes of envelopes from %d", total, len(data))
		}
		env, err := ReadEnvelope(iotest.OneByteReader(bytes.NewReader(AppendEnvelope(nil, FlagEndStream, payload))), 0)
		if err != nil || !bytes.Equal(env.Data, payload) || !env.EndStream() {
			t.Fatalf("round trip: %+v, %v", env, err)
		}
	})
}
