package main

// What anthropic.go and openai.go (record's providers as they were written against the
// SDKs, kept here as the reference) need from package record: its types, and copies of the
// small unexported helpers they called, as they stood when the providers moved off the SDKs.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/record"
)

type (
	Request      = record.Request
	Response     = record.Response
	BatchItem    = record.BatchItem
	BatchResults = record.BatchResults
	Params       = record.Params
)

const (
	Anthropic = record.Anthropic
	OpenAI    = record.OpenAI
)

// Config is the part of record.Config the reference providers read.
type Config struct {
	BaseURL    string
	APIKey     string
	Timeout    time.Duration
	HTTPClient *http.Client
}

func toolArguments(input string) json.RawMessage {
	trimmed := strings.TrimSpace(input)
	if strings.HasPrefix(trimmed, "{") && json.Valid([]byte(trimmed)) {
		return json.RawMessage(trimmed)
	}
	data, _ := json.Marshal(map[string]string{"input": input})
	return data
}

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

func answeredCalls(msgs []corpus.Message) map[string]bool {
	ids := map[string]bool{}
	for _, m := range msgs {
		if m.Role == corpus.RoleTool {
			ids[m.ToolCallID] = true
		}
	}
	return ids
}

func callText(tc corpus.ToolCall) string {
	return fmt.Sprintf("[tool call %s (%s)]\n%s", tc.Name, tc.ID, tc.Input)
}

func resultText(m corpus.Message) string {
	return fmt.Sprintf("[tool result for %s]\n%s", m.ToolCallID, m.Text)
}

func joinNonEmpty(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}

func errorBody(body []byte) (typ, msg string) {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal(body, &v) != nil {
		return "", clipText(string(bytes.TrimSpace(body)), 300)
	}
	var inner struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	var plain string
	switch {
	case json.Unmarshal(v.Error, &inner) == nil && (inner.Message != "" || inner.Type != ""):
		return inner.Type, inner.Message
	case json.Unmarshal(v.Error, &plain) == nil && plain != "":
		return "", plain
	case v.Message != "":
		if v.Type == "error" {
			v.Type = "" // Anthropic's envelope type, not the error's
		}
		return v.Type, v.Message
	case v.Detail != nil:
		return "", clipText(fmt.Sprint(v.Detail), 300)
	}
	return "", clipText(string(bytes.TrimSpace(body)), 300)
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}
