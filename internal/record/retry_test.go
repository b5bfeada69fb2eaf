package record

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/record/recordtest"
	"github.com/google/go-cmp/cmp"
)

func TestRetryAgainstServer(t *testing.T) {
	ok := recordtest.Reply{Text: wellFormed}
	tests := []struct {
		name    string
		replies []recordtest.Reply
		// wantCalls is how many requests reach the server; wantWaits the waits between.
		wantCalls int
		wantWaits []time.Duration
		wantErr   error
	}{
		{
			name:      "429 honours retry-after",
			replies:   []recordtest.Reply{{Status: 429, RetryAfter: "7", ErrType: "rate_limit_error", ErrMessage: "slow down"}, ok},
			wantCalls: 2, wantWaits: []time.Duration{7 * time.Second},
		},
		{
			name:      "500 then success backs off",
			replies:   []recordtest.Reply{{Status: 500, ErrType: "api_error", ErrMessage: "boom"}, {Status: 529, ErrType: "overloaded_error", ErrMessage: "busy"}, ok},
			wantCalls: 3, wantWaits: []time.Duration{time.Second, 2 * time.Second},
		},
		{
			name:      "401 is not retried",
			replies:   []recordtest.Reply{{Status: 401, ErrType: "authentication_error", ErrMessage: "invalid x-api-key"}},
			wantCalls: 1, wantErr: ErrUnauthorized,
		},
		{
			name:      "404 model is not retried",
			replies:   []recordtest.Reply{{Status: 404, ErrType: "not_found_error", ErrMessage: "model: m1"}},
			wantCalls: 1, wantErr: ErrModelNotFound,
		},
		{
			name:      "retries run out",
			replies:   []recordtest.Reply{{Status: 503, ErrType: "api_error", ErrMessage: "down"}},
			wantCalls: 6, wantWaits: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second},
		},
	}
	for _, provider := range providers {
		for _, tt := range tests {
			t.Run(provider+"/"+tt.name, func(t *testing.T) {
				srv := recordtest.NewServer(t)
				srv.Script("m1", tt.replies...)
				p := newProvider(t, srv, provider)
				req, _ := NewRequest(source(t), provider, "m1", Params{MaxTokens: 5}, compact.ReasonThreshold, 1)
				s := &sleeps{}
				var resp *Response
				err := testRetry(s).Do(context.Background(), func(ctx context.Context) error {
					var err error
					resp, err = p.Send(ctx, req)
					return err
				})
				if srv.Calls("m1") != tt.wantCalls {
					t.Errorf("server saw %d calls, want %d", srv.Calls("m1"), tt.wantCalls)
				}
				if diff := cmp.Diff(tt.wantWaits, s.waits); diff != "" {
					t.Errorf("waits mismatch (-want +got):\n%s", diff)
				}
				switch {
				case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
					t.Errorf("Do() = %v, want %v", err, tt.wantErr)
				case tt.wantErr == nil && tt.replies[len(tt.replies)-1].Status == 0 && (err != nil || resp.Text != wellFormed):
					t.Errorf("Do() = %v, want the answer", err)
				case tt.wantErr == nil && tt.replies[len(tt.replies)-1].Status != 0 && (err == nil || !strings.Contains(err.Error(), "gave up after 6 attempts")):
					t.Errorf("Do() = %v, want the last error and the attempts made", err)
				}
			})
		}
	}
}

func TestRetryAfterBeyondMaxWait(t *testing.T) {
	s := &sleeps{}
	calls := 0
	err := testRetry(s).Do(context.Background(), func(context.Context) error {
		calls++
		return &StatusError{Provider: OpenAI, Status: 429, RetryAfter: time.Hour, HasRetryAfter: true}
	})
	if err == nil || !strings.Contains(err.Error(), "retry after 1h0m0s") || calls != 1 || len(s.waits) != 0 {
		t.Errorf("Do(retry-after 1h) = %v after %d calls and waits %v; want an error at once", err, calls, s.waits)
	}
}

func TestRetryRateLimitsOnly(t *testing.T) {
	r := testRetry(&sleeps{})
	r.RateLimitsOnly = true
	calls := 0
	err := r.Do(context.Background(), func(context.Context) error {
		calls++
		if calls == 1 {
			return &StatusError{Status: 429}
		}
		return &StatusError{Status: 500}
	})
	if calls != 2 || err == nil {
		t.Errorf("Do(429, 500) with RateLimitsOnly = %v after %d calls; want the 500 after 2", err, calls)
	}
}

func TestRetryStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err := testRetry(&sleeps{}).Do(ctx, func(context.Context) error {
		calls++
		cancel()
		return &StatusError{Status: 500}
	})
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Errorf("Do(cancelled) = %v after %d calls, want context.Canceled after 1", err, calls)
	}
}

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
		ok     bool
	}{
		{name: "seconds", header: http.Header{"Retry-After": {"3"}}, want: 3 * time.Second, ok: true},
		{name: "fractional seconds", header: http.Header{"Retry-After": {"0.5"}}, want: 500 * time.Millisecond, ok: true},
		{name: "milliseconds win", header: http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"3"}}, want: 250 * time.Millisecond, ok: true},
		{name: "http date", header: http.Header{"Retry-After": {"Wed, 01 Jan 2025 00:00:10 GMT"}}, want: 10 * time.Second, ok: true},
		{name: "absent", header: http.Header{}, ok: false},
		{name: "garbage", header: http.Header{"Retry-After": {"soon"}}, ok: false},
	}
	for _, tt := range tests {
		got, ok := retryAfter(tt.header, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: retryAfter(%v) = %v, %v; want %v, %v", tt.name, tt.header, got, ok, tt.want, tt.ok)
		}
	}
}

func TestErrorBody(t *testing.T) {
	tests := []struct {
		name, body, typ, msg string
	}{
		{name: "anthropic", body: `{"type":"error","error":{"type":"not_found_error","message":"model: x"}}`, typ: "not_found_error", msg: "model: x"},
		{name: "openai and ollama", body: `{"error":{"message":"model \"x\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`, typ: "api_error", msg: `model "x" not found, try pulling it first`},
		{name: "error as a string", body: `{"error":"model 'x' not found"}`, msg: "model 'x' not found"},
		{name: "vllm", body: `{"object":"error","message":"The model x does not exist.","type":"NotFoundError","code":404}`, typ: "NotFoundError", msg: "The model x does not exist."},
		{name: "fastapi detail", body: `{"detail":"Not Found"}`, msg: "Not Found"},
		{name: "not json", body: "404 page not found\n", msg: "404 page not found"},
	}
	for _, tt := range tests {
		typ, msg := errorBody([]byte(tt.body))
		if typ != tt.typ || msg != tt.msg {
			t.Errorf("%s: errorBody(%s) = %q, %q; want %q, %q", tt.name, tt.body, typ, msg, tt.typ, tt.msg)
		}
	}
}
