package record

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/compacteval/compacteval/corpus"
)

// openaiBaseURL is OpenAI's own API.
const openaiBaseURL = "https://api.openai.com/v1/"

// openaiProvider speaks chat completions, Files and the Batch API
// (https://platform.openai.com/docs/api-reference/chat, .../files, .../batch), to OpenAI or
// to any compatible server.
type openaiProvider struct {
	c       *client
	timeout time.Duration
	// official is true for api.openai.com, whose newer models take max_completion_tokens
	// and reject max_tokens; compatible servers all take max_tokens.
	official bool
}

func newOpenAI(cfg Config) *openaiProvider {
	// The key and the base URL are only what the caller says, so that OPENAI_API_KEY is never
	// sent to a server the caller did not mean it for; the organization, project and custom
	// headers of the environment are sent, as the OpenAI SDK's client sent them.
	h := openaiEnvHeaders(os.LookupEnv)
	if cfg.APIKey != "" {
		h.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	base := cfg.BaseURL
	if base == "" {
		base = openaiBaseURL
	}
	u, _ := url.Parse(base)
	return &openaiProvider{c: newClient(OpenAI, base, h, cfg), timeout: cfg.Timeout, official: u.Hostname() == "api.openai.com"}
}

// openaiEnvHeaders returns the headers the OpenAI SDK's client took from the environment:
// OpenAI-Organization from OPENAI_ORG_ID, OpenAI-Project from OPENAI_PROJECT_ID, and one
// header per "Name: value" line of OPENAI_CUSTOM_HEADERS.
func openaiEnvHeaders(lookup func(string) (string, bool)) http.Header {
	h := http.Header{}
	if v, ok := lookup("OPENAI_ORG_ID"); ok {
		h.Set("OpenAI-Organization", v)
	}
	if v, ok := lookup("OPENAI_PROJECT_ID"); ok {
		h.Set("OpenAI-Project", v)
	}
	if v, ok := lookup("OPENAI_CUSTOM_HEADERS"); ok {
		for _, line := range strings.Split(v, "\n") {
			if name, value, ok := strings.Cut(line, ":"); ok {
				h.Set(strings.TrimSpace(name), strings.TrimSpace(value))
			}
		}
	}
	return h
}

// The request body. Fields are in the order the SDK wrote them, so that a body is the
// same bytes as before; OpenAI's SDK left <, > and & unescaped in strings.
type (
	openaiRequest struct {
		Messages            []openaiMessage `json:"messages"`
		Model               string          `json:"model"`
		MaxCompletionTokens *int            `json:"max_completion_tokens,omitempty"`
		MaxTokens           *int            `json:"max_tokens,omitempty"`
		Temperature         *float64        `json:"temperature,omitempty"`
		Tools               []openaiTool    `json:"tools,omitempty"`
	}
	// openaiMessage is a user, assistant or tool message; an assistant message that only
	// calls tools has no content.
	openaiMessage struct {
		Content    *string          `json:"content,omitempty"`
		ToolCalls  []openaiToolCall `json:"tool_calls,omitempty"`
		ToolCallID string           `json:"tool_call_id,omitempty"`
		Role       string           `json:"role"`
	}
	openaiToolCall struct {
		ID       string `json:"id"`
		Function struct {
			Arguments string `json:"arguments"`
			Name      string `json:"name"`
		} `json:"function"`
		Type string `json:"type"`
	}
	openaiTool struct {
		Function struct {
			Name       string            `json:"name"`
			Parameters map[string]string `json:"parameters"`
		} `json:"function"`
		Type string `json:"type"`
	}
)

func userMessage(text string) openaiMessage { return openaiMessage{Content: &text, Role: "user"} }

func (p *openaiProvider) Send(ctx context.Context, req *Request) (*Response, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	var cc openaiAnswer
	if err := p.c.postJSON(ctx, "chat/completions", p.params(req), false, &cc); err != nil {
		return nil, err
	}
	return cc.response()
}

func (p *openaiProvider) params(req *Request) openaiRequest {
	params := openaiRequest{Model: req.Model, Messages: openaiMessages(req), Temperature: req.Params.Temperature}
	n := req.Params.MaxTokens
	if p.official {
		params.MaxCompletionTokens = &n
	} else {
		params.MaxTokens = &n
	}
	if !req.Params.ToolsAsText {
		for _, name := range toolNames(req.Messages) {
			t := openaiTool{Type: "function"}
			t.Function.Name, t.Function.Parameters = name, map[string]string{"type": "object"}
			params.Tools = append(params.Tools, t)
		}
	}
	return params
}

// openaiMessages maps the conversation: assistant tool calls with their JSON arguments,
// tool results as role tool messages, and the instruction as the final user message.
func openaiMessages(req *Request) []openaiMessage {
	var out []openaiMessage
	asText := req.Params.ToolsAsText
	answered := answeredCalls(req.Messages)
	for _, m := range req.Messages {
		switch m.Role {
		case corpus.RoleAssistant:
			am := openaiMessage{Role: "assistant"}
			text := m.Text
			for _, tc := range m.ToolCalls {
				if asText || !answered[tc.ID] {
					text = joinNonEmpty(text, callText(tc))
					continue
				}
				call := openaiToolCall{ID: toolID(tc.ID), Type: "function"}
				call.Function.Name, call.Function.Arguments = toolName(tc.Name), string(toolArguments(tc.Input))
				am.ToolCalls = append(am.ToolCalls, call)
			}
			if text != "" {
				am.Content = &text
			}
			out = append(out, am)
		case corpus.RoleTool:
			if asText {
				out = append(out, userMessage(resultText(m)))
			} else {
				text := m.Text
				out = append(out, openaiMessage{Content: &text, ToolCallID: toolID(m.ToolCallID), Role: "tool"})
			}
		default:
			out = append(out, userMessage(m.Text))
		}
	}
	return append(out, userMessage(req.Instruction))
}

// reasoningFields are where compatible servers put a reasoning model's thinking: vLLM and
// DeepSeek use reasoning_content, Ollama and OpenRouter reasoning.
var reasoningFields = []string{"reasoning_content", "reasoning"}

// openaiAnswer is the part of a chat completion that a Response keeps.
type openaiAnswer struct {
	Model   string `json:"model"`
	Choices []struct {
		FinishReason string `json:"finish_reason"`
		Message      struct {
			Content   string            `json:"content"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
			// The reasoningFields.
			ReasoningContent json.RawMessage `json:"reasoning_content"`
			Reasoning        json.RawMessage `json:"reasoning"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens            int `json:"prompt_tokens"`
		CompletionTokens        int `json:"completion_tokens"`
		CompletionTokensDetails struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
}

func (cc *openaiAnswer) response() (*Response, error) {
	if len(cc.Choices) == 0 {
		return nil, fmt.Errorf("openai: the answer of %s has no choices", cc.Model)
	}
	choice := cc.Choices[0]
	r := &Response{
		Text:       choice.Message.Content,
		Model:      cc.Model,
		StopReason: choice.FinishReason,
		Truncated:  choice.FinishReason == "length",
		ToolCalls:  len(choice.Message.ToolCalls),
	}
	for _, raw := range []json.RawMessage{choice.Message.ReasoningContent, choice.Message.Reasoning} {
		if s := string(raw); s != "" && s != "null" && s != `""` {
			r.Thinking++
		}
	}
	u := cc.Usage
	r.Usage = map[string]int{"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens}
	if n := u.CompletionTokensDetails.ReasoningTokens; n > 0 {
		r.Usage["reasoning_tokens"] = n
	}
	return r, nil
}

// batchLine is one request of an OpenAI batch input file.
type batchLine struct {
	CustomID string        `json:"custom_id"`
	Method   string        `json:"method"`
	URL      string        `json:"url"`
	Body     openaiRequest `json:"body"`
}

func (p *openaiProvider) Submit(ctx context.Context, items []BatchItem) (string, error) {
	var lines bytes.Buffer
	enc := json.NewEncoder(&lines)
	for _, it := range items {
		line := batchLine{CustomID: it.CustomID, Method: "POST", URL: "/v1/chat/completions", Body: p.params(it.Request)}
		if err := enc.Encode(line); err != nil {
			return "", fmt.Errorf("encode batch line %s: %w", it.CustomID, err)
		}
	}
	body, contentType, err := batchUpload(lines.Bytes())
	if err != nil {
		return "", err
	}
	res, err := p.c.do(ctx, http.MethodPost, "files", body, contentType, "application/json")
	if err != nil {
		return "", fmt.Errorf("upload batch input: %w", err)
	}
	var file struct {
		ID string `json:"id"`
	}
	if err := p.c.decode(res, &file); err != nil {
		return "", fmt.Errorf("upload batch input: %w", err)
	}
	var batch openaiBatch
	err = p.c.postJSON(ctx, "batches", map[string]string{
		"completion_window": "24h", "endpoint": "/v1/chat/completions", "input_file_id": file.ID,
	}, false, &batch)
	if err != nil {
		return "", err
	}
	return batch.ID, nil
}

// batchUpload returns the multipart body that uploads lines as a batch input file, and
// its content type.
func batchUpload(lines []byte) ([]byte, string, error) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="compacteval-batch.jsonl"`)
	h.Set("Content-Type", "application/jsonl")
	part, err := w.CreatePart(h)
	if err == nil {
		_, err = part.Write(lines)
	}
	if err == nil {
		err = w.WriteField("purpose", "batch")
	}
	if err == nil {
		err = w.Close()
	}
	return body.Bytes(), w.FormDataContentType(), err
}

// openaiBatch is the part of a Batch that Submit and Collect read.
type openaiBatch struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	OutputFileID string `json:"output_file_id"`
	ErrorFileID  string `json:"error_file_id"`
}

// batchOutputLine is one line of an OpenAI batch output or error file.
type batchOutputLine struct {
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (p *openaiProvider) Collect(ctx context.Context, id string) (*BatchResults, error) {
	var batch openaiBatch
	if err := p.c.getJSON(ctx, "batches/"+url.PathEscape(id), &batch); err != nil {
		return nil, err
	}
	out := &BatchResults{Status: batch.Status}
	switch batch.Status {
	case "completed", "expired", "cancelled", "failed":
		out.Done = true
	default:
		return out, nil
	}
	out.Results, out.Errors = map[string]*Response{}, map[string]string{}
	for _, fileID := range []string{batch.OutputFileID, batch.ErrorFileID} {
		if fileID == "" {
			continue
		}
		if err := p.readOutput(ctx, fileID, out); err != nil {
			return nil, fmt.Errorf("read results of batch %s: %w", id, err)
		}
	}
	return out, nil
}

func (p *openaiProvider) readOutput(ctx context.Context, fileID string, out *BatchResults) error {
	res, err := p.c.do(ctx, http.MethodGet, "files/"+url.PathEscape(fileID)+"/content", nil, "", "application/binary")
	if err != nil {
		return err
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 64<<20) // one line holds a whole answer
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var line batchOutputLine
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return fmt.Errorf("file %s:%d: %w", fileID, n, err)
		}
		switch {
		case line.Error != nil:
			out.Errors[line.CustomID] = strings.TrimSpace(line.Error.Code + ": " + line.Error.Message)
		case line.Response == nil:
			out.Errors[line.CustomID] = "no response"
		case line.Response.StatusCode != 200:
			typ, msg := errorBody(line.Response.Body)
			out.Errors[line.CustomID] = fmt.Sprintf("%d %s %s", line.Response.StatusCode, typ, msg)
		default:
			var cc openaiAnswer
			if err := json.Unmarshal(line.Response.Body, &cc); err != nil {
				return fmt.Errorf("file %s:%d: %w", fileID, n, err)
			}
			r, err := cc.response()
			if err != nil {
				out.Errors[line.CustomID] = err.Error()
				continue
			}
			out.Results[line.CustomID] = r
		}
	}
	return sc.Err()
}
