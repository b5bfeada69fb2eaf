package record_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/compacteval/compacteval/internal/record"
	"github.com/compacteval/compacteval/internal/record/recordtest"
	"github.com/google/go-cmp/cmp"
)

// TestProvidersSendWhatTheSDKClientsSend replays each fixture of testdata/sdkparity, which
// internal/record/sdkparity (its own module: make sdk-parity) recorded through record's
// providers as they were written against anthropic-sdk-go and openai-go. Given the same
// request, key, base URL and environment, record's provider must send every request of
// Send, Submit and Collect as the SDK did: the same method and URL, the same body byte for
// byte, and the same headers, but for the ones that name the client (clientHeader). And of
// the same answers it must make the same Response and BatchResults.
func TestProvidersSendWhatTheSDKClientsSend(t *testing.T) {
	files, err := filepath.Glob("testdata/sdkparity/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/sdkparity (%v): run make sdk-parity", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var f recordtest.ParityFixture
			if err := json.Unmarshal(data, &f); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			for k, v := range f.Env {
				t.Setenv(k, v)
			}
			var req record.Request
			if err := json.Unmarshal(f.Request, &req); err != nil {
				t.Fatalf("%s: request: %v", file, err)
			}
			rt := &replay{t: t, want: f.Exchanges}
			p, err := record.New(record.Config{Provider: f.Provider, BaseURL: f.BaseURL, APIKey: f.APIKey, SendKeyToBaseURL: true,
				HTTPClient: &http.Client{Transport: rt}})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			resp, err := p.Send(ctx, &req)
			if err != nil {
				t.Fatalf("Send: %v", err)
			}
			sameJSON(t, "Send", f.Response, resp)
			missing := req
			missing.Model = recordtest.MissingModel
			id, err := p.Submit(ctx, []record.BatchItem{{CustomID: "c1", Request: &req}, {CustomID: "c2", Request: &missing}})
			if err != nil {
				t.Fatalf("Submit: %v", err)
			}
			if id != f.BatchID {
				t.Errorf("Submit() = %q, want %q", id, f.BatchID)
			}
			batch, err := p.Collect(ctx, id)
			if err != nil {
				t.Fatalf("Collect: %v", err)
			}
			sameJSON(t, "Collect", f.Batch, batch)
			if rt.n != len(f.Exchanges) {
				t.Errorf("record's provider made %d requests, the SDK's %d", rt.n, len(f.Exchanges))
			}
		})
	}
}

// clientHeader reports whether a header names the client that sends, not the request:
// the SDKs sent their own User-Agent and X-Stainless-* (language, package version, OS,
// architecture, Go version, retry count, timeout); record sends User-Agent
// compacteval/VERSION and nothing of Stainless.
func clientHeader(name string) bool {
	return name == "User-Agent" || strings.HasPrefix(name, "X-Stainless-")
}

// replay checks each request against the next recorded exchange, and answers it with the
// recorded answer.
type replay struct {
	t    *testing.T
	want []recordtest.Exchange
	mu   sync.Mutex
	n    int
}

func (r *replay) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	got, err := recordtest.ReadExchange(req)
	if err != nil {
		return nil, err
	}
	if r.n >= len(r.want) {
		r.t.Errorf("request %d, %s %s: the SDK made only %d", r.n+1, got.Method, got.URL, len(r.want))
		return nil, fmt.Errorf("no recorded answer")
	}
	want := r.want[r.n]
	r.n++
	if got.Method != want.Method || got.URL != want.URL {
		r.t.Errorf("request %d: record sends %s %s, the SDK sent %s %s", r.n, got.Method, got.URL, want.Method, want.URL)
	}
	if ua := got.Header.Get("User-Agent"); !strings.HasPrefix(ua, "compacteval/") {
		r.t.Errorf("request %d: User-Agent %q, want compacteval/VERSION", r.n, ua)
	}
	if diff := cmp.Diff(requestHeaders(want.Header), requestHeaders(got.Header)); diff != "" {
		r.t.Errorf("request %d (%s %s): headers differ (-SDK +record):\n%s", r.n, got.Method, got.URL, diff)
	}
	if diff := cmp.Diff(want.Body, got.Body); diff != "" {
		r.t.Errorf("request %d (%s %s): bodies differ (-SDK +record):\n%s", r.n, got.Method, got.URL, diff)
	}
	return &http.Response{
		StatusCode: want.Status, Status: fmt.Sprintf("%d %s", want.Status, http.StatusText(want.Status)),
		Header: want.ResponseHeader.Clone(), Body: io.NopCloser(strings.NewReader(want.ResponseBody)),
		ContentLength: int64(len(want.ResponseBody)), Request: req,
	}, nil
}

// requestHeaders returns h without the headers that name the client.
func requestHeaders(h http.Header) http.Header {
	out := http.Header{}
	for k, v := range h {
		if !clientHeader(k) {
			out[k] = v
		}
	}
	return out
}

// sameJSON fails unless got is, as JSON, what the SDK-based provider made (want).
func sameJSON(t *testing.T, what string, want json.RawMessage, got any) {
	t.Helper()
	data, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(compact.String(), string(data)); diff != "" {
		t.Errorf("%s mismatch (-SDK +record):\n%s", what, diff)
	}
}
