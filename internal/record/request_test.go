package record

import (
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

func TestNewRequest(t *testing.T) {
	src := source(t)
	req, err := NewRequest(src, Anthropic, "claude-x", Params{MaxTokens: 100}, compact.ReasonThreshold, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := compact.BuildInstruction(compact.Options{
		Reason:   compact.ReasonThreshold,
		KeptTail: compact.KeptTail{Count: 2, Opening: "Run the tests please."},
	})
	if req.Instruction != want {
		t.Errorf("NewRequest().Instruction =\n%s\nwant the kept-tail instruction\n%s", req.Instruction, want)
	}
	if !strings.Contains(req.Instruction, `the final 2 messages, beginning with the message that opens "Run the tests please."`) {
		t.Errorf("NewRequest().Instruction lacks the kept-tail note with its landmark")
	}
	tool := req.Messages[2].Text
	if strings.Contains(tool, "Xk29dmQp7") || !strings.Contains(tool, "postgres://export:[REDACTED:url-password]@db.internal") {
		t.Errorf("NewRequest() tool result = %q, want the password redacted", tool)
	}
	if req.Redacted != 1 {
		t.Errorf("NewRequest().Redacted = %d, want 1", req.Redacted)
	}
	if strings.Contains(src.Conversation[2].Text, "[REDACTED") {
		t.Error("NewRequest() changed the source case's conversation")
	}
	if _, err := NewRequest(&corpus.Case{ID: "well-formed/x", Categories: []string{"well-formed"}}, Anthropic, "m", Params{}, compact.ReasonManual, 1); err == nil {
		t.Error("NewRequest(case without a conversation) = nil error, want one")
	}
}

func TestNewRequestWithoutKeptTail(t *testing.T) {
	src := *source(t)
	src.KeptTail = 0
	req, err := NewRequest(&src, OpenAI, "m", Params{MaxTokens: 1}, compact.ReasonManual, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := compact.BuildInstruction(compact.Options{Reason: compact.ReasonManual}); req.Instruction != want {
		t.Errorf("NewRequest(kept_tail 0).Instruction has a kept-tail note:\n%s", req.Instruction)
	}
}

func TestOpening(t *testing.T) {
	tests := []struct {
		name string
		msg  corpus.Message
		want string
	}{
		{name: "first ten words, whitespace collapsed", msg: corpus.Message{Text: "one  two\nthree four five six seven eight nine ten eleven"}, want: "one two three four five six seven eight nine ten"},
		{name: "a tool-only message opens with its call", msg: corpus.Message{ToolCalls: []corpus.ToolCall{{ID: "c", Name: "bash", Input: "go test ./..."}}}, want: "bash go test ./..."},
		{name: "long words are cut at 80 bytes on a rune boundary", msg: corpus.Message{Text: strings.Repeat("é", 50)}, want: strings.Repeat("é", 40)},
	}
	for _, tt := range tests {
		if got := Opening(tt.msg); got != tt.want {
			t.Errorf("%s: Opening(%q) = %q, want %q", tt.name, tt.msg.Text, got, tt.want)
		}
	}
}

func TestKey(t *testing.T) {
	src := source(t)
	base := func() *Request {
		r, err := NewRequest(src, Anthropic, "claude-x", Params{MaxTokens: 100}, compact.ReasonThreshold, 1)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	key := base().Key()
	if again := base().Key(); again != key {
		t.Fatalf("Key() differs between two equal requests: %s, %s", key, again)
	}
	temp := 0.0
	changes := []struct {
		name   string
		change func(r *Request)
	}{
		{"provider", func(r *Request) { r.Provider = OpenAI }},
		{"model", func(r *Request) { r.Model = "claude-y" }},
		{"max_tokens", func(r *Request) { r.Params.MaxTokens = 101 }},
		{"temperature 0 is not unset", func(r *Request) { r.Params.Temperature = &temp }},
		{"tools as text", func(r *Request) { r.Params.ToolsAsText = true }},
		{"a message", func(r *Request) { r.Messages[0].Text += "!" }},
		{"a tool call input", func(r *Request) { r.Messages[1].ToolCalls[0].Input += " " }},
		{"the instruction", func(r *Request) { r.Instruction += " " }},
		{"the sample", func(r *Request) { r.Sample = 2 }},
	}
	for _, c := range changes {
		r := base()
		c.change(r)
		if r.Key() == key {
			t.Errorf("changing the %s leaves Key() unchanged", c.name)
		}
	}
	r := base()
	r.Redacted = 7
	if r.Key() != key {
		t.Error("Key() depends on the redaction count, which is not sent")
	}
}
