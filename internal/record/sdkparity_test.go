package record_test

// An external test: it alone names the SDKs' whole clients (anthropic.NewClient,
// openai.NewClient), whose generic pagers take seconds to compile, and here they compile
// once, not again in package record rebuilt with its internal tests.

import (
	"bytes"
	"context"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/record"
	"github.com/compacteval/compacteval/internal/record/recordtest"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
)

// sent is what reached the server: the request line and the headers that do not depend
// on the body.
type sent struct {
	method, url string
	header      http.Header
}

// capture records each request and sends it on to the fake server.
type capture struct {
	srv  *recordtest.Server
	sent []sent
}

func (c *capture) RoundTrip(r *http.Request) (*http.Response, error) {
	h := r.Header.Clone()
	h.Del("Content-Length")
	h.Del("Idempotency-Key") // random on each request
	if mt, params, err := mime.ParseMediaType(h.Get("Content-Type")); err == nil && params["boundary"] != "" {
		h.Set("Content-Type", mt) // a multipart body's random boundary
	}
	c.sent = append(c.sent, sent{r.Method, r.URL.String(), h})
	u, _ := url.Parse(c.srv.URL)
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
	return http.DefaultTransport.RoundTrip(r)
}

const key = "sk-parity-0123456789"

// TestProvidersSendWhatTheSDKClientsSend sends one message and one batch through record's
// provider and through the SDK's client given the options record passes, with the
// environment each SDK reads set, to the provider's own host and to a base URL, and
// compares the requests.
func TestProvidersSendWhatTheSDKClientsSend(t *testing.T) {
	for _, k := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY", "OPENAI_ADMIN_KEY"} {
		t.Setenv(k, "env-"+strings.ToLower(k))
	}
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_ORG_ID", "org-parity")
	t.Setenv("OPENAI_PROJECT_ID", "proj-parity")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Parity: yes")
	msgs := []corpus.Message{{Role: corpus.RoleUser, Text: "hello"}}
	for _, tt := range []struct {
		name, provider, base string
	}{
		{"anthropic own host", record.Anthropic, ""},
		{"anthropic base URL", record.Anthropic, "http://localhost:8080"},
		{"openai own host", record.OpenAI, ""},
		{"openai base URL", record.OpenAI, "http://localhost:8080/v1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := recordtest.NewServer(t)
			srv.Script("m1", recordtest.Reply{Text: "answer"}, recordtest.Reply{Text: "answer"})
			srv.Key = key
			ours, theirs := &capture{srv: srv}, &capture{srv: srv}
			p, err := record.New(record.Config{Provider: tt.provider, BaseURL: tt.base, APIKey: key, SendKeyToBaseURL: true,
				Timeout: time.Minute, HTTPClient: &http.Client{Transport: ours}})
			if err != nil {
				t.Fatal(err)
			}
			req := &record.Request{Provider: tt.provider, Model: "m1", Messages: msgs, Instruction: "summarize",
				Params: record.Params{MaxTokens: compact.MaxTokens, ToolsAsText: true}}
			ctx := context.Background()
			if _, err := p.Send(ctx, req); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Submit(ctx, []record.BatchItem{{CustomID: "c1", Request: req}}); err != nil {
				t.Fatal(err)
			}
			sdk := &http.Client{Transport: theirs}
			switch tt.provider {
			case record.Anthropic:
				sendAnthropic(t, ctx, tt.base, sdk)
			case record.OpenAI:
				sendOpenAI(t, ctx, tt.base, sdk)
			}
			if len(ours.sent) != len(theirs.sent) {
				t.Fatalf("record's provider made %d requests, the SDK's client %d", len(ours.sent), len(theirs.sent))
			}
			for i := range ours.sent {
				o, s := ours.sent[i], theirs.sent[i]
				if o.method != s.method || o.url != s.url {
					t.Errorf("request %d: record %s %s, SDK client %s %s", i+1, o.method, o.url, s.method, s.url)
				}
				if a, b := headerText(o.header), headerText(s.header); a != b {
					t.Errorf("request %d (%s): headers differ\nrecord:\n%s\nSDK client:\n%s", i+1, o.url, a, b)
				}
			}
		})
	}
}

// sendAnthropic does what newAnthropic's provider does, through anthropic.NewClient.
func sendAnthropic(t *testing.T, ctx context.Context, base string, hc *http.Client) {
	opts := []anthropicoption.RequestOption{anthropicoption.WithoutEnvironmentDefaults(), anthropicoption.WithMaxRetries(0), anthropicoption.WithAPIKey(key)}
	if base != "" {
		opts = append(opts, anthropicoption.WithBaseURL(base))
	}
	client := anthropic.NewClient(append(opts, anthropicoption.WithHTTPClient(hc))...)
	params := anthropic.MessageNewParams{Model: "m1", MaxTokens: compact.MaxTokens,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hello"), anthropic.NewTextBlock("summarize"))}}
	if _, err := client.Messages.New(ctx, params, anthropicoption.WithRequestTimeout(time.Minute)); err != nil {
		t.Fatal(err)
	}
	bp := anthropic.MessageBatchNewParamsRequestParams{Model: params.Model, MaxTokens: params.MaxTokens, Messages: params.Messages}
	if _, err := client.Messages.Batches.New(ctx, anthropic.MessageBatchNewParams{Requests: []anthropic.MessageBatchNewParamsRequest{{CustomID: "c1", Params: bp}}}); err != nil {
		t.Fatal(err)
	}
}

// sendOpenAI does what newOpenAI's provider does, through openai.NewClient.
func sendOpenAI(t *testing.T, ctx context.Context, base string, hc *http.Client) {
	if base == "" {
		base = "https://api.openai.com/v1/"
	}
	client := openai.NewClient(openaioption.WithAPIKey(key), openaioption.WithMaxRetries(0), openaioption.WithBaseURL(base), openaioption.WithHTTPClient(hc))
	params := openai.ChatCompletionNewParams{Model: "m1", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hello"), openai.UserMessage("summarize")}}
	if _, err := client.Chat.Completions.New(ctx, params, openaioption.WithRequestTimeout(time.Minute)); err != nil {
		t.Fatal(err)
	}
	file, err := client.Files.New(ctx, openai.FileNewParams{
		File:    openai.File(bytes.NewReader([]byte("{}\n")), "compacteval-batch.jsonl", "application/jsonl"),
		Purpose: openai.FilePurposeBatch,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Batches.New(ctx, openai.BatchNewParams{InputFileID: file.ID, Endpoint: openai.BatchNewParamsEndpointV1ChatCompletions,
		CompletionWindow: openai.BatchNewParamsCompletionWindow24h}); err != nil {
		t.Fatal(err)
	}
}

// headerText prints h one header a line, sorted.
func headerText(h http.Header) string {
	var b bytes.Buffer
	h.Write(&b)
	return b.String()
}
