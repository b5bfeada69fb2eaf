package record

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/compacteval/compacteval/corpus"
)

// anthropicBaseURL is Anthropic's own API.
const anthropicBaseURL = "https://api.anthropic.com/"

// anthropicVersion is the anthropic-version header: the API version the requests and
// answers below are written for (what anthropic-sdk-go v2.15.0 sent).
const anthropicVersion = "2026-10-21"

// anthropicProvider speaks the Messages API and Message Batches
// (https://docs.anthropic.com/en/api/messages, .../creating-message-batches).
//
// It reads no environment: the key and the base URL are exactly what the caller says,
// never ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL picked up on the side.
type anthropicProvider struct {
	c       *client
	timeout time.Duration
}

func newAnthropic(cfg Config) *anthropicProvider {
	h := http.Header{}
	h.Set("Anthropic-Version", anthropicVersion)
	if cfg.APIKey != "" {
		h.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	base := cfg.BaseURL
	if base == "" {
		base = anthropicBaseURL
	}
	return &anthropicProvider{c: newClient(Anthropic, base, h, cfg), timeout: cfg.Timeout}
}

// The request body. Fields are in the order the SDK wrote them, so that a body is the
// same bytes as before; Anthropic's SDK escaped <, > and & in strings.
type (
	anthropicRequest struct {
		MaxTokens   int                `json:"max_tokens"`
		Messages    []anthropicMessage `json:"messages"`
		Model       string             `json:"model"`
		Tools       []anthropicTool    `json:"tools,omitempty"`
		Temperature *float64           `json:"temperature,omitempty"`
	}
	anthropicMessage struct {
		// Content holds anthropicText, anthropicToolUse and anthropicToolResult blocks.
		Content []any  `json:"content"`
		Role    string `json:"role"`
	}
	anthropicText struct {
		Text string `json:"text"`
		Type string `json:"type"`
	}
	anthropicToolUse struct {
		ID    string          `json:"id"`
		Input json.RawMessage `json:"input"`
		Name  string          `json:"name"`
		Type  string          `json:"type"`
	}
	anthropicToolResult struct {
		ToolUseID string          `json:"tool_use_id"`
		Content   []anthropicText `json:"content,omitempty"`
		Type      string          `json:"type"`
	}
	// anthropicTool declares a tool by name only, as the SDK-based provider did (an empty
	// input schema, which the SDK left out).
	anthropicTool struct {
		Name string `json:"name"`
	}
)

func textBlock(s string) anthropicText { return anthropicText{Text: s, Type: "text"} }

func (p *anthropicProvider) Send(ctx context.Context, req *Request) (*Response, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	var msg anthropicAnswer
	if err := p.c.postJSON(ctx, "v1/messages", anthropicParams(req), true, &msg); err != nil {
		return nil, err
	}
	return msg.response(), nil
}

func anthropicParams(req *Request) anthropicRequest {
	params := anthropicRequest{
		Model:       req.Model,
		MaxTokens:   req.Params.MaxTokens,
		Messages:    anthropicMessages(req),
		Temperature: req.Params.Temperature,
	}
	if !req.Params.ToolsAsText {
		for _, name := range toolNames(req.Messages) {
			params.Tools = append(params.Tools, anthropicTool{Name: name})
		}
	}
	return params
}

// anthropicMessages maps the conversation: tool calls become tool_use blocks of the
// assistant turn, tool results tool_result blocks of the next user turn, consecutive
// messages of one role one turn, and the instruction the last text block of the last
// user turn, as the upstream agent appends it.
func anthropicMessages(req *Request) []anthropicMessage {
	var turns []anthropicMessage
	add := func(role string, blocks ...any) {
		if len(blocks) == 0 {
			return
		}
		if n := len(turns); n > 0 && turns[n-1].Role == role {
			turns[n-1].Content = append(turns[n-1].Content, blocks...)
			return
		}
		turns = append(turns, anthropicMessage{Content: blocks, Role: role})
	}
	asText := req.Params.ToolsAsText
	answered := answeredCalls(req.Messages)
	for _, m := range req.Messages {
		switch m.Role {
		case corpus.RoleAssistant:
			text := m.Text
			var calls []any
			for _, tc := range m.ToolCalls {
				if asText || !answered[tc.ID] {
					text = joinNonEmpty(text, callText(tc))
					continue
				}
				calls = append(calls, anthropicToolUse{ID: toolID(tc.ID), Input: toolArguments(tc.Input), Name: toolName(tc.Name), Type: "tool_use"})
			}
			if text != "" {
				add("assistant", textBlock(text))
			}
			add("assistant", calls...)
		case corpus.RoleTool:
			if asText {
				add("user", textBlock(resultText(m)))
				continue
			}
			result := anthropicToolResult{ToolUseID: toolID(m.ToolCallID), Type: "tool_result"}
			if m.Text != "" { // the API rejects an empty text block
				result.Content = []anthropicText{textBlock(m.Text)}
			}
			add("user", result)
		default:
			if m.Text != "" {
				add("user", textBlock(m.Text))
			}
		}
	}
	add("user", textBlock(req.Instruction))
	return turns
}

// anthropicAnswer is the part of a Message that a Response keeps.
type anthropicAnswer struct {
	Model      string `json:"model"`
	StopReason string `json:"stop_reason"`
	Content    []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Usage struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

func (msg *anthropicAnswer) response() *Response {
	r := &Response{Model: msg.Model, StopReason: msg.StopReason}
	var texts []string
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "thinking", "redacted_thinking":
			r.Thinking++
		case "tool_use", "server_tool_use":
			r.ToolCalls++
		}
	}
	r.Text = strings.Join(texts, "\n")
	r.Truncated = msg.StopReason == "max_tokens" || msg.StopReason == "model_context_window_exceeded"
	u := msg.Usage
	r.Usage = map[string]int{"input_tokens": u.InputTokens, "output_tokens": u.OutputTokens}
	if u.CacheCreationInputTokens > 0 {
		r.Usage["cache_creation_input_tokens"] = u.CacheCreationInputTokens
	}
	if u.CacheReadInputTokens > 0 {
		r.Usage["cache_read_input_tokens"] = u.CacheReadInputTokens
	}
	return r
}

