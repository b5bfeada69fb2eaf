package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/casefile"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/render"
	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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

// TestRunStoredIsRunHeld holds a run whose cases and eval cases wait in files
// (Options.Store, Options.EvalStore) to the same run holding them in the report: the same
// report.json, report.md, report.html and JUnit, byte for byte, the same cases read back and
// the same eval totals.
func TestRunStoredIsRunHeld(t *testing.T) {
	c, err := corpus.OpenLazy([]string{corpusDir})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { batch = n }(batch)
	batch = 7
	var got [2][4][]byte
	var held *report.Report
	for i := range got {
		opt := Options{Corpus: c, Extractors: extractor.Builtins(), DriftSeed: 1, DriftN: 1}
		if i == 1 {
			storeCases(t, &opt)
		}
		r, err := Run(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			held = r
		} else {
			if r.Cases != nil || r.Stored == nil || r.NumCases() != len(held.Cases) {
				t.Fatalf("a stored run has %d cases in the report, Stored %v with %d, want none, set, %d", len(r.Cases), r.Stored != nil, r.NumCases(), len(held.Cases))
			}
			n := 0
			for k, err := range r.AllCases() {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(held.Cases[n], *k); diff != "" {
					t.Fatalf("case %d read back mismatch (-held +stored):\n%s", n, diff)
				}
				n++
			}
			if r.Eval.Cases != nil || r.StoredEval == nil || r.NumEvalCases() != len(held.Eval.Cases) || len(held.Eval.Cases) == 0 {
				t.Fatalf("a stored run has %d eval cases in the report, StoredEval %v with %d, want none, set, %d (not 0)", len(r.Eval.Cases), r.StoredEval != nil, r.NumEvalCases(), len(held.Eval.Cases))
			}
			if diff := cmp.Diff(held.Eval.Totals, r.Eval.Totals, cmpopts.IgnoreUnexported(eval.Aggregate{}, eval.Mean{})); diff != "" {
				t.Errorf("eval totals of the stored run mismatch (-held +stored):\n%s", diff)
			}
		}
		if got[i][0], err = report.Marshal(r); err != nil {
			t.Fatal(err)
		}
		if got[i][1], err = render.Markdown(r); err != nil {
			t.Fatal(err)
		}
		if got[i][2], err = render.HTML(r); err != nil {
			t.Fatal(err)
		}
		if got[i][3], err = render.JUnit(r); err != nil {
			t.Fatal(err)
		}
	}
	for j, name := range []string{"report.json", "report.md", "report.html", "JUnit"} {
		if !bytes.Equal(got[0][j], got[1][j]) {
			t.Errorf("%s of the stored run differs (-held +stored):\n%s", name, cmp.Diff(string(got[0][j]), string(got[1][j])))
		}
	}
}

// TestBatchEnd: a batch holds at most batch cases and batchBytes of their texts, but
// never fewer than one case, and the batches cover the entries in order.
func TestBatchEnd(t *testing.T) {
	defer func(n, b int) { batch, batchBytes = n, b }(batch, batchBytes)
	batch, batchBytes = 16, 1000
	var entries []corpus.Entry
	for i := range 100 {
		size := 10 // small cases: batch of them at a time
		switch {
		case i >= 30 && i < 60:
			size = 300 // three to a batch
		case i >= 60 && i < 62:
			size = 5000 // over batchBytes alone: one to a batch
		}
		entries = append(entries, corpus.Entry{ID: fmt.Sprint(i), Bytes: size})
	}
	var sizes []int
	for from, to := 0, 0; from < len(entries); from = to {
		to = batchEnd(entries, from)
		sizes = append(sizes, to-from)
	}
	// 30 small and 2 of 300 (740 bytes), nine of three and the last of 300, the two large
	// ones alone, then small ones again.
	want := []int{16, 16, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 16, 16, 6}
	if diff := cmp.Diff(want, sizes); diff != "" {
		t.Errorf("batch sizes mismatch (-want +got):\n%s", diff)
	}
}

// storeCases has opt's run keep its report cases and eval results in case files (as run
// does) that t closes at its end.
func storeCases(t *testing.T, opt *Options) {
	t.Helper()
	store, err := casefile.Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	evals, err := casefile.CreateEval(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { evals.Close() })
	opt.Store, opt.EvalStore = store, evals
}
