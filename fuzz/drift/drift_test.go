package drift_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/google/go-cmp/cmp"
)

var loadPairs = sync.OnceValues(func() ([]*corpus.Case, error) {
	return corpus.Load("../../corpus/cases")
})

// corpusPairs returns the pairs of the bundled corpus.
func corpusPairs(tb testing.TB) []drift.Pair {
	tb.Helper()
	cases, err := loadPairs()
	if err != nil {
		tb.Fatalf("load corpus: %v", err)
	}
	pairs := drift.PairsFromCorpus(cases)
	if len(pairs) == 0 {
		tb.Fatal("no pair in the corpus")
	}
	return pairs
}

func TestPairsFromCorpus(t *testing.T) {
	cases, err := loadPairs()
	if err != nil {
		t.Fatal(err)
	}
	pairs := corpusPairs(t)
	split := map[string]bool{}
	for _, p := range pairs {
		split[p.ID] = true
	}
	var wellFormed, skipped []string
	for _, c := range cases {
		if c.HasCategory("well-formed") {
			wellFormed = append(wellFormed, c.ID)
			if !split[c.ID] {
				skipped = append(skipped, c.ID)
			}
		}
	}
	// A well-formed case may mention a tag in its analysis and so not be a clean pair, but
	// most must split, or the matrix measures little.
	if 4*len(pairs) < 3*len(wellFormed) {
		t.Errorf("PairsFromCorpus: %d pairs from %d well-formed cases; skipped %v", len(pairs), len(wellFormed), skipped)
	}
	for _, p := range pairs {
		if p.ID == "" || p.Analysis == "" || p.Summary == "" {
			t.Errorf("pair %q has an empty part", p.ID)
		}
	}
}

func TestSplitResponse(t *testing.T) {
	for _, tc := range []struct {
		in     string
		want   drift.Pair
		ok     bool
		reason string
	}{
		{"<analysis>\na\n</analysis>\n\n<summary>\ns\n</summary>\n", drift.Pair{Analysis: "a", Summary: "s"}, true, "the well-formed shape"},
		{"<analysis>\na\n</analysis>\n<summary>\n\n s \n\n</summary>", drift.Pair{Analysis: "a", Summary: "s"}, true, "blank lines around the body are trimmed"},
		{"Intro\n<analysis>\na\n</analysis>\n<summary>\ns\n</summary>", drift.Pair{}, false, "prose before"},
		{"<analysis>\na\n</analysis>\n<summary>\ns\n</summary>\nBye", drift.Pair{}, false, "prose after"},
		{"<analysis>\na\n</analysis>\n<summary>\n \n</summary>", drift.Pair{Analysis: "a"}, false, "an empty summary"},
		{"<analysis>\nuse <summary> tags\n</analysis>\n<summary>\ns\n</summary>", drift.Pair{Analysis: "use <summary> tags", Summary: "s"}, false, "a tag mention makes the pair unclean"},
		{"<analysis>\na\n</analysis>\n<summary>\ns\r\nt\n</summary>", drift.Pair{Analysis: "a", Summary: "s\r\nt"}, false, "CR belongs to the line-terminator operators"},
	} {
		got, ok := drift.SplitResponse(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("SplitResponse(%q) = %+v, %v; want %+v, %v (%s)", tc.in, got, ok, tc.want, tc.ok, tc.reason)
		}
	}
}

// TestIdentityRecovered checks that the unmutated rendering of every pair is well formed:
// the seed extractor recovers its intended summary exactly.
func TestIdentityRecovered(t *testing.T) {
	seed, _ := compact.Lookup("seed")
	for _, p := range corpusPairs(t) {
		s := drift.Mutate(p, 1, 0)
		if len(s.Ops) != 0 || s.Ambiguous || !s.Intended.Found || s.Intended.Summary != p.Summary {
			t.Errorf("%s: identity sample = ops %v, ambiguous %v, intended %.60q; want no ops and the pair's summary", p.ID, s.Ops, s.Ambiguous, s.Intended.Summary)
		}
		if o := drift.Judge(s, seed.Extract(s.Response)); o != (drift.Outcome{Exact: true}) {
			t.Errorf("%s: seed on the identity = %+v, want exact", p.ID, o)
		}
	}
}

func TestMutateDeterministic(t *testing.T) {
	pairs := corpusPairs(t)
	for i, p := range pairs {
		for k := range drift.MaxOps + 1 {
			seed := int64(i*10 + k)
			a, b := drift.Mutate(p, seed, k), drift.Mutate(p, seed, k)
			if diff := cmp.Diff(a, b); diff != "" {
				t.Fatalf("Mutate(%s, %d, %d) differs between calls (-first +second):\n%s", p.ID, seed, k, diff)
			}
		}
	}
	distinct := map[string]bool{}
	for seed := range int64(50) {
		distinct[drift.Mutate(pairs[0], seed, 2).Response] = true
	}
	if len(distinct) < 45 {
		t.Errorf("Mutate with 50 seeds gave %d distinct responses, want at least 45", len(distinct))
	}
}

func TestMutateChoosesOps(t *testing.T) {
	p := corpusPairs(t)[0]
	names := drift.OperatorNames()
	for _, tc := range []struct{ k, want int }{{-1, 0}, {0, 0}, {1, 1}, {3, 3}, {9, drift.MaxOps}} {
		for seed := range int64(20) {
			ops := drift.Mutate(p, seed, tc.k).Ops
			if len(ops) != tc.want {
				t.Errorf("Mutate(k=%d).Ops = %v, want %d operators", tc.k, ops, tc.want)
			}
			// The canonical order: each operator's index in Operators grows.
			idx := make([]int, len(ops))
			for i, op := range ops {
				idx[i] = slices.Index(names, op)
			}
			if !slices.IsSorted(idx) || slices.Contains(idx, -1) {
				t.Errorf("Mutate(k=%d).Ops = %v, not in the order of Operators", tc.k, ops)
			}
		}
	}
}

// TestSamplesIntended checks every single operator and many compositions on every corpus
// pair: the intended summary is trimmed, and when found it is in the response.
func TestSamplesIntended(t *testing.T) {
	ops := drift.Operators()
	check := func(s drift.Sample) {
		t.Helper()
		in := s.Intended
		if compact.TrimJS(in.Summary) != in.Summary {
			t.Errorf("ops %v: intended summary %.60q... is not trimmed", s.Ops, in.Summary)
		}
		if in.Found && !strings.Contains(s.Response, in.Summary) {
			t.Errorf("ops %v: intended summary %.60q... is not in the response", s.Ops, in.Summary)
		}
		if in.Found == (in.Summary == "") {
			t.Errorf("ops %v: intended found %v with summary %.60q", s.Ops, in.Found, in.Summary)
		}
	}
	ambiguous, total := 0, 0
	for i, p := range corpusPairs(t) {
		for j, op := range ops {
			check(drift.MutateWith(p, int64(i*100+j), op))
		}
		for seed := range int64(40) {
			s := drift.Mutate(p, int64(i*1000)+seed, 2+int(seed%2))
			check(s)
			total++
			if s.Ambiguous {
				ambiguous++
			}
		}
	}
	// Ambiguity is the exception: a judgement for most compositions is the point.
	if ambiguous*10 > total {
		t.Errorf("%d of %d composed samples are ambiguous, want under 10%%", ambiguous, total)
	}
}
