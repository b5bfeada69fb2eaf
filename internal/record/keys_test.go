package record

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/record/recordtest"
)

// TestKeyGoesOnlyWhereItBelongs sends one request per base URL through toServer, which
// takes every request to the loopback fake server whatever host it names (nothing leaves
// this machine), and checks which requests carried the key.
func TestKeyGoesOnlyWhereItBelongs(t *testing.T) {
	const key = "sk-test-key-0123456789"
	tests := []struct {
		name      string
		provider  string
		baseURL   string
		toBaseURL bool
		wantKey   bool
	}{
		{name: "openai's own API", provider: OpenAI, wantKey: true},
		{name: "anthropic's own API", provider: Anthropic, wantKey: true},
		{name: "openai's own host named", provider: OpenAI, baseURL: "https://api.openai.com/v1", wantKey: true},
		{name: "another https host: not without the flag", provider: OpenAI, baseURL: "https://llm-gateway.example.com/v1"},
		{name: "another https host with the flag", provider: OpenAI, baseURL: "https://llm-gateway.example.com/v1", toBaseURL: true, wantKey: true},
		{name: "a local server: not without the flag", provider: OpenAI, baseURL: "http://127.0.0.1:11434/v1"},
		{name: "a local anthropic server: not without the flag", provider: Anthropic, baseURL: "http://localhost:8080"},
		{name: "a local server with the flag", provider: OpenAI, baseURL: "http://localhost:11434/v1", toBaseURL: true, wantKey: true},
		{name: "ipv6 loopback with the flag", provider: Anthropic, baseURL: "http://[::1]:8080", toBaseURL: true, wantKey: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := recordtest.NewServer(t)
			srv.Script("m1", recordtest.Reply{Text: wellFormed})
			p, err := New(Config{Provider: tt.provider, BaseURL: tt.baseURL, APIKey: key, SendKeyToBaseURL: tt.toBaseURL,
				HTTPClient: &http.Client{Transport: &toServer{srv: srv}}})
			if err != nil {
				t.Fatalf("New(%s) = %v", tt.baseURL, err)
			}
			req, _ := NewRequest(source(t), tt.provider, "m1", Params{MaxTokens: 7}, compact.ReasonThreshold, 1)
			if _, err := p.Send(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			got := srv.Requests()[0].Auth
			if strings.Contains(got, key) != tt.wantKey {
				t.Errorf("base URL %q (send to base URL %v) sent auth %q; want the key: %v", tt.baseURL, tt.toBaseURL, got, tt.wantKey)
			}
		})
	}
}

// refuseAll fails every request without dialling and counts them.
type refuseAll struct{ n atomic.Int32 }

func (r *refuseAll) RoundTrip(*http.Request) (*http.Response, error) {
	r.n.Add(1)
	return nil, errors.New("the test transport sends nothing")
}

func TestKeyNeverOverPlainHTTPToAnotherMachine(t *testing.T) {
	for _, base := range []string{
		"http://gpu-box.lan:8000/v1",
		"http://192.0.2.10:11434/v1", // TEST-NET-1: never dialled, the transport refuses all
		"http://api.openai.com/v1",
	} {
		for _, toBaseURL := range []bool{false, true} {
			rt := &refuseAll{}
			_, err := New(Config{Provider: OpenAI, BaseURL: base, APIKey: "sk-test-key-0123456789", SendKeyToBaseURL: toBaseURL,
				HTTPClient: &http.Client{Transport: rt}})
			own := strings.Contains(base, "api.openai.com")
			if (toBaseURL || own) && !errors.Is(err, ErrPlainHTTPKey) {
				t.Errorf("New(%s, send to base URL %v) = %v; want ErrPlainHTTPKey", base, toBaseURL, err)
			}
			if !toBaseURL && !own && err != nil {
				t.Errorf("New(%s) without the flag = %v; want no error (the key stays home)", base, err)
			}
			if rt.n.Load() != 0 {
				t.Errorf("New(%s) made %d requests", base, rt.n.Load())
			}
		}
	}
	// Without a key there is nothing to protect: a plain http server elsewhere is the
	// caller's choice.
	if _, err := New(Config{Provider: OpenAI, BaseURL: "http://gpu-box.lan:8000/v1", HTTPClient: &http.Client{Transport: &refuseAll{}}}); err != nil {
		t.Errorf("New without a key = %v, want nil", err)
	}
}

// TestRedirectDoesNotCarryTheKey: net/http forwards x-api-key (Anthropic's header) to
// wherever a server redirects; the provider refuses redirects to another origin.
func TestRedirectDoesNotCarryTheKey(t *testing.T) {
	const key = "sk-test-key-0123456789"
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("X-Api-Key")+r.Header.Get("Authorization"), key) {
			leaked.Add(1)
		}
		http.Error(w, "no", http.StatusTeapot)
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer first.Close()
	p, err := New(Config{Provider: Anthropic, BaseURL: first.URL, APIKey: key, SendKeyToBaseURL: true})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := NewRequest(source(t), Anthropic, "m1", Params{MaxTokens: 7}, compact.ReasonThreshold, 1)
	_, err = p.Send(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "refuse a redirect") {
		t.Errorf("Send through a redirect to another port = %v; want the redirect refused", err)
	}
	if leaked.Load() > 0 {
		t.Errorf("the key went to the server redirected to (%d requests)", leaked.Load())
	}
}

func TestLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "box.localhost": true, "127.0.0.1": true, "127.8.9.10": true, "::1": true,
		"10.0.0.1": false, "192.168.1.5": false, "localhost.example.com": false, "gpu-box": false, "0.0.0.0": false,
	} {
		if got := Loopback(host); got != want {
			t.Errorf("Loopback(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestEndpointText(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:11434/v1":                    "http://localhost:11434/v1",
		"https://gw.example.com/v1?key=abc123def456&z": "https://gw.example.com/v1?key=REDACTED&z=REDACTED",
		"https://u:pw123456@gw.example.com/v1#frag":    "https://u:xxxxx@gw.example.com/v1",
	} {
		if got := EndpointText(in); got != want {
			t.Errorf("EndpointText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEchoedKeyLeavesTheError: a server that echoes the key in its error body, whether the
// key was sent to it or not.
func TestEchoedKeyLeavesTheError(t *testing.T) {
	const key = "sk-test-key-0123456789"
	for _, send := range []bool{true, false} {
		for _, provider := range providers {
			srv := recordtest.NewServer(t)
			srv.Script("m1", recordtest.Reply{Status: 400, ErrType: "invalid_request_error " + key, ErrMessage: "unknown key " + key})
			base := srv.URL
			if provider == OpenAI {
				base = srv.OpenAIURL()
			}
			p, err := New(Config{Provider: provider, BaseURL: base, APIKey: key, SendKeyToBaseURL: send})
			if err != nil {
				t.Fatal(err)
			}
			req, _ := NewRequest(source(t), provider, "m1", Params{MaxTokens: 7}, compact.ReasonThreshold, 1)
			_, err = p.Send(context.Background(), req)
			if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "unknown key [REDACTED:literal]") {
				t.Errorf("%s (key sent %v): Send error = %v; want the echoed key redacted", provider, send, err)
			}
		}
	}
}
