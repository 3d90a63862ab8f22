// Package connectrpc is the small part of the Connect protocol (JSON codec,
// HTTP/1.1) that the e2b adapter and its test server speak to and as envd:
// the 5-byte envelopes of streaming calls, the end-of-stream message, the
// error JSON and the mapping between Connect codes and HTTP statuses.
//
// Envelope: 1 byte of flags (FlagCompressed, FlagEndStream), 4 bytes of
// big-endian payload length, then the payload.
package connectrpc

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Envelope flags.
const (
	// FlagCompressed marks a payload compressed with the negotiated
	// encoding. Neither side here negotiates one, so it is an error.
	FlagCompressed byte = 0x01
	// FlagEndStream marks the last envelope of a response stream: its
	// payload is an EndStream message.
	FlagEndStream byte = 0x02
)

// MaxPayload is the largest envelope payload ReadEnvelope accepts by
// default. envd sends output in chunks of at most 32 KiB.
const MaxPayload = 16 << 20

// Content types.
const (
	ContentTypeUnary  = "application/json"
	ContentTypeStream = "application/connect+json"
)

// Header names.
const (
	HeaderProtocolVersion = "Connect-Protocol-Version"
	HeaderTimeout         = "Connect-Timeout-Ms"
)

// Envelope is one framed message of a stream.
type Envelope struct {
	Flags byte
	Data  []byte
}

// EndStream reports whether e is the end-of-stream envelope.
func (e Envelope) EndStream() bool { return e.Flags&FlagEndStream != 0 }

// ErrTooLarge is returned for an envelope whose length exceeds the limit.
var ErrTooLarge = errors.New("connect: envelope payload too large")

// ReadEnvelope reads one envelope from r, however r splits it into reads. At
// a clean boundary with nothing more to read it returns io.EOF; a header or
// payload cut short is io.ErrUnexpectedEOF. max <= 0 means MaxPayload.
func ReadEnvelope(r io.Reader, max int) (Envelope, error) {
	if max <= 0 {
		max = MaxPayload
	}
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return Envelope{}, err
	}
	n := binary.BigEndian.Uint32(hdr[1:])
	if uint64(n) > uint64(max) {
		return Envelope{}, fmt.Errorf("%w: %d bytes (limit %d)", ErrTooLarge, n, max)
	}
	env := Envelope{Flags: hdr[0], Data: make([]byte, n)}
	if _, err := io.ReadFull(r, env.Data); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return Envelope{}, err
	}
	if env.Flags&FlagCompressed != 0 {
		return Envelope{}, errors.New("connect: compressed envelope, but no compression was negotiated")
	}
	return env, nil
}

// AppendEnvelope appends one envelope holding data to dst.
func AppendEnvelope(dst []byte, flags byte, data []byte) []byte {
	var hdr [5]byte
	hdr[0] = flags
	binary.BigEndian.PutUint32(hdr[1:], uint32(len(data)))
	dst = append(dst, hdr[:]...)
	return append(dst, data...)
}

// WriteEnvelope writes one envelope holding data to w in a single Write.
func WriteEnvelope(w io.Writer, flags byte, data []byte) error {
	_, err := w.Write(AppendEnvelope(make([]byte, 0, 5+len(data)), flags, data))
	return err
}

// Error is a Connect error as its JSON travels: the body of a failed unary
// call, or the "error" of an end-of-stream message.
type Error struct {
	Code    string            `json:"code"`
	Message string            `json:"message,omitempty"`
	Details []json.RawMessage `json:"details,omitempty"`
}

func (e *Error) Error() string {
	if e.Message == "" {
		return e.Code
	}
	return e.Code + ": " + e.Message
}

// EndStream is the payload of the end-of-stream envelope: {} on success.
type EndStream struct {
	Error    *Error              `json:"error,omitempty"`
	Metadata map[string][]string `json:"metadata,omitempty"`
}

// ParseEndStream decodes an end-of-stream payload. An empty payload is
// success, as is {}.
func ParseEndStream(data []byte) (EndStream, error) {
	var es EndStream
	if len(data) == 0 {
		return es, nil
	}
	if err := json.Unmarshal(data, &es); err != nil {
		return es, fmt.Errorf("connect: bad end-of-stream message: %w", err)
	}
	if es.Error != nil && es.Error.Code == "" {
		es.Error.Code = CodeUnknown
	}
	return es, nil
}

// Connect error codes (the ones envd and the proxy use).
const (
	CodeCanceled           = "canceled"
	CodeUnknown            = "unknown"
	CodeInvalidArgument    = "invalid_argument"
	CodeDeadlineExceeded   = "deadline_exceeded"
	CodeNotFound           = "not_found"
	CodeAlreadyExists      = "already_exists"
	CodePermissionDenied   = "permission_denied"
	CodeResourceExhausted  = "resource_exhausted"
	CodeFailedPrecondition = "failed_precondition"
	CodeAborted            = "aborted"
	CodeOutOfRange         = "out_of_range"
	CodeUnimplemented      = "unimplemented"
	CodeInternal           = "internal"
	CodeUnavailable        = "unavailable"
	CodeDataLoss           = "data_loss"
	CodeUnauthenticated    = "unauthenticated"
)

// CodeToHTTP is the HTTP status a unary call fails with for code.
func CodeToHTTP(code string) int {
	switch code {
	case CodeInvalidArgument, CodeFailedPrecondition, CodeOutOfRange:
		return http.StatusBadRequest
	case CodeUnauthenticated:
		return http.StatusUnauthorized
	case CodePermissionDenied:
		return http.StatusForbidden
	case CodeNotFound:
		return http.StatusNotFound
	case CodeAlreadyExists, CodeAborted:
		return http.StatusConflict
	case CodeResourceExhausted:
		return http.StatusTooManyRequests
	case CodeCanceled:
		return 499
	case CodeUnimplemented:
		return http.StatusNotImplemented
	case CodeUnavailable:
		return http.StatusServiceUnavailable
	case CodeDeadlineExceeded:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

// HTTPToCode infers a Connect code from the status of a response whose body
// is not a Connect error (a proxy's, say).
func HTTPToCode(status int) string {
	switch status {
	case http.StatusBadRequest:
		return CodeInternal
	case http.StatusUnauthorized:
		return CodeUnauthenticated
	case http.StatusForbidden:
		return CodePermissionDenied
	case http.StatusNotFound:
		return CodeUnimplemented
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return CodeUnavailable
	}
	return CodeUnknown
}
