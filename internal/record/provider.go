package record

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/compacteval/compacteval/corpus"
)

// Response is a model's answer to one request, as cached and recorded.
type Response struct {
	// Text is the answer's text: the text blocks joined by a newline, as the agent reads it.
	// Thinking and tool calls are not part of it.
	Text string `json:"text"`
	// Model is the model that answered, as the provider names it (it may be more exact
	// than the name asked for).
	Model string `json:"model,omitempty"`
	// StopReason is the provider's own word (end_turn, max_tokens, stop, length, ...).
	StopReason string `json:"stop_reason,omitempty"`
	// Truncated reports an answer cut at the token limit.
	Truncated bool `json:"truncated,omitempty"`
	// Usage counts tokens under the provider's names (input_tokens, completion_tokens, ...).
	Usage map[string]int `json:"usage,omitempty"`
	// Thinking counts thinking or reasoning blocks left out of Text; ToolCalls counts tool
	// calls the model made although the instruction forbids them.
	Thinking  int `json:"thinking,omitempty"`
	ToolCalls int `json:"tool_calls,omitempty"`
	// Redacted counts the secrets removed from Text before it was kept.
	Redacted int `json:"redacted,omitempty"`
	// Date is the day the answer was received (YYYY-MM-DD, UTC).
	Date string `json:"date"`
}

// Provider sends requests to one API.
type Provider interface {
	// Send makes one call, with no retry (Retry.Do adds them).
	Send(ctx context.Context, req *Request) (*Response, error)
	// Submit sends requests as one batch and returns its id.
	Submit(ctx context.Context, items []BatchItem) (string, error)
	// Collect returns a batch's state, with its results once it has ended.
	Collect(ctx context.Context, id string) (*BatchResults, error)
}

// BatchItem is one request of a batch, named by an id unique within it.
type BatchItem struct {
	CustomID string
	Request  *Request
}

// BatchResults is the state of a batch and, once Done, a result per custom id.
type BatchResults struct {
	Status string
	Done   bool
	// Results maps a custom id to its answer; Errors to why it has none.
	Results map[string]*Response
	Errors  map[string]string
}

// Config says how to reach a provider.
type Config struct {
	// Provider is Anthropic or OpenAI.
	Provider string
	// BaseURL is empty for the provider's own API; for a local OpenAI-compatible server it
	// ends in /v1 (Ollama: http://localhost:11434/v1).
	BaseURL string
	// APIKey may be empty for local servers. It is sent only where SendsKey says.
	APIKey string
	// SendKeyToBaseURL sends APIKey to a BaseURL that is not the provider's own host.
	SendKeyToBaseURL bool
	// MaxResponseBytes bounds each response body; 0 means DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// Timeout bounds one Send; 0 means an hour.
	Timeout time.Duration
	// HTTPClient is used instead of the default one when set.
	HTTPClient *http.Client
	// heldKey is the key even when it is not sent, so that an error that echoes it is
	// still cleaned.
	heldKey string
}

// New returns the provider cfg names.
func New(cfg Config) (Provider, error) {
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		switch {
		case err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
			return nil, fmt.Errorf("base URL %s: want http:// or https:// and a host", EndpointText(cfg.BaseURL))
		case u.User != nil:
			return nil, fmt.Errorf("base URL %s holds credentials: pass the key in the environment instead", urlText(u))
		}
	}
	cfg.heldKey = cfg.APIKey
	if cfg.APIKey != "" {
		send, err := SendsKey(cfg.Provider, cfg.BaseURL, cfg.SendKeyToBaseURL)
		if err != nil {
			return nil, err
		}
		if !send {
			cfg.APIKey = ""
		}
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Hour
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	client := http.DefaultClient
	if cfg.HTTPClient != nil {
		client = cfg.HTTPClient
	}
	own := *client
	own.CheckRedirect = sameOrigin
	cfg.HTTPClient = &own
	switch cfg.Provider {
	case Anthropic:
		return newAnthropic(cfg), nil
	case OpenAI:
		return newOpenAI(cfg), nil
	}
	return nil, fmt.Errorf("unknown provider %q (have %s, %s)", cfg.Provider, Anthropic, OpenAI)
}

// toolArguments returns a tool call's input as a JSON object: as it is when it is one,
// else wrapped as {"input": ...} (the corpus holds a shell command as plain text).
func toolArguments(input string) json.RawMessage {
	trimmed := strings.TrimSpace(input)
	if strings.HasPrefix(trimmed, "{") && json.Valid([]byte(trimmed)) {
		return json.RawMessage(trimmed)
	}
	data, _ := json.Marshal(map[string]string{"input": input})
	return data
}

// toolNames returns the names of the tools a conversation calls, in order of first use.
func toolNames(msgs []corpus.Message) []string {
	var names []string
	seen := map[string]bool{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if name := toolName(tc.Name); !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	return names
}

// toolName and toolID make a corpus name or id acceptable to both APIs
// (^[a-zA-Z0-9_-]{1,64}$).
func toolName(s string) string { return safeID(s, "tool") }
func toolID(s string) string   { return safeID(s, "call") }

func safeID(s, empty string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	if len(b) == 0 {
		return empty
	}
	return string(b)
}

// answeredCalls returns the ids of the tool calls that a tool message answers. Both APIs
// reject a tool call left without a result, so an unanswered one is sent as text.
func answeredCalls(msgs []corpus.Message) map[string]bool {
	ids := map[string]bool{}
	for _, m := range msgs {
		if m.Role == corpus.RoleTool {
			ids[m.ToolCallID] = true
		}
	}
	return ids
}

// callText and resultText render tool traffic as plain text, for Params.ToolsAsText.
func callText(tc corpus.ToolCall) string {
	return fmt.Sprintf("[tool call %s (%s)]\n%s", tc.Name, tc.ID, tc.Input)
}

func resultText(m corpus.Message) string {
	return fmt.Sprintf("[tool result for %s]\n%s", m.ToolCallID, m.Text)
}

// joinNonEmpty joins the non-empty parts with a blank line.
func joinNonEmpty(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}

// PromptTokens returns the input tokens the provider counted, and false when it did not
// say.
func (r *Response) PromptTokens() (int, bool) {
	if n, ok := r.Usage["prompt_tokens"]; ok {
		return n, true
	}
	n, ok := r.Usage["input_tokens"]
	return n + r.Usage["cache_read_input_tokens"] + r.Usage["cache_creation_input_tokens"], ok
}

// PromptCut reports whether the server counted under half the tokens the request holds
// (estimated at 4 bytes a token), which is what a server does that silently drops the
// start of a prompt longer than its context window (Ollama's default context is a few
// thousand tokens). It is false when the answer carries no usage.
func PromptCut(req *Request, resp *Response) bool {
	got, ok := resp.PromptTokens()
	return ok && got < req.EstimatedTokens()/2
}

// EstimatedTokens returns the request's size in tokens, estimated at 4 bytes a token.
func (r *Request) EstimatedTokens() int {
	size := len(r.Instruction)
	for _, m := range r.Messages {
		size += len(m.Text)
		for _, tc := range m.ToolCalls {
			size += len(tc.Name) + len(tc.Input)
		}
	}
	return size / 4
}
