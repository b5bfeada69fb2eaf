package eval

import (
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
)

// keysOf returns the keys of the facts of kind in msgs, sorted.
func keysOf(kind string, msgs ...corpus.Message) []string {
	out := []string{}
	for _, f := range Facts(msgs, nil) {
		if f.Kind == kind {
			out = append(out, f.key)
		}
	}
	return sortedCopy(out)
}

func TestQuantityFacts(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  corpus.Message
		want []string
	}{
		{name: "counts with their noun, separators and percentages",
			msg:  corpus.Message{Role: "assistant", Text: "Exported 4,096 rows from 12 files; 3 failing tests remain and coverage is 42%."},
			want: []string{"12 file", "3 test", "4096 rows", "42%"}},
		{name: "a filler between the number and its noun, a percent written out, a size unit",
			msg:  corpus.Message{Role: "user", Text: "There are 7 more migrations, 85 percent done, the dump is 1.5 GB and the log 300MB"},
			want: []string{"1.5 gb", "300 mb", "7 migration", "85%"}},
		{name: "a status line of a polled job",
			msg:  corpus.Message{Role: "assistant", Text: "180 items done, ~52,000 records so far. Continuing..."},
			want: []string{"180 item", "52000 record"}},
		{name: "not line numbers, ranks, versions, dates, times or durations",
			msg: corpus.Message{Role: "assistant", Text: "See line 42 of main.go:123 at 10:11:12 on 2024-05-06 (May 6 2024, in 2024 we said). " +
				"Step 3 runs Go 1.22 toolchain on Node 20 runtime, v2 API, 1.2.3 release; it took 200ms and 5 minutes; exit code 1 now."}},
		{name: "not numbers that count nothing, nor ones ending a clause or in a list",
			msg: corpus.Message{Role: "assistant", Text: "There are 2 ways and 3 things to try, 1 of them odd.\n1. First\n2) Second\nWe got 12, then 1,2,3 and #4 and 10-20 more."}},
		{name: "not in a code fence",
			msg:  corpus.Message{Role: "assistant", Text: "```go\nfor i := 0; i < 10 items; i++ {}\n```"},
			want: nil},
		{name: "not in tool output",
			msg:  corpus.Message{Role: "tool", Text: "Processed 4,096 rows in 12 files"},
			want: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(sortedCopy(want), keysOf(KindQuantity, tc.msg)); diff != "" {
				t.Errorf("quantities of %q mismatch (-want +got):\n%s", tc.msg.Text, diff)
			}
		})
	}
}

func TestStateFacts(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  corpus.Message
		want []string
	}{
		{name: "a job, a pull request, tests and a build with their state",
			msg:  corpus.Message{Role: "assistant", Text: "The export job b2f8b9 is still running. PR #482 merged; the integration tests failed and the build is passing."},
			want: []string{"#482 merged", "b2f8b9 running", "build passed", "test failed"}},
		{name: "waiting for what",
			msg:  corpus.Message{Role: "assistant", Text: "Deploy is waiting for the approval from ops."},
			want: []string{"approval waiting"}},
		{name: "not without a subject, negated, after a pronoun or across a clause",
			msg: corpus.Message{Role: "assistant", Text: "Running the suite now. It failed. Tests are not passing. Fixed the parser, failed once. 3 failed."}},
		{name: "not in a code fence or in tool output",
			msg: corpus.Message{Role: "assistant", Text: "```\njob running\n```"}},
		{name: "not from tool output",
			msg: corpus.Message{Role: "tool", Text: "job b2f8b9 running"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(sortedCopy(want), keysOf(KindState, tc.msg)); diff != "" {
				t.Errorf("states of %q mismatch (-want +got):\n%s", tc.msg.Text, diff)
			}
		})
	}
}

