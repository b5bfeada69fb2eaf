package record

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/record/recordtest"
	"github.com/google/go-cmp/cmp"
)

var providers = []string{Anthropic, OpenAI}

func sendOne(t *testing.T, srv *recordtest.Server, provider, model string, p Params) (*Response, error) {
	t.Helper()
	req, err := NewRequest(source(t), provider, model, p, compact.ReasonThreshold, 1)
	if err != nil {
		t.Fatal(err)
	}
	return newProvider(t, srv, provider).Send(context.Background(), req)
}

func TestSendAnswers(t *testing.T) {
	tests := []struct {
		name  string
		reply recordtest.Reply
		want  Response
	}{
		{
			name:  "well-formed answer",
			reply: recordtest.Reply{Text: wellFormed},
			want:  Response{Text: wellFormed},
		},
		{
			name:  "cut at max_tokens is truncated",
			reply: recordtest.Reply{Text: "<analysis>\nThe export", Truncated: true},
			want:  Response{Text: "<analysis>\nThe export", Truncated: true},
		},
		{
			name:  "empty content",
			reply: recordtest.Reply{},
			want:  Response{},
		},
		{
			name:  "thinking only: no text, the thinking counted",
			reply: recordtest.Reply{Thinking: "Let me think about the summary."},
			want:  Response{Thinking: 1},
		},
		{
			name:  "a forbidden tool call is counted",
			reply: recordtest.Reply{Text: "I will list the files.", ToolCall: true},
			want:  Response{Text: "I will list the files.", ToolCalls: 1},
		},
	}
	for _, provider := range providers {
		for _, tt := range tests {
			t.Run(provider+"/"+tt.name, func(t *testing.T) {
				srv := recordtest.NewServer(t)
				srv.Script("m1", tt.reply)
				got, err := sendOne(t, srv, provider, "m1", Params{MaxTokens: 500})
				if err != nil {
					t.Fatal(err)
				}
				want := tt.want
				want.Model = "m1"
				want.StopReason = map[string]map[bool]string{Anthropic: {false: "end_turn", true: "max_tokens"}, OpenAI: {false: "stop", true: "length"}}[provider][tt.want.Truncated]
				if diff := cmp.Diff(want, *got, cmpIgnoreUsage); diff != "" {
					t.Errorf("Send() mismatch (-want +got):\n%s", diff)
				}
				if got.Usage == nil {
					t.Error("Send() has no usage")
				}
			})
		}
	}
}

var cmpIgnoreUsage = cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Usage" }, cmp.Ignore())

func TestAnthropicTextBlocksJoined(t *testing.T) {
	srv := recordtest.NewServer(t)
	srv.Script("m1", recordtest.Reply{Texts: []string{"<summary>", "x\n</summary>"}})
	got, err := sendOne(t, srv, Anthropic, "m1", Params{MaxTokens: 5})
	if err != nil {
		t.Fatal(err)
	}
	if want := "<summary>\nx\n</summary>"; got.Text != want {
		t.Errorf("Send(two text blocks).Text = %q, want %q (joined by a newline)", got.Text, want)
	}
}

