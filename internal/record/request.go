// Package record asks real models for compaction summaries and keeps their answers as
// corpus cases: it sends a case's conversation followed by the compaction instruction to
// an Anthropic or OpenAI-compatible endpoint (local servers such as Ollama, llama.cpp and
// vLLM included), replays answers from a cache keyed by everything that was sent, submits
// and collects provider batches, and writes each answer as a new case with origin
// recorded.
//
// The conversation is redacted (package redact) before it is sent, so that what a case
// stores is exactly what the model saw; the answer is redacted before it is cached or
// stored. API keys come from the caller, which reads them from the environment, and are
// never written anywhere.
package record

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/redact"
)

// Provider names: the API spoken, not who serves it. OpenAI covers every server with an
// OpenAI-compatible chat completions endpoint.
const (
	Anthropic = "anthropic"
	OpenAI    = "openai"
)

// Params are the sampling parameters of a request, recorded in origin.parameters.
type Params struct {
	// MaxTokens caps the answer; compact.MaxTokens is what the upstream agent sets.
	MaxTokens int `json:"max_tokens"`
	// Temperature is nil for the provider's default.
	Temperature *float64 `json:"temperature,omitempty"`
	// ToolsAsText renders tool calls and results as plain text and declares no tools, for
	// models and servers without tool support.
	ToolsAsText bool `json:"tools_as_text,omitempty"`
}

// MaxTemperature is the highest temperature a provider accepts (OpenAI's; Anthropic's is 1).
const MaxTemperature = 2

// Check returns an error for parameters no provider accepts: max_tokens below 1, a
// temperature that is not a finite number from 0 to MaxTemperature.
func (p Params) Check() error {
	if p.MaxTokens < 1 {
		return fmt.Errorf("max_tokens %d: want 1 or more", p.MaxTokens)
	}
	if t := p.Temperature; t != nil && (math.IsNaN(*t) || *t < 0 || *t > MaxTemperature) {
		return fmt.Errorf("temperature %v: want a number from 0 to %d", *t, MaxTemperature)
	}
	return nil
}

// Map returns the parameters as recorded in a case and hashed into a cache key. A
// temperature that is not finite (which Check refuses) is written as text, so that the
// key of any request can be computed.
func (p Params) Map() map[string]any {
	m := map[string]any{"max_tokens": p.MaxTokens}
	if t := p.Temperature; t != nil && (math.IsNaN(*t) || math.IsInf(*t, 0)) {
		m["temperature"] = fmt.Sprint(*t)
	} else if t != nil {
		m["temperature"] = *t
	}
	if p.ToolsAsText {
		m["tools"] = "as-text"
	}
	return m
}

// Request is one compaction call: a redacted conversation, the instruction appended to it
// as the final user message, and where it goes.
type Request struct {
	Provider string
	Model    string
	Params   Params
	// Messages is the conversation as sent (and as stored in the new case): redacted.
	Messages []corpus.Message
	// Instruction is compact.BuildInstruction's text, with the kept-tail note when the
	// case keeps a tail.
	Instruction string
	// Sample tells apart the K answers recorded for one input (1 to K); it changes the
	// cache key, not what is sent.
	Sample int
	// Redacted counts the secrets removed from the conversation.
	Redacted int
}

// NewRequest returns the request for sample n of case c. The conversation is redacted,
// including the literal values in secrets (such as the API key in use). It fails for a case
// without a conversation.
func NewRequest(c *corpus.Case, provider, model string, p Params, reason compact.Reason, sample int, secrets ...string) (*Request, error) {
	if len(c.Conversation) == 0 {
		return nil, fmt.Errorf("case %s has no conversation to send", c.ID)
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("case %s: %w", c.ID, err)
	}
	msgs, n := redactMessages(c.Conversation, secrets)
	return &Request{
		Provider:    provider,
		Model:       model,
		Params:      p,
		Messages:    msgs,
		Instruction: compact.BuildInstruction(keptTailOptions(c, msgs, reason)),
		Sample:      sample,
		Redacted:    n,
	}, nil
}

