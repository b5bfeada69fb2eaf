package eval

import (
	"math"
	"testing"

	"github.com/compacteval/compacteval/corpus"
)

func weightOf(t *testing.T, facts []Fact, kind, key string) float64 {
	t.Helper()
	for _, f := range facts {
		if f.Kind == kind && f.key == key {
			return f.Weight
		}
	}
	t.Fatalf("no %s fact %q", kind, key)
	return 0
}

func TestWeighBySession(t *testing.T) {
	msgs := []corpus.Message{
		{Role: "assistant", Text: "Working in cmd/main.go on `run_export`."},
		{Role: "assistant", Text: "Still in cmd/main.go."},
		{Role: "assistant", Text: "cmd/main.go calls `load_rows`."},
		{Role: "assistant", Text: "cmd/main.go again; the tail mentions `write_csv`."},
	}
	facts := Facts(msgs, nil)
	weigh(facts, 3, nil)
	// Messages 0, 1 and 2 hold facts before the cut.
	if got := weightOf(t, facts, KindPath, "cmd/main.go"); got != 1 {
		t.Errorf("weight of a fact every message before the cut says = %v, want 1", got)
	}
	if got, want := weightOf(t, facts, KindIdentifier, "load_rows"), round4(1+math.Log(3)); got != want {
		t.Errorf("weight of a fact said once of 3 = %v, want 1 + ln 3 = %v", got, want)
	}
	if got := weightOf(t, facts, KindIdentifier, "write_csv"); got != 0 {
		t.Errorf("weight of a fact of the kept tail alone = %v, want 0", got)
	}
}

func TestWeighAcrossSessions(t *testing.T) {
	session := func(file, name string) Input {
		return Input{ID: file, Source: file + ":1", Cut: 2, Conversation: []corpus.Message{
			{Role: "assistant", Text: "In the `alignment_hive` repository."},
			{Role: "assistant", Text: "Edited `" + name + "` in `alignment_hive`."},
		}}
	}
	ins := []Input{session("a.jsonl", "parse_rows"), session("a.jsonl", "parse_rows"), session("b.jsonl", "write_rows"), session("c.jsonl", "send_rows")}
	freq := NewSessionFrequency(ins, Options{})
	if freq.Sessions() != 3 {
		t.Fatalf("sessions = %d, want 3: two compactions of a.jsonl are one session", freq.Sessions())
	}
	p := prepare(ins[2], Options{Sessions: freq})
	if got := weightOf(t, p.facts, KindIdentifier, "alignment_hive"); got != round4(1+math.Log(2.0/2)) {
		t.Errorf("weight of the project-wide name = %v, want 1: every message and every session says it", got)
	}
	if got, want := weightOf(t, p.facts, KindIdentifier, "write_rows"), round4((1+math.Log(2.0/1))*(1+math.Log(3.0/1))); got != want {
		t.Errorf("weight of a name one session of three says once = %v, want (1 + ln 2)(1 + ln 3) = %v", got, want)
	}
	if got, want := weightOf(t, prepare(ins[2], Options{}).facts, KindIdentifier, "write_rows"), round4(1+math.Log(2.0)); got != want {
		t.Errorf("weight without Options.Sessions = %v, want 1 + ln 2 = %v", got, want)
	}
}
