package record

import (
	"context"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/record/recordtest"
)

func TestMeasure(t *testing.T) {
	s := newSetup(t, OpenAI, "m1", 4)
	s.rec.Parallel = 1
	// Two identical good answers, one that drops the tags (seed falls back to the whole
	// text, robust too) and one cut off with nothing in it.
	s.srv.Script("m1",
		recordtest.Reply{Text: wellFormed},
		recordtest.Reply{Text: wellFormed},
		recordtest.Reply{Text: "1. Primary Request and Intent:\n   Fix the export."},
		recordtest.Reply{Truncated: true})
	var cases []*corpus.Case
	for _, o := range s.rec.Run(context.Background(), s.jobs(t)) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		cases = append(cases, o.Case)
	}
	vs := Measure(cases, compact.Extractors())
	if len(vs) != 1 {
		t.Fatalf("Measure() = %d groups, want 1", len(vs))
	}
	v := vs[0]
	if v.Source != "eval/export-timeout" || v.Samples != 4 || v.DistinctResponses != 3 || v.Truncated != 1 || v.Empty != 1 || len(v.Models) != 1 {
		t.Errorf("Measure() = %+v", v)
	}
	if len(v.Extractors) != len(compact.Extractors()) || v.Extractors[0].Extractor != "seed" {
		t.Fatalf("Measure() extractors = %v, want every extractor, seed first", v.Extractors)
	}
	seed := v.Extractors[0]
	if seed.Distinct != 3 || seed.Found != 3 || seed.NotFound != 1 {
		t.Errorf("seed: %d distinct, %d found, %d not; want 3, 3, 1", seed.Distinct, seed.Found, seed.NotFound)
	}
	width, ok := seed.Coverage.Width()
	if !ok || width <= 0 || *seed.Coverage.Max > 1 || *seed.Coverage.Min < 0 {
		t.Errorf("seed coverage spread = %v..%v, want a positive width within [0, 1]", seed.Coverage.Min, seed.Coverage.Max)
	}
}

func TestMeasureStableAnswers(t *testing.T) {
	s := newSetup(t, Anthropic, "m1", 3)
	s.srv.Script("m1", recordtest.Reply{Text: wellFormed})
	var cases []*corpus.Case
	for _, o := range s.rec.Run(context.Background(), s.jobs(t)) {
		cases = append(cases, o.Case)
	}
	for _, ev := range Measure(cases, compact.Extractors())[0].Extractors {
		if w, ok := ev.Coverage.Width(); ev.Distinct != 1 || !ok || w != 0 {
			t.Errorf("%s on three equal answers: %d distinct, coverage width %v; want 1 and 0", ev.Extractor, ev.Distinct, w)
		}
	}
}

func TestCaseID(t *testing.T) {
	src := &corpus.Case{ID: "eval/export-timeout", Categories: []string{"eval"}}
	if got, want := CaseID(src, OpenAI, "qwen2.5:0.5b", 3), "eval/export-timeout-openai-qwen2-5-0-5b-3"; got != want {
		t.Errorf("CaseID() = %q, want %q", got, want)
	}
}