func TestToolCallFacts(t *testing.T) {
	call := func(name, input string) corpus.Message {
		return corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{Name: name, Input: input}}}
	}
	for _, tc := range []struct {
		name string
		msg  corpus.Message
		kind string
		want []string
	}{
		{name: "a web search and its query", msg: call("WebSearch", `{"query": "golang sqlite driver cgo free"}`),
			kind: KindToolCall, want: []string{"websearch golang sqlite driver free"}}, // content words have four letters or more
		{name: "a subagent and its task", msg: call("Task", `{"description": "Explore authentication flow", "prompt": "Read the code", "subagent_type": "Explore"}`),
			kind: KindToolCall, want: []string{"task explore authentication flow"}},
		{name: "a skill", msg: call("Skill", `{"skill": "release-notes"}`),
			kind: KindToolCall, want: []string{"skill release-notes"}},
		{name: "not a grep pattern, a read's offset or a to-do list",
			msg: corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{
				{Name: "Grep", Input: `{"pattern": "TODO|FIXME", "path": "src"}`},
				{Name: "Read", Input: `{"file_path": "a.go", "offset": 120, "limit": 40}`},
				{Name: "TodoWrite", Input: `{"todos": [{"content": "Write the tests", "status": "pending"}]}`},
			}},
			kind: KindToolCall},
		{name: "a pull request's number passed to a tool", msg: call("mcp__github__get_pull_request", `{"owner": "o", "repo": "r", "pullNumber": 482}`),
			kind: KindToolID, want: []string{"#482"}},
		{name: "not a count passed to a tool", msg: call("mcp__github__list_issues", `{"perPage": 30, "page": 2, "number": 3}`),
			kind: KindToolID},
		{name: "gh commands name the pull request and the run", msg: call("Bash", `{"command": "gh pr checks 482 && gh run watch 123456789 --exit-status"}`),
			kind: KindToolID, want: []string{"#482", "123456789"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(sortedCopy(want), keysOf(tc.kind, tc.msg)); diff != "" {
				t.Errorf("%s facts mismatch (-want +got):\n%s", tc.kind, diff)
			}
		})
	}
}

func TestToDoStatusChanges(t *testing.T) {
	todo := func(status string) corpus.Message {
		return corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{Name: "TodoWrite", Input: `{"todos": [{"content": "Write the export tests", "status": "` + status + `"}]}`}}}
	}
	var got [][]int
	for _, f := range Facts([]corpus.Message{todo("pending"), todo("pending"), todo("in_progress"), todo("in_progress"), todo("completed")}, nil) {
		if f.Kind == KindState {
			got = append(got, f.Messages())
		}
	}
	if diff := cmp.Diff([][]int{{0, 2, 4}}, got); diff != "" {
		t.Errorf("a to-do item occurs where its status changes, not where the list is sent again (-want +got):\n%s", diff)
	}
}

func TestNewKindsMatch(t *testing.T) {
	first := func(kind string, msg corpus.Message) Fact {
		t.Helper()
		for _, f := range Facts([]corpus.Message{msg}, nil) {
			if f.Kind == kind {
				return f
			}
		}
		t.Fatalf("no %s fact in %+v", kind, msg)
		return Fact{}
	}
	say := func(text string) corpus.Message { return corpus.Message{Role: "assistant", Text: text} }
	search := corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{Name: "WebSearch", Input: `{"query": "golang sqlite driver cgo free"}`}}}
	skill := corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{Name: "Skill", Input: `{"skill": "release-notes"}`}}}
	for _, tc := range []struct {
		name    string
		fact    Fact
		summary string
		want    bool
	}{
		{"a quantity, its noun later", first(KindQuantity, say("3 failing tests remain")), "Still 3 tests failing in CI.", true},
		{"a quantity with separators dropped", first(KindQuantity, say("Exported 4,096 rows")), "- 4096 rows exported", true},
		{"another number", first(KindQuantity, say("Exported 4,096 rows")), "- 4095 rows exported", false},
		{"the number without its noun", first(KindQuantity, say("3 failing tests remain")), "3 of the checks", false},
		{"a percentage written out", first(KindQuantity, say("coverage is 42%")), "coverage at 42 percent", true},
		{"noun and number on two lines", first(KindQuantity, say("Exported 4,096 rows")), "4096\nrows", false},
		{"a state, other words", first(KindState, say("The export job b2f8b9 is still running.")), "Job `b2f8b9` (export) running in the background", true},
		{"a state's subject, another state", first(KindState, say("The export job b2f8b9 is still running.")), "Job b2f8b9 finished.", false},
		{"a state, stem of the subject", first(KindState, say("the integration tests failed")), "Two test files are failing", true},
		{"a state, subject and state on two lines", first(KindState, say("PR #482 merged")), "PR #482\nmerged", false},
		{"a to-do item, half its words on a line", first(KindState, corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{Name: "TodoWrite", Input: `{"todos": [{"content": "Remove unused tool result schemas", "status": "completed"}]}`}}}),
			"- Removed the unused result schemas", true},
		{"a to-do item, its words on two lines", first(KindState, corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{Name: "TodoWrite", Input: `{"todos": [{"content": "Remove unused tool result schemas", "status": "completed"}]}`}}}),
			"- Removed the unused\n- result schemas", false},
		{"a search's query, half its words", first(KindToolCall, search), "Searched for a cgo-free sqlite driver", true},
		{"a search, too few words", first(KindToolCall, search), "Searched for a driver", false},
		{"a skill by name", first(KindToolCall, skill), "Ran the release-notes skill", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := newSummaryIndex(tc.summary).holds(&tc.fact); got != tc.want {
				t.Errorf("holds(%s %q, %q) = %v, want %v", tc.fact.Kind, tc.fact.key, tc.summary, got, tc.want)
			}
		})
	}
}
