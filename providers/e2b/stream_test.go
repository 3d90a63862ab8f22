package e2b

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/e2b/internal/connectrpc"
)

// frames builds a stream body: data envelopes for msgs, then the
// end-of-stream envelope eos (none when eos is "-").
func frames(eos string, msgs ...string) []byte {
	var b []byte
	for _, m := range msgs {
		b = connectrpc.AppendEnvelope(b, 0, []byte(m))
	}
	if eos != "-" {
		b = connectrpc.AppendEnvelope(b, connectrpc.FlagEndStream, []byte(eos))
	}
	return b
}

func b64s(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func read(t *testing.T, r io.Reader) (streamEnd, string, string, []uint32, error) {
	t.Helper()
	var out, errb bytes.Buffer
	var pids []uint32
	se, err := readStream(r, func(p uint32) { pids = append(pids, p) }, &out, &errb)
	return se, out.String(), errb.String(), pids, err
}

func TestReadStreamOneByteAtATime(t *testing.T) {
	// "héllo" split inside the é: the bytes must come out whole.
	word := []byte("héllo\n")
	body := frames(`{}`,
		`{"event":{"start":{"pid":412}}}`,
		`{"event":{"keepalive":{}}}`,
		`{"event":{"data":{"stdout":"`+base64.StdEncoding.EncodeToString(word[:2])+`"}}}`,
		`{"event":{"keepalive":{}}}`,
		`{"event":{"data":{"stdout":"`+base64.StdEncoding.EncodeToString(word[2:])+`"}}}`,
		`{"event":{"data":{"stderr":"`+b64s("warn\n")+`"}}}`,
		`{"event":{"end":{"exited":true,"status":"exit status 0"}}}`,
	)
	for name, r := range map[string]io.Reader{
		"whole":      bytes.NewReader(body),
		"one byte":   iotest.OneByteReader(bytes.NewReader(body)),
		"half reads": iotest.HalfReader(bytes.NewReader(body)),
	} {
		t.Run(name, func(t *testing.T) {
			se, out, errs, pids, err := read(t, r)
			require.NoError(t, err)
			assert.Equal(t, "héllo\n", out)
			assert.Equal(t, "warn\n", errs)
			assert.Equal(t, []uint32{412}, pids)
			require.NotNil(t, se.end)
			assert.Nil(t, se.rpcErr)
			assert.Equal(t, 0, se.end.exitCode(), "no exitCode key means 0")
		})
	}
}

func TestReadStreamEnds(t *testing.T) {
	start := `{"event":{"start":{"pid":7}}}`
	cases := []struct {
		name     string
		body     []byte
		wantErr  error
		wantCode string
		wantExit int
	}{
		{"exit 3", frames(`{}`, start, `{"event":{"end":{"exitCode":3,"exited":true,"status":"exit status 3","error":"exit status 3"}}}`), nil, "", 3},
		{"killed", frames(`{}`, start, `{"event":{"end":{"exitCode":-1,"status":"signal: killed","error":"signal: killed"}}}`), nil, "", 137},
		{"terminated", frames(`{}`, start, `{"event":{"end":{"exitCode":-1,"status":"signal: terminated"}}}`), nil, "", 143},
		{"segfault core", frames(`{}`, start, `{"event":{"end":{"exitCode":-1,"status":"signal: segmentation fault (core dumped)"}}}`), nil, "", 139},
		{"deadline", frames(`{"error":{"code":"deadline_exceeded","message":"context deadline exceeded"}}`, start), nil, connectrpc.CodeDeadlineExceeded, -1},
		{"error before start", frames(`{"error":{"code":"invalid_argument","message":"cwd '/x' does not exist"}}`), nil, connectrpc.CodeInvalidArgument, -1},
		{"cut mid-stream", frames("-", start, `{"event":{"data":{"stdout":"aGk="}}}`), errStreamCut, "", -1},
		{"cut inside an envelope", frames("-", start)[:20], errStreamCut, "", -1},
		{"empty body", nil, errStreamCut, "", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			se, _, _, _, err := read(t, iotest.OneByteReader(bytes.NewReader(c.body)))
			if c.wantErr != nil {
				assert.ErrorIs(t, err, c.wantErr)
				return
			}
			require.NoError(t, err)
			if c.wantCode != "" {
				require.NotNil(t, se.rpcErr)
				assert.Equal(t, c.wantCode, se.rpcErr.Code)
				return
			}
			require.NotNil(t, se.end)
			assert.Equal(t, c.wantExit, se.end.exitCode())
		})
	}
}