type anthropicBatchRequest struct {
	CustomID string           `json:"custom_id"`
	Params   anthropicRequest `json:"params"`
}

// anthropicBatch is the part of a Message Batch that Submit and Collect read.
type anthropicBatch struct {
	ID               string `json:"id"`
	ProcessingStatus string `json:"processing_status"`
}

func (p *anthropicProvider) Submit(ctx context.Context, items []BatchItem) (string, error) {
	var body struct {
		Requests []anthropicBatchRequest `json:"requests"`
	}
	for _, it := range items {
		body.Requests = append(body.Requests, anthropicBatchRequest{CustomID: it.CustomID, Params: anthropicParams(it.Request)})
	}
	var batch anthropicBatch
	if err := p.c.postJSON(ctx, "v1/messages/batches", body, true, &batch); err != nil {
		return "", err
	}
	return batch.ID, nil
}

// anthropicResult is one line of a batch's results.
type anthropicResult struct {
	CustomID string `json:"custom_id"`
	Result   struct {
		Type    string          `json:"type"`
		Message anthropicAnswer `json:"message"`
		Error   struct {
			Error struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"error"`
	} `json:"result"`
}

func (p *anthropicProvider) Collect(ctx context.Context, id string) (*BatchResults, error) {
	path := "v1/messages/batches/" + url.PathEscape(id)
	var batch anthropicBatch
	if err := p.c.getJSON(ctx, path, &batch); err != nil {
		return nil, err
	}
	out := &BatchResults{Status: batch.ProcessingStatus, Done: batch.ProcessingStatus == "ended"}
	if !out.Done {
		return out, nil
	}
	out.Results, out.Errors = map[string]*Response{}, map[string]string{}
	res, err := p.c.do(ctx, http.MethodGet, path+"/results", nil, "", "application/x-jsonl")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	dec := json.NewDecoder(res.Body)
	for {
		var item anthropicResult
		err := dec.Decode(&item)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read results of batch %s: %w", id, err)
		}
		switch res := item.Result; res.Type {
		case "succeeded":
			out.Results[item.CustomID] = res.Message.response()
		case "errored":
			out.Errors[item.CustomID] = fmt.Sprintf("errored: %s: %s", res.Error.Error.Type, res.Error.Error.Message)
		default:
			out.Errors[item.CustomID] = res.Type // canceled, expired
		}
	}
	return out, nil
}
