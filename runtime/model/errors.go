package model

import (
	"errors"
	"fmt"
	"time"
)

// ErrIncomplete: a stream ended before its EventDone.
var ErrIncomplete = errors.New("model: the reply ended before it was complete")

// APIError is an error a provider's API returned: an HTTP status with the
// provider's error JSON, or an error event in the middle of a stream
// (StatusCode is then the status the error type stands for, such as 529
// for Anthropic's overloaded_error). Match it with errors.As.
type APIError struct {
	// Provider is the adapter's name: "anthropic", "openai".
	Provider   string
	StatusCode int
	// Type is the provider's error type or code, such as
	// "rate_limit_error" or "invalid_api_key".
	Type    string
	Message string
	// RequestID is the provider's id of the request, when it sent one.
	RequestID string
	// RetryAfter is what the provider asked to wait before a retry, 0 if
	// it did not say.
	RetryAfter time.Duration
	// Attempts is how many times the request was sent (retries included).
	Attempts int
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("%s: %d", e.Provider, e.StatusCode)
	if e.Type != "" {
		msg += " " + e.Type
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.RequestID != "" {
		msg += " (request " + e.RequestID + ")"
	}
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	return msg
}

// RateLimited reports whether the provider refused for load: 429, or
// Anthropic's 529 overloaded.
func (e *APIError) RateLimited() bool { return e.StatusCode == 429 || e.StatusCode == 529 }
