package eval

import (
	"testing"

	"github.com/compacteval/compacteval/corpus"
)

func toolIDKeys(msgs []corpus.Message) []string {
	var out []string
	for _, f := range Facts(msgs, nil) {
		if f.Kind == KindToolID {
			out = append(out, f.key)
		}
	}
	return out
}

func TestToolIDFacts(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  corpus.Message
		want []string
	}{
		{name: "a background shell's id passed back to a tool",
			msg:  corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{Name: "BashOutput", Input: `{"bash_id": "b2f8b9"}`}}},
			want: []string{"b2f8b9"}},
		{name: "camelCase id arguments", msg: corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{Name: "KillShell", Input: `{"shellId": "shell_42"}`}}},
			want: []string{"shell_42"}},
		{name: "a commit hash in prose, keyed by its first 7 digits", msg: corpus.Message{Role: "assistant", Text: "Reverted 394f81fab87f71aa8938d91ff7a067c524ff344b and kept 5ba12fd."},
			want: []string{"394f81f", "5ba12fd"}},
		{name: "issue and pull request numbers", msg: corpus.Message{Role: "user", Text: "Fix the flaky test from #482 (see #12)."},
			want: []string{"#12", "#482"}},
		{name: "not a to-do list's index, not a name without a digit", msg: corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{Name: "TodoWrite", Input: `{"todos": [{"id": "1", "content": "x"}], "task_id": "export"}`}}}},
		{name: "not numbers in prose, line numbers, timestamps, words of hex letters or list ranks", msg: corpus.Message{Role: "assistant",
			Text: "Read 1234567 rows in 12 files; main.go:123 fails at 2024-05-06T10:11:12Z; deadbeef and facade are words; the #1 task; # Heading"}},
		{name: "not what tool output alone says", msg: corpus.Message{Role: "tool", Text: "Command running in background with ID: b2f8b9, commit 394f81fab"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := toolIDKeys([]corpus.Message{tc.msg})
			if len(got) != len(tc.want) {
				t.Fatalf("tool ids of %+v = %q, want %q", tc.msg, got, tc.want)
			}
			have := map[string]bool{}
			for _, k := range got {
				have[k] = true
			}
			for _, k := range tc.want {
				if !have[k] {
					t.Errorf("tool ids of %+v = %q, want %q", tc.msg, got, tc.want)
				}
			}
		})
	}
}

func TestToolIDMatch(t *testing.T) {
	for _, tc := range []struct {
		name, summary string
		fact          Fact
		want          bool
	}{
		{name: "the abbreviated hash holds the full one", summary: "Reverted `394f81fab87f`.", fact: Fact{Kind: KindToolID, key: "394f81f", prefix: true}, want: true},
		{name: "a hash inside another word does not", summary: "see x394f81fab", fact: Fact{Kind: KindToolID, key: "394f81f", prefix: true}},
		{name: "an issue number", summary: "Fixing #482 next.", fact: Fact{Kind: KindToolID, key: "#482"}, want: true},
		{name: "a longer issue number does not hold it", summary: "Fixing #4821 next.", fact: Fact{Kind: KindToolID, key: "#482"}},
		{name: "a job id", summary: "Job b2f8b9 is still running.", fact: Fact{Kind: KindToolID, key: "b2f8b9"}, want: true},
		{name: "a job id's prefix does not", summary: "Job b2f8b is still running.", fact: Fact{Kind: KindToolID, key: "b2f8b9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := newSummaryIndex(tc.summary).holds(&tc.fact); got != tc.want {
				t.Errorf("holds(%q, %q) = %v, want %v", tc.summary, tc.fact.key, got, tc.want)
			}
		})
	}
}
