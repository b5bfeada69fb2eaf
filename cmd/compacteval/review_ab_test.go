package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
)

func TestReviewAB(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{args: []string{"-base-file", "a.ts", "-head-file", "b.ts"}, want: false},
		{args: []string{"-base-file", "a.ts", "-provider", "openai"}, want: true},
		{args: []string{"--provider=anthropic"}, want: true},
		{args: []string{"-sessions", "x"}, want: true},
		{args: []string{"-base", "HEAD", "--", "-provider"}, want: false},
		{args: []string{"-base-file", "-provider.ts"}, want: false},
	}
	for _, tt := range tests {
		if got := reviewAB(tt.args); got != tt.want {
			t.Errorf("reviewAB(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestLoopback(t *testing.T) {
	for base, want := range map[string]bool{
		"http://localhost:11434/v1": true, "http://127.0.0.1:8080/v1": true, "http://[::1]:8000/v1": true,
		"https://api.openai.com/v1": false, "": false, "http://10.0.0.2:11434/v1": false,
	} {
		if got := loopback(base); got != want {
			t.Errorf("loopback(%q) = %v, want %v", base, got, want)
		}
	}
}

// TestSessionInputs reads a pi session with two compactions: one input each, the second
// sent with the first's summary leading its conversation, and scored against the
// conversation the reader gives.
func TestSessionInputs(t *testing.T) {
	var log strings.Builder
	ins, err := sessionInputs(filepath.Join(repoRoot, "eval", "testdata", "pi", "v2.jsonl"), 20000, &log)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 2 {
		t.Fatalf("sessionInputs() = %d inputs, want 2 (one per compaction)", len(ins))
	}
	second := ins[1]
	if second.Eval.PreviousSummary == "" {
		t.Fatalf("the second compaction has no previous summary")
	}
	sent, scored := second.Case.Conversation, second.Eval.Conversation
	if len(sent) != len(scored)+1 || sent[0].Role != corpus.RoleUser || !strings.Contains(sent[0].Text, second.Eval.PreviousSummary) {
		t.Errorf("the conversation sent has %d messages (first %q), want the %d scored after the previous summary", len(sent), sent[0].Text, len(scored))
	}
	if got, want := second.Case.KeptTail, len(scored)-second.Eval.Cut; got != want {
		t.Errorf("kept tail = %d, want %d (the messages from the cut)", got, want)
	}
	if !strings.HasPrefix(second.Case.ID, "eval/v2-compaction-2") {
		t.Errorf("id = %q, want eval/v2-compaction-2", second.Case.ID)
	}
}

func TestReviewABConfig(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, config, want string
	}{
		{name: "a misspelled key is named with its line", config: "version: 1\nreview:\n  min_detla: 0.1\n", want: "gate.yaml:3: unknown key min_detla"},
		{name: "a negative allowance is refused", config: "version: 1\nreview:\n  min_delta: -0.1\n", want: "review.min_delta, review.allowed_lost_summaries and review.max_summary_tokens must not be negative"},
		{name: "a negative length is refused", config: "version: 1\nreview:\n  max_summary_tokens: -1\n", want: "must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "gate.yaml")
			if err := os.WriteFile(path, []byte(tt.config), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr strings.Builder
			code := runReviewAB(context.Background(), []string{"-base-file", "a.ts", "-head-file", "b.ts", "-provider", "openai", "-model", "m",
				"-sessions", dir, "-config", path}, &stdout, &stderr)
			if code != exitError || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("runReviewAB() = %d, %q; want 2 and %q", code, stderr.String(), tt.want)
			}
		})
	}
	cfg, err := reviewConfig(writeFile(t, dir, "ok.yaml", "version: 1\nreview:\n  min_delta: 0.02\n  allowed_lost_summaries: 1\n  max_summary_tokens: 900\n"))
	if err != nil || cfg.Review.MinDelta != 0.02 || cfg.Review.AllowedLostSummaries != 1 || cfg.Review.MaxSummaryTokens != 900 {
		t.Errorf("reviewConfig() = %+v, %v; want min_delta 0.02, 1 allowed lost summary, 900 summary tokens", cfg.Review, err)
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestGivenName(t *testing.T) {
	abs := string(filepath.Separator) + filepath.Join("home", "dev", ".pi", "agent", "sessions")
	file := filepath.Join(abs, "--tool--", "2025.jsonl")
	tests := []struct {
		name, given, file, id, want string
	}{
		{name: "a relative folder is kept as given", given: "sessions", file: filepath.Join("sessions", "v2.jsonl"), id: filepath.Join("sessions", "v2.jsonl") + "#compaction-1", want: filepath.Join("sessions", "v2.jsonl") + "#compaction-1"},
		{name: "an absolute folder names its files from its last element", given: abs, file: file, id: file + "#compaction-2", want: "sessions/--tool--/2025.jsonl#compaction-2"},
		{name: "a source line keeps its line", given: abs, file: file, id: file + ":14", want: "sessions/--tool--/2025.jsonl:14"},
		{name: "an absolute file is its own name", given: file, file: file, id: file + "#compaction-1", want: "2025.jsonl#compaction-1"},
		{name: "an id that is not the file's is left alone", given: abs, file: file, id: "eval/case-1", want: "eval/case-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := givenName(tt.given, tt.file, tt.id); got != tt.want {
				t.Errorf("givenName(%q, %q, %q) = %q, want %q", tt.given, tt.file, tt.id, got, tt.want)
			}
		})
	}
}

