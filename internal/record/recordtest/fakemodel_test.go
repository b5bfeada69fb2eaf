package recordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

const fakeInstruction = `Summarize.

Your summary should include the following sections:

1. Primary Request and Intent: the user's requests
8. Current Work: what was being worked on

<example>
<summary>
1. Primary Request and Intent:
2. Key Technical Concepts:
8. Current Work:
</summary>
</example>`

var fakeConversation = []fakeMsg{
	{Role: "user", Text: "Fix the flaky export in billing/export.py please"},
	{Role: "assistant", Text: "I will read it.\n$ pytest tests/test_export.py"},
	{Role: "tool", Text: "E   KeyError: 'tenant_id'\nFAILED tests/test_export.py::test_stream"},
	{Role: "assistant", Text: "The row builder reads tenant_id before the join; fixing _build_row."},
	{Role: "user", Text: "Now also add streamExport to the CLI"},
	{Role: "assistant", Text: "Adding streamExport in cli/main.py"},
}

func TestFakeFollowsTheInstruction(t *testing.T) {
	tests := []struct {
		name, instruction string
		// want must be in the answer, not must not.
		want, not []string
	}{
		{
			name:        "only the listed sections, not the example's",
			instruction: fakeInstruction,
			want:        []string{"1. Primary Request and Intent:\n   Fix the flaky export", "8. Current Work:\n"},
			not:         []string{"2. Key Technical Concepts"},
		},
		{
			name:        "without a tail note the last messages are told",
			instruction: fakeInstruction,
			want:        []string{"streamExport", "cli/main.py"},
		},
		{
			name:        "with a tail note the last two messages are not",
			instruction: "Only the earlier part: the final 2 messages stay in context verbatim after the summary. Do not summarize them.\n" + fakeInstruction,
			want:        []string{"_build_row", "I read 6 messages and summarize 4 of them."},
			not:         []string{"streamExport", "cli/main.py"},
		},
		{
			name:        "no headings: one free summary",
			instruction: "Summarize the conversation.",
			want:        []string{"Summary of the conversation:\n- the user asked: Fix the flaky export"},
			not:         []string{"1. "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &FakeModel{}
			got := f.summarize(fakeConversation, tt.instruction)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("the answer lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("the answer holds %q:\n%s", n, got)
				}
			}
			if !strings.HasPrefix(got, "<analysis>\n") || !strings.HasSuffix(got, "\n</summary>\n") {
				t.Errorf("an unbroken answer is not <analysis> then <summary>:\n%s", got)
			}
		})
	}
}

// TestFakeIsDeterministic checks that the same request gives the same answers in the
// same order, and that an instruction differing only in what the fake does not read gets
// the same answers.
func TestFakeIsDeterministic(t *testing.T) {
	a, b := &FakeModel{BreakRate: 0.5}, &FakeModel{BreakRate: 0.5}
	reworded := strings.Replace(fakeInstruction, "Summarize.", "Write a summary.", 1)
	for i := range 20 {
		x, y := a.summarize(fakeConversation, fakeInstruction), b.summarize(fakeConversation, reworded)
		if x != y {
			t.Fatalf("call %d: the answers to a reworded instruction differ:\n%s\n---\n%s", i, x, y)
		}
	}
}

// TestFakeBreaksTags counts broken answers over many calls: about BreakRate of them, of
// both kinds.
func TestFakeBreaksTags(t *testing.T) {
	f := &FakeModel{BreakRate: 0.25}
	inline, open, n := 0, 0, 400
	for range n {
		got := f.summarize(fakeConversation, fakeInstruction)
		switch {
		case strings.Contains(got, "<summary>1. "):
			inline++
		case !strings.Contains(got, "</summary>"):
			open++
		}
	}
	if broken := inline + open; broken < 70 || broken > 130 || inline == 0 || open == 0 {
		t.Errorf("%d of %d answers broken (%d inline, %d unclosed), want about 100 of both kinds", broken, n, inline, open)
	}
	if f.Calls() != n {
		t.Errorf("Calls() = %d, want %d", f.Calls(), n)
	}
}

