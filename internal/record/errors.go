package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Errors callers branch on. A *StatusError wraps them.
var (
	// ErrUnauthorized: the provider refused the API key (HTTP 401 or 403).
	ErrUnauthorized = errors.New("the API key was refused")
	// ErrModelNotFound: the provider does not serve the model (HTTP 404 naming a model).
	ErrModelNotFound = errors.New("model not found")
	// ErrEndpointNotFound: HTTP 404 not about a model, usually a base URL without /v1.
	ErrEndpointNotFound = errors.New("endpoint not found")
)

// StatusError is an HTTP error answer of a provider.
type StatusError struct {
	Provider string
	Status   int
	// Type and Message come from the body when it has them.
	Type    string
	Message string
	URL     string
	// RetryAfter is what the retry-after-ms or retry-after header asks for; HasRetryAfter
	// tells 0 from absent.
	RetryAfter    time.Duration
	HasRetryAfter bool
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("%s: %d %s", e.Provider, e.Status, http.StatusText(e.Status))
	if e.URL != "" {
		s += " from " + e.URL
	}
	if e.Type != "" {
		s += ": " + e.Type
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Unwrap returns the sentinel for the status: ErrUnauthorized, ErrModelNotFound or
// ErrEndpointNotFound, else nil.
func (e *StatusError) Unwrap() error {
	switch {
	case e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden:
		return ErrUnauthorized
	case e.Status == http.StatusNotFound && strings.Contains(strings.ToLower(e.Type+" "+e.Message), "model"):
		return ErrModelNotFound
	case e.Status == http.StatusNotFound:
		return ErrEndpointNotFound
	}
	return nil
}

// Retryable reports whether the same request may succeed later: a timeout, a rate limit,
// or a server error (Anthropic's 529 overloaded included).
func (e *StatusError) Retryable() bool {
	return e.Status == http.StatusRequestTimeout || e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// maxErrorBody bounds how much of an error answer is read.
const maxErrorBody = 64 << 10

// errorBody finds the type and message in the error shapes servers use:
// {"error":{"type","message"}} (Anthropic, OpenAI, Ollama), {"error":"..."},
// {"message","type"} (vLLM) and {"detail":"..."}; otherwise the start of the body.
func errorBody(body []byte) (typ, msg string) {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal(body, &v) != nil {
		return "", clipText(string(bytes.TrimSpace(body)), 300)
	}
	var inner struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	var plain string
	switch {
	case json.Unmarshal(v.Error, &inner) == nil && (inner.Message != "" || inner.Type != ""):
		return inner.Type, inner.Message
	case json.Unmarshal(v.Error, &plain) == nil && plain != "":
		return "", plain
	case v.Message != "":
		if v.Type == "error" {
			v.Type = "" // Anthropic's envelope type, not the error's
		}
		return v.Type, v.Message
	case v.Detail != nil:
		return "", clipText(fmt.Sprint(v.Detail), 300)
	}
	return "", clipText(string(bytes.TrimSpace(body)), 300)
}

// retryAfter reads retry-after-ms (milliseconds) or retry-after (seconds or an HTTP date).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}
