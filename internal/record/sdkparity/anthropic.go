package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/compacteval/compacteval/corpus"
)

// anthropicProvider speaks the Messages API and Message Batches.
//
// It holds the one service it calls, not an anthropic.Client: a package that names the
// Client compiles the generic pagers of every service the SDK has (3,300 functions).
// Holding whole clients of both SDKs cost this package 6,250 functions, 4.7 s of
// compiling, and the release binary 28 MB (docs/testing.md, "The SDK clients").
type anthropicProvider struct {
	messages anthropic.MessageService
	timeout  time.Duration
}

func newAnthropic(cfg Config) *anthropicProvider {
	// No environment defaults: the key and the base URL are exactly what the caller says,
	// never a profile file or ANTHROPIC_BASE_URL picked up on the side.
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithMaxRetries(0),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	// What anthropic.NewClient gives its services when environment defaults are off: the
	// production base URL, then the caller's options. (NewClient also marks where its
	// arguments begin and end; the SDK reads the marks only for bearer tokens, which this
	// provider never uses.)
	opts = append([]option.RequestOption{option.WithEnvironmentProduction()}, opts...)
	return &anthropicProvider{messages: anthropic.NewMessageService(opts...), timeout: cfg.Timeout}
}

func (p *anthropicProvider) Send(ctx context.Context, req *Request) (*Response, error) {
	// An explicit request timeout also lifts the SDK's refusal of non-streaming calls whose
	// max_tokens could take over ten minutes.
	msg, err := p.messages.New(ctx, anthropicParams(req), option.WithRequestTimeout(p.timeout))
	if err != nil {
		return nil, err
	}
	return anthropicResponse(msg), nil
}

func anthropicParams(req *Request) anthropic.MessageNewParams {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(req.Params.MaxTokens),
		Messages:  anthropicMessages(req),
	}
	if !req.Params.ToolsAsText {
		for _, name := range toolNames(req.Messages) {
			params.Tools = append(params.Tools, anthropic.ToolUnionParamOfTool(anthropic.ToolInputSchemaParam{}, name))
		}
	}
	if t := req.Params.Temperature; t != nil {
		// This SDK version has no temperature field; the API still takes it.
		params.SetExtraFields(map[string]any{"temperature": *t})
	}
	return params
}

// anthropicMessages maps the conversation: tool calls become tool_use blocks of the
// assistant turn, tool results tool_result blocks of the next user turn, consecutive
// messages of one role one turn, and the instruction the last text block of the last
// user turn, as the upstream agent appends it.
func anthropicMessages(req *Request) []anthropic.MessageParam {
	type turn struct {
		assistant bool
		blocks    []anthropic.ContentBlockParamUnion
	}
	var turns []turn
	add := func(assistant bool, blocks ...anthropic.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return
		}
		if n := len(turns); n > 0 && turns[n-1].assistant == assistant {
			turns[n-1].blocks = append(turns[n-1].blocks, blocks...)
			return
		}
		turns = append(turns, turn{assistant, blocks})
	}
	asText := req.Params.ToolsAsText
	answered := answeredCalls(req.Messages)
	for _, m := range req.Messages {
		switch m.Role {
		case corpus.RoleAssistant:
			text := m.Text
			var calls []anthropic.ContentBlockParamUnion
			for _, tc := range m.ToolCalls {
				if asText || !answered[tc.ID] {
					text = joinNonEmpty(text, callText(tc))
					continue
				}
				calls = append(calls, anthropic.NewToolUseBlock(toolID(tc.ID), toolArguments(tc.Input), toolName(tc.Name)))
			}
			if text != "" {
				add(true, anthropic.NewTextBlock(text))
			}
			add(true, calls...)
		case corpus.RoleTool:
			if asText {
				add(false, anthropic.NewTextBlock(resultText(m)))
				continue
			}
			result := anthropic.ToolResultBlockParam{ToolUseID: toolID(m.ToolCallID)}
			if m.Text != "" { // the API rejects an empty text block
				result.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: m.Text}}}
			}
			add(false, anthropic.ContentBlockParamUnion{OfToolResult: &result})
		default:
			if m.Text != "" {
				add(false, anthropic.NewTextBlock(m.Text))
			}
		}
	}
	add(false, anthropic.NewTextBlock(req.Instruction))
	out := make([]anthropic.MessageParam, len(turns))
	for i, t := range turns {
		if t.assistant {
			out[i] = anthropic.NewAssistantMessage(t.blocks...)
		} else {
			out[i] = anthropic.NewUserMessage(t.blocks...)
		}
	}
	return out
}

func anthropicResponse(msg *anthropic.Message) *Response {
	r := &Response{Model: string(msg.Model), StopReason: string(msg.StopReason)}
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
	r.Truncated = msg.StopReason == anthropic.StopReasonMaxTokens || msg.StopReason == anthropic.StopReasonModelContextWindowExceeded
	u := msg.Usage
	r.Usage = map[string]int{"input_tokens": int(u.InputTokens), "output_tokens": int(u.OutputTokens)}
	if u.CacheCreationInputTokens > 0 {
		r.Usage["cache_creation_input_tokens"] = int(u.CacheCreationInputTokens)
	}
	if u.CacheReadInputTokens > 0 {
		r.Usage["cache_read_input_tokens"] = int(u.CacheReadInputTokens)
	}
	return r
}

func (p *anthropicProvider) Submit(ctx context.Context, items []BatchItem) (string, error) {
	var reqs []anthropic.MessageBatchNewParamsRequest
	for _, it := range items {
		mp := anthropicParams(it.Request)
		bp := anthropic.MessageBatchNewParamsRequestParams{
			Model: mp.Model, MaxTokens: mp.MaxTokens, Messages: mp.Messages, Tools: mp.Tools,
		}
		bp.SetExtraFields(mp.ExtraFields())
		reqs = append(reqs, anthropic.MessageBatchNewParamsRequest{CustomID: it.CustomID, Params: bp})
	}
	batch, err := p.messages.Batches.New(ctx, anthropic.MessageBatchNewParams{Requests: reqs})
	if err != nil {
		return "", err
	}
	return batch.ID, nil
}

func (p *anthropicProvider) Collect(ctx context.Context, id string) (*BatchResults, error) {
	batch, err := p.messages.Batches.Get(ctx, id, anthropic.MessageBatchGetParams{})
	if err != nil {
		return nil, err
	}
	out := &BatchResults{Status: string(batch.ProcessingStatus), Done: batch.ProcessingStatus == anthropic.MessageBatchProcessingStatusEnded}
	if !out.Done {
		return out, nil
	}
	out.Results, out.Errors = map[string]*Response{}, map[string]string{}
	stream := p.messages.Batches.ResultsStreaming(ctx, id, anthropic.MessageBatchResultsParams{})
	defer stream.Close()
	for stream.Next() {
		item := stream.Current()
		switch res := item.Result; res.Type {
		case "succeeded":
			out.Results[item.CustomID] = anthropicResponse(&res.Message)
		case "errored":
			out.Errors[item.CustomID] = fmt.Sprintf("errored: %s: %s", res.Error.Error.Type, res.Error.Error.Message)
		default:
			out.Errors[item.CustomID] = res.Type // canceled, expired
		}
	}
	if err := stream.Err(); err != nil {
		return nil, fmt.Errorf("read results of batch %s: %w", id, err)
	}
	return out, nil
}