// keptTailOptions are the options of c's instruction: reason, and the kept-tail note when
// c keeps a tail, quoting the opening of its first kept message as sent (msgs, redacted).
func keptTailOptions(c *corpus.Case, msgs []corpus.Message, reason compact.Reason) compact.Options {
	opts := compact.Options{Reason: reason}
	if k := c.KeptTail; k > 0 && k < len(msgs) {
		opts.KeptTail = compact.KeptTail{Count: k, Opening: Opening(msgs[len(msgs)-k])}
	}
	return opts
}

// openingWords and openingBytes bound the landmark quoted in the kept-tail note.
const (
	openingWords = 10
	openingBytes = 80
)

// Opening returns the first words of a message, whitespace collapsed, as the kept-tail note
// quotes them: its text, or for a message that only calls tools, the first call.
func Opening(m corpus.Message) string {
	text := m.Text
	if strings.TrimSpace(text) == "" && len(m.ToolCalls) > 0 {
		text = m.ToolCalls[0].Name + " " + m.ToolCalls[0].Input
	}
	words := strings.Fields(text)
	if len(words) > openingWords {
		words = words[:openingWords]
	}
	s := strings.Join(words, " ")
	if len(s) > openingBytes {
		cut := openingBytes
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut-- // not inside a UTF-8 sequence
		}
		s = s[:cut]
	}
	return s
}

func redactMessages(in []corpus.Message, secrets []string) ([]corpus.Message, int) {
	total := 0
	clean := func(s string) string {
		s, n := redact.Literals(s, secrets...)
		s, m := redact.String(s)
		total += n + m
		return s
	}
	out := make([]corpus.Message, len(in))
	for i, m := range in {
		out[i] = corpus.Message{Role: m.Role, Text: clean(m.Text), ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			out[i].ToolCalls = append(out[i].ToolCalls, corpus.ToolCall{ID: tc.ID, Name: tc.Name, Input: clean(tc.Input)})
		}
	}
	return out, total
}

// keyDoc is what a cache key hashes. Field order is fixed and maps are written with sorted
// keys, so the same request always gives the same key; the messages have their own JSON
// shape so that a change to corpus.Message does not silently change every key.
type keyDoc struct {
	Provider    string         `json:"provider"`
	Model       string         `json:"model"`
	Parameters  map[string]any `json:"parameters"`
	Messages    []keyMessage   `json:"messages"`
	Instruction string         `json:"instruction"`
	Sample      int            `json:"sample"`
}

type keyMessage struct {
	Role       string        `json:"role"`
	Text       string        `json:"text,omitempty"`
	ToolCalls  []keyToolCall `json:"tool_calls,omitempty"`
	ToolCallID string        `json:"tool_call_id,omitempty"`
}

type keyToolCall struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Input string `json:"input"`
}

// Key returns the SHA-256 (hex) of the canonical JSON of the provider, model, parameters,
// messages, instruction and sample index: the replay cache's key. The endpoint is not part
// of it, so a cache recorded against one server replays anywhere.
func (r *Request) Key() string {
	doc := keyDoc{Provider: r.Provider, Model: r.Model, Parameters: r.Params.Map(), Instruction: r.Instruction, Sample: r.Sample}
	for _, m := range r.Messages {
		km := keyMessage{Role: m.Role, Text: m.Text, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			km.ToolCalls = append(km.ToolCalls, keyToolCall(tc))
		}
		doc.Messages = append(doc.Messages, km)
	}
	data, err := json.Marshal(doc)
	if err != nil {
		panic("record: marshal key: " + err.Error()) // only strings, ints and floats
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// InstructionSHA256 returns the SHA-256 (hex) of the instruction text, for
// origin.instruction_sha256.
func (r *Request) InstructionSHA256() string {
	sum := sha256.Sum256([]byte(r.Instruction))
	return hex.EncodeToString(sum[:])
}
