// Command sdkparity records what the model SDKs' clients send and receive, as fixtures for
// record's TestProvidersSendWhatTheSDKClientsSend.
//
// Package record speaks the providers' HTTP APIs itself; this module, apart from the main
// one so that no build of compacteval compiles an SDK, keeps record's providers as they
// were written against anthropic-sdk-go and openai-go (anthropic.go, openai.go) and sends
// a few conversations through them, to record's fake server, with every environment
// variable the SDKs read set. Each run of a conversation (one Send, a batch submitted and
// collected) becomes testdata/sdkparity/NAME.json beside package record: the requests
// byte for byte, the answers, and what the SDK-based provider made of them.
//
//	make sdk-parity    # or: cd internal/record/sdkparity && go run . -out ../testdata/sdkparity
//
// Run it after updating an SDK here, and read the fixtures' diff: a change is something the
// SDK now sends differently, which record's providers should follow or say why not.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/record/recordtest"
)

// key is the API key of the fixtures that send one; the fake server requires it.
const key = "sk-parity-0123456789"

// env is what the SDKs would read: the Anthropic provider must ignore all of it, the
// OpenAI one sends the organization, project and custom headers (as openai.NewClient
// does) but neither the key nor the base URL.
var env = map[string]string{
	"ANTHROPIC_API_KEY":     "env-anthropic_api_key",
	"ANTHROPIC_AUTH_TOKEN":  "env-anthropic_auth_token",
	"ANTHROPIC_BASE_URL":    "http://127.0.0.1:1",
	"OPENAI_API_KEY":        "env-openai_api_key",
	"OPENAI_ADMIN_KEY":      "env-openai_admin_key",
	"OPENAI_BASE_URL":       "http://127.0.0.1:1/v1",
	"OPENAI_ORG_ID":         "org-parity",
	"OPENAI_PROJECT_ID":     "proj-parity",
	"OPENAI_CUSTOM_HEADERS": "X-Parity: yes",
}

// conversation is one request and the answer the fake model gives it.
type conversation struct {
	name  string
	req   Request
	reply recordtest.Reply
}

func conversations() []conversation {
	temp := 0.5
	tools := []corpus.Message{
		{Role: corpus.RoleUser, Text: "Fix the <b>build</b> & \"quote\" it: é ✓ \u2028 tab\t."},
		{Role: corpus.RoleAssistant, Text: "Looking.", ToolCalls: []corpus.ToolCall{
			{ID: "call 1", Name: "read.file", Input: `{"path": "a.go", "n": 1.50}`},
			{ID: "call-2", Name: "bash", Input: "go test ./... && echo <ok>"},
		}},
		{Role: corpus.RoleTool, ToolCallID: "call 1", Text: "package a"},
		{Role: corpus.RoleTool, ToolCallID: "call-2", Text: ""},
		{Role: corpus.RoleAssistant, ToolCalls: []corpus.ToolCall{{ID: "c3", Name: "bash", Input: "ls"}}},
		{Role: corpus.RoleUser, Text: ""},
		{Role: corpus.RoleAssistant, ToolCalls: []corpus.ToolCall{{ID: "c4", Name: "", Input: "{}"}}},
		{Role: corpus.RoleTool, ToolCallID: "c4", Text: "done"},
		{Role: corpus.RoleUser, Text: "go on"},
		{Role: corpus.RoleUser, Text: "and finish"},
	}
	return []conversation{
		{"plain", Request{Model: "m1", Messages: []corpus.Message{{Role: corpus.RoleUser, Text: "hello"}}, Instruction: "summarize",
			Params: Params{MaxTokens: compact.MaxTokens, ToolsAsText: true}}, recordtest.Reply{Text: "answer"}},
		{"tools", Request{Model: "m1", Messages: tools, Instruction: "Summarize <all> of it.",
			Params: Params{MaxTokens: 2000, Temperature: &temp}},
			recordtest.Reply{Texts: []string{"first <b>", "second & more"}, Thinking: "hmm", ToolCall: true}},
		{"tools-as-text", Request{Model: "m1", Messages: tools, Instruction: "summarize",
			Params: Params{MaxTokens: 2000, ToolsAsText: true}}, recordtest.Reply{Text: "cut short", Truncated: true}},
	}
}

