package pipeline

import (
	"bytes"
	"context"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
)

// TestRunLazyIsRunWhole holds a run on a corpus read a batch at a time (corpus.OpenLazy,
// batches of 7 cases) to a run on the same corpus held whole in one batch: the same
// report.json, byte for byte, with a drift matrix that reads fewer pairs than there are (so the pairs past
// drift.PairsRead keep only their ids), with a selection, and keeping every summary.
func TestRunLazyIsRunWhole(t *testing.T) {
	whole, err := corpus.Open([]string{corpusDir})
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := corpus.OpenLazy([]string{corpusDir})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { batch = n }(batch)
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"every stage", Options{DriftSeed: 1, DriftN: 1}},
		{"selection", Options{DriftSeed: 1, DriftN: 1, Select: &report.Selection{Categories: []string{"eval", "well-formed"}}}},
		{"summaries", Options{KeepSummaries: true, SkipEval: true}},
	} {
		var got [2][]byte
		for i, c := range []*corpus.Corpus{whole, lazy} {
			batch = []int{1 << 30, 7}[i]
			opt := tc.opt
			opt.Corpus, opt.Extractors = c, extractor.Builtins()
			r, err := Run(context.Background(), opt)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if got[i], err = report.Marshal(r); err != nil {
				t.Fatal(err)
			}
			if i == 0 && tc.opt.DriftN > 0 && len(r.Drift.Pairs) <= len(r.Drift.Operators)*tc.opt.DriftN {
				t.Fatalf("%s: %d pairs: the matrix reads them all, so the test holds nothing", tc.name, len(r.Drift.Pairs))
			}
		}
		if !bytes.Equal(got[0], got[1]) {
			t.Errorf("%s: the report of the lazy corpus differs (-whole +lazy):\n%s", tc.name, cmp.Diff(string(got[0]), string(got[1])))
		}
	}
}