func TestReadStreamRefusesDataBeforeStart(t *testing.T) {
	_, _, _, _, err := read(t, bytes.NewReader(frames(`{}`, `{"event":{"data":{"stdout":"aGk="}}}`)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "start event")
}

func TestReadStreamRefusesASecondStart(t *testing.T) {
	start := `{"event":{"start":{"pid":7}}}`
	_, _, _, pids, err := read(t, bytes.NewReader(frames(`{}`, start, start)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "began twice")
	assert.Equal(t, []uint32{7}, pids, "the pid is told once")
}

func TestReadStreamRefusesCompressedAndHuge(t *testing.T) {
	b := connectrpc.AppendEnvelope(nil, connectrpc.FlagCompressed, []byte(`{}`))
	_, _, _, _, err := read(t, bytes.NewReader(b))
	assert.Error(t, err)
	huge := []byte{0, 0x7f, 0xff, 0xff, 0xff}
	_, _, _, _, err = read(t, bytes.NewReader(huge))
	assert.ErrorIs(t, err, connectrpc.ErrTooLarge)
}

func TestBase64Variants(t *testing.T) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		body := frames(`{}`, `{"event":{"start":{"pid":1}}}`, `{"event":{"data":{"stdout":"`+enc.EncodeToString([]byte{0xfb, 0xff, 0xfe, 'x'})+`"}}}`)
		_, out, _, _, err := read(t, bytes.NewReader(body))
		require.NoError(t, err)
		assert.Equal(t, string([]byte{0xfb, 0xff, 0xfe, 'x'}), out)
	}
}

// FuzzReadStream feeds arbitrary bytes to the command stream decoder: it
// never panics, and reading one byte at a time gives the same outcome as
// reading all at once.
func FuzzReadStream(f *testing.F) {
	f.Add(frames(`{}`, `{"event":{"start":{"pid":1}}}`, `{"event":{"data":{"stdout":"aGk="}}}`, `{"event":{"end":{}}}`))
	f.Add(frames(`{"error":{"code":"deadline_exceeded"}}`, `{"event":{"start":{"pid":1}}}`, `{"event":{"keepalive":{}}}`))
	f.Add(frames("-", `{"event":{"start":{"pid":1}}}`))
	f.Add(frames(`{"error":{}}`, `{"event":{"end":{"exitCode":-1,"status":"signal: killed"}}}`))
	f.Add([]byte{2, 0, 0, 0, 2, '{', '}'})
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		var o1, e1, o2, e2 bytes.Buffer
		se1, err1 := readStream(bytes.NewReader(data), nil, &o1, &e1)
		se2, err2 := readStream(iotest.OneByteReader(bytes.NewReader(data)), nil, &o2, &e2)
		if (err1 == nil) != (err2 == nil) || (err1 != nil && errors.Is(err1, errStreamCut) != errors.Is(err2, errStreamCut)) {
			t.Fatalf("outcomes differ: %v / %v", err1, err2)
		}
		if o1.String() != o2.String() || e1.String() != e2.String() || se1.pid != se2.pid {
			t.Fatalf("output differs")
		}
		if se1.end != nil {
			_ = se1.end.exitCode()
		}
		if err1 != nil && strings.TrimSpace(err1.Error()) == "" {
			t.Fatal("empty error message")
		}
	})
}

// A kill that comes between envd starting a command and its start event
// arriving waits for the pid, so that it can signal the command by it; a
// stream that ended without one ends the wait.
func TestStartedPid(t *testing.T) {
	var pid atomic.Uint32
	started, ended := make(chan struct{}), make(chan struct{})
	go func() {
		time.Sleep(20 * time.Millisecond)
		pid.Store(42)
		close(started)
	}()
	assert.Equal(t, uint32(42), startedPid(&pid, started, ended))
	assert.Equal(t, uint32(42), startedPid(&pid, make(chan struct{}), ended), "known already")

	var none atomic.Uint32
	close(ended)
	begin := time.Now()
	assert.Zero(t, startedPid(&none, make(chan struct{}), ended))
	assert.Less(t, time.Since(begin), startWait, "an ended stream is not waited for")
}