func main() {
	out := flag.String("out", "../testdata/sdkparity", "the folder of the fixtures")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "sdkparity:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	for k, v := range env {
		os.Setenv(k, v)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, target := range []struct {
		provider, where, base, key string
		conversations              int
	}{
		{Anthropic, "own", "", key, 3},
		{Anthropic, "base", "http://localhost:8080", key, 3},
		{Anthropic, "nokey", "http://localhost:8080", "", 1},
		{OpenAI, "own", "", key, 3},
		{OpenAI, "base", "http://localhost:8080/v1", key, 3},
		{OpenAI, "nokey", "http://localhost:8080/v1", "", 1},
		{OpenAI, "query", "http://localhost:8080/v1?api-version=1", key, 1},
	} {
		for _, c := range conversations()[:target.conversations] {
			c.req.Provider = target.provider
			f, err := record1(target.provider, target.base, target.key, c)
			if err != nil {
				return fmt.Errorf("%s %s %s: %w", target.provider, target.where, c.name, err)
			}
			data, err := json.MarshalIndent(f, "", "  ")
			if err != nil {
				return err
			}
			name := filepath.Join(out, fmt.Sprintf("%s-%s-%s.json", target.provider, target.where, c.name))
			if err := os.WriteFile(name, append(data, '\n'), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// record1 sends c through the SDK-based provider for provider and base URL, to a fake
// server, and returns the fixture.
func record1(provider, base, key string, c conversation) (*recordtest.ParityFixture, error) {
	srv := recordtest.Start()
	defer srv.Close()
	srv.Key = key
	srv.Script(c.req.Model, c.reply)
	tr := &capture{srv: srv}
	cfg := Config{BaseURL: base, APIKey: key, Timeout: time.Hour, HTTPClient: &http.Client{Transport: tr}}
	var p interface {
		Send(context.Context, *Request) (*Response, error)
		Submit(context.Context, []BatchItem) (string, error)
		Collect(context.Context, string) (*BatchResults, error)
	}
	switch provider {
	case Anthropic:
		p = newAnthropic(cfg)
	case OpenAI:
		p = newOpenAI(cfg)
	}
	ctx := context.Background()
	resp, err := p.Send(ctx, &c.req)
	if err != nil {
		return nil, err
	}
	missing := c.req
	missing.Model = recordtest.MissingModel
	id, err := p.Submit(ctx, []BatchItem{{CustomID: "c1", Request: &c.req}, {CustomID: "c2", Request: &missing}})
	if err != nil {
		return nil, err
	}
	batch, err := p.Collect(ctx, id)
	if err != nil {
		return nil, err
	}
	f := &recordtest.ParityFixture{Provider: provider, BaseURL: base, APIKey: key, Env: env, Exchanges: tr.exchanges, BatchID: id}
	for _, v := range []struct {
		dst *json.RawMessage
		v   any
	}{{&f.Request, &c.req}, {&f.Response, resp}, {&f.Batch, batch}} {
		if *v.dst, err = json.Marshal(v.v); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// capture records each exchange, sending the request on to the fake server.
type capture struct {
	srv       *recordtest.Server
	exchanges []recordtest.Exchange
}

func (c *capture) RoundTrip(r *http.Request) (*http.Response, error) {
	e, err := recordtest.ReadExchange(r)
	if err != nil {
		return nil, err
	}
	u, _ := url.Parse(c.srv.URL)
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
	res, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(strings.NewReader(string(body)))
	e.Status, e.ResponseBody = res.StatusCode, string(body)
	e.ResponseHeader = http.Header{"Content-Type": res.Header.Values("Content-Type")}
	c.exchanges = append(c.exchanges, e)
	return res, nil
}
