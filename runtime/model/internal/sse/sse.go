// Package sse reads a text/event-stream (server-sent events), as the
// Anthropic and OpenAI streaming APIs send it.
package sse

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// Event is one dispatched event.
type Event struct {
	// Name is the event field ("" when the server sent none).
	Name string
	// Data is the data fields joined with newlines.
	Data string
}

// Reader reads events from a stream.
type Reader struct {
	r *bufio.Reader
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 64<<10)} }

// Next returns the next event, or io.EOF after the last. Lines may end in
// \n or \r\n and be of any length; comment lines (":…") are skipped; an
// event is dispatched at a blank line, or at the end of the stream.
func (r *Reader) Next() (Event, error) {
	var (
		ev      Event
		data    strings.Builder
		hasData bool
	)
	for {
		line, err := r.r.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return Event{}, err
		}
		eof := errors.Is(err, io.EOF)
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if line == "" {
			if hasData {
				ev.Data = data.String()
				return ev, nil
			}
			if eof {
				return Event{}, io.EOF
			}
			ev = Event{}
			continue
		}
		if !strings.HasPrefix(line, ":") {
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "event":
				ev.Name = value
			case "data":
				if hasData {
					data.WriteByte('\n')
				}
				data.WriteString(value)
				hasData = true
			}
		}
		if eof {
			if hasData {
				ev.Data = data.String()
				return ev, nil
			}
			return Event{}, io.EOF
		}
	}
}