// TestFakeServes checks the HTTP side: OpenAI's chat completions with tool calls, and
// Anthropic's messages with content blocks.
func TestFakeServes(t *testing.T) {
	f := &FakeModel{}
	srv := httptest.NewServer(f)
	defer srv.Close()
	for _, tc := range []struct {
		path, body, want string
	}{
		{
			path: "/v1/chat/completions",
			body: `{"model":"m","messages":[{"role":"user","content":"Fix cmd/run.go"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"go test ./cmd\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"},{"role":"user","content":"` + "8. Current Work: now" + `"}]}`,
			want: "ran go test ./cmd",
		},
		{
			path: "/v1/messages",
			body: `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"text","text":"Fix cmd/run.go"}]},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"bash","input":{"command":"go vet ./cmd"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},{"role":"user","content":"8. Current Work: now"}]}`,
			want: "ran go vet ./cmd",
		},
	} {
		res, err := http.Post(srv.URL+tc.path, "application/json", bytes.NewBufferString(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		text, _ := json.Marshal(body)
		if res.StatusCode != 200 || !strings.Contains(string(text), tc.want) {
			t.Errorf("POST %s = %d %s, want 200 and %q", tc.path, res.StatusCode, text, tc.want)
		}
	}
}

// TestMayBeError: every line fakeError matches passes mayBeError, its prefilter, on random
// lines of the pattern's words in every case, their pieces and other words.
func TestMayBeError(t *testing.T) {
	words := []string{"error", "Error", "ERROR", "errors", "fail", "FAIL", "Failed", "failure", "panic:", "PANIC:", "panic",
		"undefined:", "Undefined:", "undefined", "err", "or", "ok", "x", " ", ":", "\u0130", "\u212a", "_", "-"}
	rng := rand.New(rand.NewPCG(9, 10))
	matched := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteString(words[rng.IntN(len(words))])
		}
		l := b.String()
		if fakeError.MatchString(l) {
			matched++
			if !mayBeError(l) {
				t.Fatalf("mayBeError(%q) = false, but fakeError matches it", l)
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("fakeError matched %d of the lines: the test checks too little", matched)
	}
}

// items returns the item lines of an answer's summary (those shake may leave out).
func items(answer string) []string {
	_, body, _ := strings.Cut(answer, "<summary>\n")
	body, _, _ = strings.Cut(body, "</summary>")
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, " ") {
			out = append(out, l)
		}
	}
	return out
}

// TestFakeNoise checks that with Noise the samples of one request differ, each leaving out
// about Noise of the items, that the same seed gives the same answers and another seed
// others, and that a zero Noise gives the answers of a fake without it.
func TestFakeNoise(t *testing.T) {
	long := slices.Clone(fakeConversation)
	for i := range 20 {
		long = append(long, fakeMsg{Role: "user", Text: fmt.Sprintf("Now fix pkg/file%d.go", i)})
	}
	instruction := strings.Replace(fakeInstruction, "8. Current Work", "6. All user messages: every one\n8. Current Work", 1)
	full := items((&FakeModel{}).summarize(long, instruction))
	if len(full) < 10 {
		t.Fatalf("the answer without noise has %d items, want at least 10 to count on", len(full))
	}
	a, b := &FakeModel{Noise: 0.3, Seed: 1}, &FakeModel{Noise: 0.3, Seed: 1}
	other := &FakeModel{Noise: 0.3, Seed: 2}
	distinct := map[string]bool{}
	kept, n := 0, 200
	for i := range n {
		x, y, z := a.summarize(long, instruction), b.summarize(long, instruction), other.summarize(long, instruction)
		if x != y {
			t.Fatalf("sample %d: two fakes with seed 1 answer differently:\n%s\n---\n%s", i, x, y)
		}
		distinct[x] = true
		if x == z && i < 5 {
			t.Errorf("sample %d: seeds 1 and 2 give the same answer", i)
		}
		kept += len(items(x))
	}
	if len(distinct) < n/2 {
		t.Errorf("%d distinct answers in %d samples, want most to differ", len(distinct), n)
	}
	if share := 1 - float64(kept)/float64(n*len(full)); share < 0.25 || share > 0.35 {
		t.Errorf("the samples leave out %.2f of the items, want about 0.3", share)
	}
	plain, zero := &FakeModel{BreakRate: 0.3}, &FakeModel{BreakRate: 0.3, Noise: 0}
	for i := range 20 {
		if x, y := plain.summarize(long, instruction), zero.summarize(long, instruction); x != y {
			t.Fatalf("call %d: Noise 0 changes the answer:\n%s\n---\n%s", i, x, y)
		}
	}
}
