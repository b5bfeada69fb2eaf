package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/compacteval/compacteval/corpus"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// openaiBaseURL is OpenAI's own API.
const openaiBaseURL = "https://api.openai.com/v1/"

// openaiProvider speaks chat completions and the Batch API, to OpenAI or to any
// compatible server.
//
// It holds the three services it calls, not an openai.Client, for the reason
// anthropicProvider gives.
type openaiProvider struct {
	chat    openai.ChatCompletionService
	files   openai.FileService
	batches openai.BatchService
	timeout time.Duration
	// official is true for api.openai.com, whose newer models take max_completion_tokens
	// and reject max_tokens; compatible servers all take max_tokens.
	official bool
}

func newOpenAI(cfg Config) *openaiProvider {
	opts := []option.RequestOption{
		// The key is always set, even empty, so that OPENAI_API_KEY is never sent to a
		// server the caller did not mean it for.
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(0),
	}
	// The base URL is always set, so that OPENAI_BASE_URL cannot send the calls elsewhere.
	base := cfg.BaseURL
	if base == "" {
		base = openaiBaseURL
	}
	opts = append(opts, option.WithBaseURL(base))
	u, _ := url.Parse(base)
	official := u.Hostname() == "api.openai.com"
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	// The options openai.NewClient hands each service: one layer of its defaults (the
	// environment's included, as before) and the caller's options, which a service
	// constructor makes and keeps in its Options.
	opts = openai.NewFileService(append(openai.DefaultClientOptions(), opts...)...).Options
	return &openaiProvider{
		chat:    openai.NewChatCompletionService(opts...),
		files:   openai.NewFileService(opts...),
		batches: openai.NewBatchService(opts...),
		timeout: cfg.Timeout, official: official,
	}
}

func (p *openaiProvider) Send(ctx context.Context, req *Request) (*Response, error) {
	cc, err := p.chat.New(ctx, p.params(req), option.WithRequestTimeout(p.timeout))
	if err != nil {
		return nil, err
	}
	return openaiResponse(cc)
}

func (p *openaiProvider) params(req *Request) openai.ChatCompletionNewParams {
	params := openai.ChatCompletionNewParams{
		Model:    shared.ChatModel(req.Model),
		Messages: openaiMessages(req),
	}
	if p.official {
		params.MaxCompletionTokens = openai.Int(int64(req.Params.MaxTokens))
	} else {
		params.MaxTokens = openai.Int(int64(req.Params.MaxTokens))
	}
	if t := req.Params.Temperature; t != nil {
		params.Temperature = openai.Float(*t)
	}
	if !req.Params.ToolsAsText {
		for _, name := range toolNames(req.Messages) {
			params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name:       name,
				Parameters: shared.FunctionParameters{"type": "object"},
			}))
		}
	}
	return params
}

// openaiMessages maps the conversation: assistant tool calls with their JSON arguments,
// tool results as role tool messages, and the instruction as the final user message.
func openaiMessages(req *Request) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	asText := req.Params.ToolsAsText
	answered := answeredCalls(req.Messages)
	for _, m := range req.Messages {
		switch m.Role {
		case corpus.RoleAssistant:
			am := openai.ChatCompletionAssistantMessageParam{}
			text := m.Text
			for _, tc := range m.ToolCalls {
				if asText || !answered[tc.ID] {
					text = joinNonEmpty(text, callText(tc))
					continue
				}
				am.ToolCalls = append(am.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID: toolID(tc.ID),
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
							Name: toolName(tc.Name), Arguments: string(toolArguments(tc.Input)),
						},
					},
				})
			}
			if text != "" {
				am.Content.OfString = openai.String(text)
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &am})
		case corpus.RoleTool:
			if asText {
				out = append(out, openai.UserMessage(resultText(m)))
			} else {
				out = append(out, openai.ToolMessage(m.Text, toolID(m.ToolCallID)))
			}
		default:
			out = append(out, openai.UserMessage(m.Text))
		}
	}
	return append(out, openai.UserMessage(req.Instruction))
}

// reasoningFields are where compatible servers put a reasoning model's thinking: vLLM and
// DeepSeek use reasoning_content, Ollama and OpenRouter reasoning.
var reasoningFields = []string{"reasoning_content", "reasoning"}

func openaiResponse(cc *openai.ChatCompletion) (*Response, error) {
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
	for _, name := range reasoningFields {
		if f, ok := choice.Message.JSON.ExtraFields[name]; ok {
			if raw := f.Raw(); raw != "" && raw != "null" && raw != `""` {
				r.Thinking++
			}
		}
	}
	u := cc.Usage
	r.Usage = map[string]int{"prompt_tokens": int(u.PromptTokens), "completion_tokens": int(u.CompletionTokens)}
	if n := u.CompletionTokensDetails.ReasoningTokens; n > 0 {
		r.Usage["reasoning_tokens"] = int(n)
	}
	return r, nil
}

// batchLine is one request of an OpenAI batch input file.
type batchLine struct {
	CustomID string                         `json:"custom_id"`
	Method   string                         `json:"method"`
	URL      string                         `json:"url"`
	Body     openai.ChatCompletionNewParams `json:"body"`
}

func (p *openaiProvider) Submit(ctx context.Context, items []BatchItem) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, it := range items {
		line := batchLine{CustomID: it.CustomID, Method: "POST", URL: "/v1/chat/completions", Body: p.params(it.Request)}
		if err := enc.Encode(line); err != nil {
			return "", fmt.Errorf("encode batch line %s: %w", it.CustomID, err)
		}
	}
	file, err := p.files.New(ctx, openai.FileNewParams{
		File:    openai.File(&buf, "compacteval-batch.jsonl", "application/jsonl"),
		Purpose: openai.FilePurposeBatch,
	})
	if err != nil {
		return "", fmt.Errorf("upload batch input: %w", err)
	}
	batch, err := p.batches.New(ctx, openai.BatchNewParams{
		InputFileID:      file.ID,
		Endpoint:         openai.BatchNewParamsEndpointV1ChatCompletions,
		CompletionWindow: openai.BatchNewParamsCompletionWindow24h,
	})
	if err != nil {
		return "", err
	}
	return batch.ID, nil
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
	batch, err := p.batches.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &BatchResults{Status: string(batch.Status)}
	switch batch.Status {
	case openai.BatchStatusCompleted, openai.BatchStatusExpired, openai.BatchStatusCancelled, openai.BatchStatusFailed:
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
	res, err := p.files.Content(ctx, fileID)
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
			var cc openai.ChatCompletion
			if err := cc.UnmarshalJSON(line.Response.Body); err != nil {
				return fmt.Errorf("file %s:%d: %w", fileID, n, err)
			}
			r, err := openaiResponse(&cc)
			if err != nil {
				out.Errors[line.CustomID] = err.Error()
				continue
			}
			out.Results[line.CustomID] = r
		}
	}
	return sc.Err()
}