// TestAnthropicRequestShape checks what goes over the wire: tool calls as tool_use blocks,
// results as tool_result blocks in user turns, the instruction as the last text block,
// tools declared, max_tokens and temperature.
func TestAnthropicRequestShape(t *testing.T) {
	srv := recordtest.NewServer(t)
	srv.Script("m1", recordtest.Reply{Text: wellFormed})
	temp := 0.2
	if _, err := sendOne(t, srv, Anthropic, "m1", Params{MaxTokens: 32000, Temperature: &temp}); err != nil {
		t.Fatal(err)
	}
	body := srv.Requests()[0].Body
	if body["max_tokens"] != 32000.0 || body["temperature"] != 0.2 || body["model"] != "m1" {
		t.Errorf("request max_tokens, temperature, model = %v, %v, %v; want 32000, 0.2, m1", body["max_tokens"], body["temperature"], body["model"])
	}
	var shape []string
	for _, m := range body["messages"].([]any) {
		msg := m.(map[string]any)
		var blocks []string
		for _, b := range msg["content"].([]any) {
			blocks = append(blocks, b.(map[string]any)["type"].(string))
		}
		shape = append(shape, msg["role"].(string)+":"+strings.Join(blocks, ","))
	}
	want := []string{"user:text", "assistant:text,tool_use", "user:tool_result", "assistant:text,tool_use", "user:tool_result,text", "assistant:text", "user:text"}
	if diff := cmp.Diff(want, shape); diff != "" {
		t.Errorf("Anthropic message shape mismatch (-want +got):\n%s", diff)
	}
	msgs := body["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)["content"].([]any)
	if text := last[len(last)-1].(map[string]any)["text"].(string); !strings.HasPrefix(text, "<system-reminder>") || !strings.Contains(text, compact.Instruction) {
		t.Errorf("the last block is %.80q, want the instruction", text)
	}
	use := msgs[3].(map[string]any)["content"].([]any)[1].(map[string]any)
	if use["id"] != "call-2" || use["name"] != "edit_file" || use["input"].(map[string]any)["path"] != "jobs/export.py" {
		t.Errorf("tool_use block = %v, want call-2 edit_file with its JSON input", use)
	}
	bash := msgs[1].(map[string]any)["content"].([]any)[1].(map[string]any)
	if bash["input"].(map[string]any)["input"] != "cat jobs/export.py .env" {
		t.Errorf("a plain-text tool input = %v, want it wrapped as {\"input\": ...}", bash["input"])
	}
	var tools []string
	for _, tl := range body["tools"].([]any) {
		tools = append(tools, tl.(map[string]any)["name"].(string))
	}
	if diff := cmp.Diff([]string{"bash", "edit_file"}, tools); diff != "" {
		t.Errorf("declared tools mismatch (-want +got):\n%s", diff)
	}
}

func TestOpenAIRequestShape(t *testing.T) {
	srv := recordtest.NewServer(t)
	srv.Script("qwen2.5:0.5b", recordtest.Reply{Text: wellFormed})
	if _, err := sendOne(t, srv, OpenAI, "qwen2.5:0.5b", Params{MaxTokens: 32000}); err != nil {
		t.Fatal(err)
	}
	body := srv.Requests()[0].Body
	if body["max_tokens"] != 32000.0 || body["max_completion_tokens"] != nil {
		t.Errorf("a compatible server gets max_tokens %v, max_completion_tokens %v; want 32000 and none", body["max_tokens"], body["max_completion_tokens"])
	}
	if _, ok := body["temperature"]; ok {
		t.Errorf("temperature sent although unset: %v", body["temperature"])
	}
	var roles []string
	for _, m := range body["messages"].([]any) {
		roles = append(roles, m.(map[string]any)["role"].(string))
	}
	if diff := cmp.Diff([]string{"user", "assistant", "tool", "assistant", "tool", "user", "assistant", "user"}, roles); diff != "" {
		t.Errorf("OpenAI roles mismatch (-want +got):\n%s", diff)
	}
	call := body["messages"].([]any)[3].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)
	fn := call["function"].(map[string]any)
	var args map[string]any
	if err := json.Unmarshal([]byte(fn["arguments"].(string)), &args); err != nil || call["id"] != "call-2" || fn["name"] != "edit_file" || args["path"] != "jobs/export.py" {
		t.Errorf("tool call = %v, want call-2 edit_file with JSON arguments (%v)", call, err)
	}
	tool := body["messages"].([]any)[2].(map[string]any)
	if tool["tool_call_id"] != "call-1" || strings.Contains(tool["content"].(string), "Xk29dmQp7") {
		t.Errorf("tool message = %v, want call-1 with the password redacted", tool)
	}
}

func TestToolsAsText(t *testing.T) {
	for _, provider := range providers {
		srv := recordtest.NewServer(t)
		srv.Script("m1", recordtest.Reply{Text: wellFormed})
		if _, err := sendOne(t, srv, provider, "m1", Params{MaxTokens: 10, ToolsAsText: true}); err != nil {
			t.Fatal(err)
		}
		body := srv.Requests()[0].Body
		data, _ := json.Marshal(body["messages"])
		if body["tools"] != nil || strings.Contains(string(data), "tool_use") || strings.Contains(string(data), `"tool_calls"`) || strings.Contains(string(data), `"role":"tool"`) {
			t.Errorf("%s with tools as text still sends tools: %s", provider, data)
		}
		if !strings.Contains(string(data), `[tool call edit_file (call-2)]`) || !strings.Contains(string(data), `[tool result for call-1]`) {
			t.Errorf("%s with tools as text lacks the rendered calls: %s", provider, data)
		}
	}
}