// TestSendable checks that a tool message answering no call is sent as a user message,
// in its place, and that a tool result answering a call stays one.
func TestSendable(t *testing.T) {
	conv := []corpus.Message{
		{Role: corpus.RoleUser, Text: "why does make fail?"},
		{Role: corpus.RoleTool, Text: "$ make build\nundefined: loadConfig"},
		{Role: corpus.RoleAssistant, ToolCalls: []corpus.ToolCall{{ID: "c1", Name: "read"}}},
		{Role: corpus.RoleTool, ToolCallID: "c1", Text: "package main"},
		{Role: corpus.RoleTool, ToolCallID: "c9", Text: "a result whose call was compacted away"},
	}
	got := sendable(conv)
	var roles []string
	for _, m := range got {
		roles = append(roles, m.Role+":"+m.ToolCallID)
	}
	want := []string{"user:", "user:", "assistant:", "tool:c1", "user:"}
	if diff := cmp.Diff(want, roles); diff != "" {
		t.Errorf("sendable() roles mismatch (-want +got):\n%s", diff)
	}
	if conv[1].Role != corpus.RoleTool {
		t.Errorf("sendable() changed its argument")
	}
}

// TestABInputsEmpty checks that a compaction with nothing before it is left out with a
// note, and the session's other compactions are inputs.
func TestABInputsEmpty(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "s.jsonl", `{"type":"session","version":3,"id":"s","timestamp":"2025-01-04T08:00:00.000Z","cwd":"/x"}
{"type":"compaction","id":"c1","parentId":null,"timestamp":"2025-01-04T08:00:01.000Z","summary":"nothing yet","firstKeptEntryId":"m1","tokensBefore":0}
{"type":"message","id":"m1","parentId":"c1","timestamp":"2025-01-04T08:00:02.000Z","message":{"role":"user","content":"Fix the refund total in internal/billing/refund.go"}}
{"type":"message","id":"m2","parentId":"m1","timestamp":"2025-01-04T08:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"refund.go double counts partial refunds."}]}}
{"type":"message","id":"m3","parentId":"m2","timestamp":"2025-01-04T08:00:04.000Z","message":{"role":"user","content":"now add a test"}}
{"type":"compaction","id":"c2","parentId":"m3","timestamp":"2025-01-04T08:00:05.000Z","summary":"refund fixed","firstKeptEntryId":"m3","tokensBefore":100}
`)
	var log strings.Builder
	ins, err := abInputs([]string{path}, 20000, &log)
	if err != nil {
		t.Fatalf("abInputs() = %v\n%s", err, log.String())
	}
	if len(ins) != 1 || !strings.HasSuffix(ins[0].Eval.ID, "#compaction-2") {
		var ids []string
		for _, in := range ins {
			ids = append(ids, in.Eval.ID)
		}
		t.Errorf("abInputs() = %q, want the second compaction alone", ids)
	}
	if !strings.Contains(log.String(), "#compaction-1 has no conversation to summarize: not an input") {
		t.Errorf("abInputs() said %q, want the first compaction named as no input", log.String())
	}
}
