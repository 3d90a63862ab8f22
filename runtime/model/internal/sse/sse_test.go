package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReader(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want []Event
	}{
		{"anthropic", "event: message_start\ndata: {\"a\":1}\n\nevent: ping\ndata: {}\n\n", []Event{{"message_start", `{"a":1}`}, {"ping", "{}"}}},
		{"openai", "data: {\"x\":1}\n\ndata: [DONE]\n\n", []Event{{"", `{"x":1}`}, {"", "[DONE]"}}},
		{"crlf and comments", ": keep-alive\r\nevent: e\r\ndata: 1\r\n\r\n", []Event{{"e", "1"}}},
		{"multi-line data", "data: a\ndata: b\n\n", []Event{{"", "a\nb"}}},
		{"no space after colon", "data:x\n\n", []Event{{"", "x"}}},
		{"no final blank line", "data: last", []Event{{"", "last"}}},
		{"blank lines only", "\n\n", nil},
		{"a long line", "data: " + strings.Repeat("x", 200_000) + "\n\n", []Event{{"", strings.Repeat("x", 200_000)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// One byte at a time: the stream arrives in pieces.
			r := NewReader(iotest.OneByteReader(strings.NewReader(c.in)))
			var got []Event
			for {
				ev, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, ev)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %d events, want %d", len(got), len(c.want))
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("event %d = %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}