func TestSendErrors(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			srv := recordtest.NewServer(t)
			srv.Key = "right-key-123456"
			srv.Script("m1", recordtest.Reply{Text: wellFormed})
			p, err := New(Config{Provider: provider, BaseURL: map[string]string{Anthropic: srv.URL, OpenAI: srv.OpenAIURL()}[provider], APIKey: "wrong-key-123456"})
			if err != nil {
				t.Fatal(err)
			}
			req, _ := NewRequest(source(t), provider, "m1", Params{MaxTokens: 5}, compact.ReasonThreshold, 1)
			_, err = p.Send(context.Background(), req)
			var se *StatusError
			if !errors.Is(err, ErrUnauthorized) || !errors.As(err, &se) || se.Status != 401 || !strings.Contains(err.Error(), "invalid x-api-key") {
				t.Errorf("Send(wrong key) = %v, want a 401 that is ErrUnauthorized with the server's message", err)
			}

			srv.Key = ""
			if _, err := sendOne(t, srv, provider, "no-such-model", Params{MaxTokens: 5}); !errors.Is(err, ErrModelNotFound) || !strings.Contains(err.Error(), "no-such-model") {
				t.Errorf("Send(unknown model) = %v, want ErrModelNotFound naming the model", err)
			}

			bad, _ := New(Config{Provider: provider, BaseURL: srv.URL + "/nope"})
			if _, err := bad.Send(context.Background(), req); !errors.Is(err, ErrEndpointNotFound) {
				t.Errorf("Send(wrong base URL) = %v, want ErrEndpointNotFound", err)
			}
		})
	}
}

func TestNewRejectsBadBaseURL(t *testing.T) {
	for _, base := range []string{"localhost:11434", "ftp://x/v1", "http://user:secret@localhost:11434/v1"} {
		if _, err := New(Config{Provider: OpenAI, BaseURL: base}); err == nil {
			t.Errorf("New(base URL %q) = nil error, want one", base)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("New(base URL with a password) error %q shows the password", err)
		}
	}
	if _, err := New(Config{Provider: "gemini"}); err == nil {
		t.Error("New(provider gemini) = nil error, want one")
	}
}

func TestTimeoutIsAnError(t *testing.T) {
	srv := recordtest.NewServer(t)
	srv.Script("m1", recordtest.Reply{Text: wellFormed})
	req, _ := NewRequest(source(t), OpenAI, "m1", Params{MaxTokens: 5}, compact.ReasonThreshold, 1)
	p := newProvider(t, srv, OpenAI)
	r := Retry{Timeout: time.Nanosecond, Retries: 3, Sleep: (&sleeps{}).sleep}
	calls := 0
	err := r.Do(context.Background(), func(ctx context.Context) error {
		calls++
		_, err := p.Send(ctx, req)
		return err
	})
	if !errors.Is(err, ErrTimeout) || calls != 1 {
		t.Errorf("Do(timed-out call) = %v after %d calls, want ErrTimeout after 1", err, calls)
	}
}

// toServer sends every request to the fake server instead of the host it names, so that a
// client set up for a provider's own API can be tested without the network.
type toServer struct {
	srv   *recordtest.Server
	hosts []string
}

func (ts *toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	ts.hosts = append(ts.hosts, r.URL.Host)
	u, _ := url.Parse(ts.srv.URL)
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
	return http.DefaultTransport.RoundTrip(r)
}

func TestOwnAPIs(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	for _, tt := range []struct {
		provider, host, path, tokens string
	}{
		{Anthropic, "api.anthropic.com", "/v1/messages", "max_tokens"},
		{OpenAI, "api.openai.com", "/v1/chat/completions", "max_completion_tokens"},
	} {
		srv := recordtest.NewServer(t)
		srv.Script("m1", recordtest.Reply{Text: wellFormed})
		ts := &toServer{srv: srv}
		p, err := New(Config{Provider: tt.provider, APIKey: "k-0123456789", HTTPClient: &http.Client{Transport: ts}})
		if err != nil {
			t.Fatal(err)
		}
		req, _ := NewRequest(source(t), tt.provider, "m1", Params{MaxTokens: 7}, compact.ReasonThreshold, 1)
		if _, err := p.Send(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		got := srv.Requests()[0]
		if len(ts.hosts) != 1 || ts.hosts[0] != tt.host || got.Path != tt.path || got.Body[tt.tokens] != 7.0 {
			t.Errorf("%s without a base URL went to %v %s with %s = %v; want %s %s", tt.provider, ts.hosts, got.Path, tt.tokens, got.Body[tt.tokens], tt.host, tt.path)
		}
	}
}
