package drift_test

import (
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/google/go-cmp/cmp"
)

// go test -run='^$' -fuzz='^FuzzDrift$' -fuzztime=30s ./fuzz/drift
//
// FuzzDrift mutates any analysis and summary with any seed and up to three operators, and
// checks that the mutation is deterministic, that its intended summary is trimmed and in the
// response, that the response grows at most linearly with the pair, and that every extractor
// answers with a bounded summary.
func FuzzDrift(f *testing.F) {
	// Built natively for ClusterFuzzLite the target runs without the corpus folder: it then
	// starts from the fixed seeds below (TestPairsFromCorpus fails on a broken corpus).
	if cases, err := loadPairs(); err == nil {
		for i, p := range drift.PairsFromCorpus(cases) {
			f.Add(int64(i), uint8(i%(drift.MaxOps+1)), p.Analysis, p.Summary)
		}
	} else {
		f.Logf("no corpus seeds: %v", err)
	}
	f.Add(int64(-1), uint8(3), "", "x")
	f.Add(int64(7), uint8(2), "use <summary> tags\r\n", "\u0085body\ufeff</summ")
	f.Fuzz(func(t *testing.T, seed int64, k uint8, analysis, summary string) {
		if len(analysis)+len(summary) > 1<<18 {
			return // larger than any corpus pair; only slows the fuzzer down
		}
		p, clean := drift.NewPair(analysis, summary)
		ops := int(k) % (drift.MaxOps + 1)
		s := drift.Mutate(p, seed, ops)
		if again := drift.Mutate(p, seed, ops); !cmp.Equal(s, again) {
			t.Fatalf("Mutate(%+v, %d, %d) is not deterministic:\n%s", p, seed, ops, cmp.Diff(s, again))
		}
		in := s.Intended
		if compact.TrimJS(in.Summary) != in.Summary || in.Found == (in.Summary == "") {
			t.Fatalf("ops %v: intended %+v is not trimmed, or found disagrees with it", s.Ops, in)
		}
		if in.Found && !strings.Contains(s.Response, in.Summary) {
			t.Fatalf("ops %v: intended summary %q is not in the response %q", s.Ops, in.Summary, s.Response)
		}
		// Loops add at most twice a body plus 4 KB, a retry one summary, line terminators
		// triple the line ends, and the fixed texts (template, prose) stay under 8 KB.
		if limit := 16*(len(p.Analysis)+len(p.Summary)) + 32<<10; len(s.Response) > limit {
			t.Fatalf("ops %v: response of %d bytes from a pair of %d; want at most %d", s.Ops, len(s.Response), len(p.Analysis)+len(p.Summary), limit)
		}
		for _, ex := range compact.Extractors() {
			e := ex.Extract(s.Response)
			if len(e.Summary) > 2*len(s.Response)+64 {
				t.Fatalf("ops %v: %s returned %d bytes from a response of %d", s.Ops, ex.Name, len(e.Summary), len(s.Response))
			}
			if ex.Name == "seed" && clean && ops == 0 && drift.Judge(s, e) != (drift.Outcome{Exact: true}) {
				t.Fatalf("seed does not recover the unmutated clean pair %+v: got %+v", p, e)
			}
		}
	})
}
