package eval

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
)

// factsAt returns facts that were last said before cut at the given messages.
func factsAt(msgs ...int) []Fact {
	var out []Fact
	for i, m := range msgs {
		out = append(out, Fact{Kind: KindIdentifier, Text: fmt.Sprintf("name%d", i), in: []int{m}})
	}
	return out
}

func TestGrowWindow(t *testing.T) {
	for _, tc := range []struct {
		name          string
		facts         []Fact
		cut, w        int
		want          int
		wantNotEnough bool
	}{
		{name: "the window already holds enough facts: it stays", facts: factsAt(9, 9, 8, 7), cut: 10, w: 3, want: 3},
		{name: "two facts in the last three messages: it grows back to the fourth fact", facts: factsAt(9, 8, 4, 2, 1), cut: 10, w: 3, want: 8},
		{name: "facts said in the window and again before count once, where last said", facts: []Fact{{in: []int{1, 9}}, {in: []int{2, 8}}, {in: []int{5}}, {in: []int{3}}}, cut: 10, w: 2, want: 7},
		{name: "occurrences in the kept tail do not count", facts: factsAt(12, 13, 9, 5, 4, 3), cut: 10, w: 3, want: 7},
		{name: "fewer facts than the minimum in all: every one of them, and not enough", facts: factsAt(9, 4, 2), cut: 10, w: 3, want: 8, wantNotEnough: true},
		{name: "no fact at all: the window as given, and not enough", facts: nil, cut: 10, w: 3, want: 3, wantNotEnough: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, notEnough := growWindow(tc.facts, tc.cut, tc.w)
			if got != tc.want || notEnough != tc.wantNotEnough {
				t.Errorf("growWindow(%d facts, cut %d, w %d) = %d, %v, want %d, %v", len(tc.facts), tc.cut, tc.w, got, notEnough, tc.want, tc.wantNotEnough)
			}
		})
	}
}

// statusInput is a session whose last messages before the cut poll a background job: the
// default window of 3 messages holds one fact.
func statusInput(summary string) Input {
	return Input{
		ID: "status",
		Conversation: []corpus.Message{
			/* 0 */ {Role: "user", Text: "Backfill the orders table with scripts/backfill_orders.py, then run go test ./billing."},
			/* 1 */ {Role: "assistant", Text: "Starting `backfillOrders` in the background.", ToolCalls: []corpus.ToolCall{{ID: "1", Name: "bash", Input: `{"command": "python scripts/backfill_orders.py --since 2024"}`}}},
			/* 2 */ {Role: "tool", ToolCallID: "1", Text: "started"},
			/* 3 */ {Role: "assistant", Text: "Still running."},
			/* 4 */ {Role: "assistant", Text: "Still running, polling `job_status` again."},
			/* 5 kept */ {Role: "assistant", Text: "Done."},
		},
		Cut:     5,
		Summary: &summary,
	}
}

func TestScoreGrowsASparseWindow(t *testing.T) {
	r := Score(statusInput("8. Current Work:\n   Polling `job_status` of the backfill."), Options{})
	// Message 4 holds job_status; messages 1 (backfillOrders, the command, the script's
	// path) bring the window to four facts.
	if r.WindowGrownFrom != 3 || r.Window != 4 {
		t.Errorf("Score(status session): window %d grown from %d, want 4 grown from 3", r.Window, r.WindowGrownFrom)
	}
	if r.NotEnoughToJudge || r.Score == nil {
		t.Errorf("Score(status session): not enough to judge %v, score %v; want a score", r.NotEnoughToJudge, r.Score)
	}
	if r.BoundaryCoverage.Of < MinWindowFacts {
		t.Errorf("Score(status session): boundary coverage counts %d facts, want at least %d", r.BoundaryCoverage.Of, MinWindowFacts)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"boundary_window":4,"boundary_window_grown_from":3`) {
		t.Errorf("Score(status session) JSON does not say the window grew: %s", b)
	}
}

func TestScoreNotEnoughToJudge(t *testing.T) {
	summary := "8. Current Work:\n   Nothing."
	in := Input{
		ID: "tiny",
		Conversation: []corpus.Message{
			{Role: "user", Text: "Fix scripts/deploy.sh please."},
			{Role: "assistant", Text: "Done."},
			{Role: "assistant", Text: "Anything else?"},
		},
		Cut:     3,
		Summary: &summary,
	}
	r := Score(in, Options{})
	if !r.NotEnoughToJudge || r.Score != nil {
		t.Fatalf("Score(2 facts) = not enough %v, score %v; want not enough to judge and a nil score", r.NotEnoughToJudge, r.Score)
	}
	tot := Total([]Result{r, Score(statusInput(summary), Options{})})
	if tot.NotEnoughToJudge != 1 || tot.Score.Cases != 1 || tot.Coverage.Cases != 1 || tot.BoundaryCoverage.Cases != 1 {
		t.Errorf("Total: not enough %d, score over %d cases, coverage over %d, boundary over %d; want 1, 1, 1, 1 (the case counted apart)",
			tot.NotEnoughToJudge, tot.Score.Cases, tot.Coverage.Cases, tot.BoundaryCoverage.Cases)
	}
	v := Validate([]Input{in}, Options{})
	if len(v.NotEnough) != 1 || len(v.Pairs) != 0 {
		t.Errorf("Validate(2 facts): not enough %v, %d pairs; want the case counted apart and no pair", v.NotEnough, len(v.Pairs))
	}
}
