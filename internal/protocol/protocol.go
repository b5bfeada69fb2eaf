// Package protocol speaks the JSON-lines protocol of ../shared/reference/reference.mjs, as a
// server (compacteval pipe) and as a client of any process that speaks it.
//
// One request per line, one answer per line, in order, each answer naming the id of its
// request; docs/protocol.md describes the requests. A blank line gets no answer.
package protocol

import (
	"encoding/json"
	"fmt"
)

// Request is one request line. Pointer fields distinguish a missing field from a zero value.
type Request struct {
	// ID names the request; its answer carries the same id (Client numbers its requests).
	ID                 json.RawMessage `json:"id,omitempty"`
	Op                 string          `json:"op"`
	Text               *string         `json:"text,omitempty"`
	Profile            *string         `json:"profile,omitempty"`
	Reason             *string         `json:"reason,omitempty"`
	CustomInstructions *string         `json:"customInstructions,omitempty"`
	KeptTail           *KeptTail       `json:"keptTail,omitempty"`
	Count              *int            `json:"count,omitempty"`
	Opening            *string         `json:"opening,omitempty"`
	Summary            *string         `json:"summary,omitempty"`
	TranscriptPath     *string         `json:"transcriptPath,omitempty"`
}

// KeptTail is the keptTail object of an instruction request.
type KeptTail struct {
	Count   *int    `json:"count,omitempty"`
	Opening *string `json:"opening,omitempty"`
}

// Response is one answer line. Extract answers set Summary, with HasSummary telling a null
// summary (no summary found) from a missing field.
type Response struct {
	// ID is the id of the request it answers, as the request wrote it.
	ID          json.RawMessage `json:"-"`
	Summary     *string         `json:"-"`
	HasSummary  bool            `json:"-"`
	Text        *string         `json:"text,omitempty"`
	MaxTokens   *int            `json:"maxTokens,omitempty"`
	Instruction *string         `json:"instruction,omitempty"`
	Error       *string         `json:"error,omitempty"`
}

type responseJSON struct {
	ID          json.RawMessage `json:"id,omitempty"`
	Summary     json.RawMessage `json:"summary,omitempty"`
	Text        *string         `json:"text,omitempty"`
	MaxTokens   *int            `json:"maxTokens,omitempty"`
	Instruction *string         `json:"instruction,omitempty"`
	Error       *string         `json:"error,omitempty"`
}

// MarshalJSON writes "summary": null for an extract answer that found nothing.
func (r Response) MarshalJSON() ([]byte, error) {
	out := responseJSON{ID: r.ID, Text: r.Text, MaxTokens: r.MaxTokens, Instruction: r.Instruction, Error: r.Error}
	if r.HasSummary {
		raw, err := marshalString(r.Summary)
		if err != nil {
			return nil, err
		}
		out.Summary = raw
	}
	return marshalNoEscape(out)
}

// responseSummary is responseJSON with the summary a string: an answer that found a
// summary, most of a run's, decodes in one pass, and one whose summary is null or missing
// (which this cannot tell apart) as responseJSON.
type responseSummary struct {
	ID          json.RawMessage `json:"id,omitempty"`
	Summary     *string         `json:"summary,omitempty"`
	Text        *string         `json:"text,omitempty"`
	MaxTokens   *int            `json:"maxTokens,omitempty"`
	Instruction *string         `json:"instruction,omitempty"`
	Error       *string         `json:"error,omitempty"`
}

// decodeSummary decodes b into r when it is an answer with a string summary, and reports
// whether it did; otherwise (another answer, an error) it leaves r alone, and
// UnmarshalJSON says what is wrong.
func decodeSummary(b []byte, r *Response) bool {
	var in responseSummary
	if json.Unmarshal(b, &in) != nil || in.Summary == nil {
		return false
	}
	*r = Response{ID: in.ID, Summary: in.Summary, HasSummary: true, Text: in.Text, MaxTokens: in.MaxTokens, Instruction: in.Instruction, Error: in.Error}
	return true
}

// UnmarshalJSON reads an answer line.
func (r *Response) UnmarshalJSON(b []byte) error {
	if decodeSummary(b, r) {
		return nil
	}
	return decodeAny(b, r)
}

// decodeAny decodes any answer, the summary apart from the rest.
func decodeAny(b []byte, r *Response) error {
	var in responseJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*r = Response{ID: in.ID, Text: in.Text, MaxTokens: in.MaxTokens, Instruction: in.Instruction, Error: in.Error}
	if in.Summary != nil {
		r.HasSummary = true
		if string(in.Summary) != "null" {
			var s string
			if err := json.Unmarshal(in.Summary, &s); err != nil {
				return fmt.Errorf("summary: %w", err)
			}
			r.Summary = &s
		}
	}
	return nil
}

func marshalString(s *string) (json.RawMessage, error) {
	if s == nil {
		return json.RawMessage("null"), nil
	}
	return marshalNoEscape(*s)
}

// Str returns a pointer to s, for building requests.
func Str(s string) *string { return &s }

// Int returns a pointer to n, for building requests.
func Int(n int) *int { return &n }

// MarshalRequest returns the request as one protocol line, without the newline.
func MarshalRequest(req Request) ([]byte, error) { return marshalNoEscape(req) }
