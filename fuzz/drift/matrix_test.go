package drift_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/google/go-cmp/cmp"
)

func TestJudge(t *testing.T) {
	const summary = "1. Request:\n   Fix it.\n\n2. Next:\n   Test it."
	analysis := []string{"The user asked me to fix the retry loop."}
	sample := drift.Sample{Intended: corpus.Intended{Found: true, Summary: summary}, Analysis: analysis}
	notFound := drift.Sample{Analysis: analysis}
	ambiguous := sample
	ambiguous.Ambiguous = true
	ok := func(s string) compact.Extraction { return compact.Extraction{Summary: s, OK: true} }
	for _, tc := range []struct {
		name   string
		s      drift.Sample
		e      compact.Extraction
		want   drift.Outcome
		reason string
	}{
		{"exact", sample, ok(summary), drift.Outcome{Exact: true}, "the intended summary byte for byte"},
		{"none when none intended", notFound, compact.Extraction{}, drift.Outcome{Exact: true}, "finding nothing is right when nothing is intended"},
		{"something when none intended", notFound, ok("x"), drift.Outcome{}, "a summary where none is intended is not exact, but nothing was lost"},
		{"nothing found", sample, compact.Extraction{}, drift.Outcome{Lost: true}, "!OK loses the summary"},
		{"crlf copy", sample, ok("1. Request:\r\n   Fix it.\r\n\r\n2. Next:\r\n   Test it."), drift.Outcome{}, "other line ends are not exact, but every line is held"},
		{"half the lines", sample, ok("1. Request:\n   Fix it."), drift.Outcome{}, "two of four lines: not under half"},
		{"one line", sample, ok("1. Request:"), drift.Outcome{Lost: true}, "one of four lines is under half"},
		{"analysis included", sample, ok("The user asked me to fix the retry loop.\n" + summary), drift.Outcome{Leaked: true}, "a whole analysis line, trimmed, is a leak"},
		{"analysis line indented", sample, ok("  The user asked me to fix the retry loop.  \r\n" + summary), drift.Outcome{Leaked: true}, "blanks around a line do not hide it"},
		{"analysis fragment", sample, ok("fix the retry loop.\n" + summary), drift.Outcome{}, "a part of a line is not a leak"},
		{"ambiguous exact", ambiguous, ok(summary), drift.Outcome{}, "ambiguous samples count in no exact or lost"},
		{"ambiguous leak", ambiguous, ok("The user asked me to fix the retry loop."), drift.Outcome{Leaked: true}, "but a leak is a leak"},
	} {
		if got := drift.Judge(tc.s, tc.e); got != tc.want {
			t.Errorf("%s: Judge = %+v, want %+v (%s)", tc.name, got, tc.want, tc.reason)
		}
	}
}

// fakeExtractors answer the same whatever the response: nothing, or the whole text.
var fakeExtractors = []compact.Extractor{
	{Name: "none", Extract: func(string) compact.Extraction { return compact.Extraction{} }},
	{Name: "whole", Extract: func(s string) compact.Extraction {
		t := compact.TrimJS(s)
		return compact.Extraction{Summary: t, OK: t != ""}
	}},
}

func TestMatrix(t *testing.T) {
	pairs := corpusPairs(t)
	const n = 6
	extractors := append([]compact.Extractor{{Name: "seed", Extract: compact.Extract}}, fakeExtractors...)
	m := drift.Matrix(pairs, extractors, 3, n)
	ops := drift.OperatorNames()

	if !cmp.Equal(m.Operators, ops) || !cmp.Equal(m.Extractors, []string{"seed", "none", "whole"}) || len(m.Pairs) != len(pairs) {
		t.Fatalf("Matrix header = %v, %v, %d pairs", m.Operators, m.Extractors, len(m.Pairs))
	}
	if len(m.Single) != len(ops) || len(m.Composed) != len(ops) {
		t.Fatalf("Matrix has %d single and %d composed rows, want %d each", len(m.Single), len(m.Composed), len(ops))
	}
	rows := append([]drift.Row{m.Identity, m.SingleTotal, m.ComposedTotal, m.Total}, append(m.Single, m.Composed...)...)
	composedOps := 0
	for i, r := range rows {
		if len(r.Cells) != len(extractors) {
			t.Fatalf("row %s has %d cells, want %d", r.Operator, len(r.Cells), len(extractors))
		}
		if i >= 4 && i < 4+len(ops) && (r.Operator != ops[i-4] || r.Samples != n) {
			t.Errorf("single row %d = %s with %d samples, want %s with %d", i-4, r.Operator, r.Samples, ops[i-4], n)
		}
		if i >= 4+len(ops) {
			composedOps += r.Samples
		}
		none, whole := r.Cells[1], r.Cells[2]
		// The fakes pin the definitions: finding nothing is exact exactly when nothing is
		// intended and loses every found summary; the whole text leaks the analysis.
		if none.Exact != r.Samples-r.Ambiguous-r.Found || none.Lost != r.Found || none.Leaked != 0 {
			t.Errorf("row %s: none = %+v with %d samples, %d ambiguous, %d found", r.Operator, none, r.Samples, r.Ambiguous, r.Found)
		}
		if whole.Lost > r.Found || whole.Exact > r.Samples-r.Ambiguous {
			t.Errorf("row %s: whole = %+v out of range", r.Operator, whole)
		}
	}
	if id := m.Identity; id.Cells[0].Exact != n || id.Cells[2].Leaked != n || id.Cells[2].Exact != 0 {
		t.Errorf("identity row = %+v; want seed exact on all %d, whole leaking on all", id, n)
	}
	numOps := len(ops)
	if m.ComposedTotal.Samples != n*numOps || composedOps < 2*n*numOps || composedOps > 3*n*numOps {
		t.Errorf("composed: %d samples counted %d times under operators; want %d samples of 2 or 3 operators", m.ComposedTotal.Samples, composedOps, n*numOps)
	}
	if m.Total.Samples != n+2*n*numOps || m.SingleTotal.Samples != n*numOps {
		t.Errorf("totals: %d in all, %d single; want %d, %d", m.Total.Samples, m.SingleTotal.Samples, n+2*n*numOps, n*numOps)
	}

	if again := drift.Matrix(pairs, extractors, 3, n); !cmp.Equal(m, again) {
		t.Errorf("Matrix with the same seed differs:\n%s", cmp.Diff(m, again))
	}
	if other := drift.Matrix(pairs, extractors, 4, n); cmp.Equal(m.Composed, other.Composed) {
		t.Errorf("Matrix with seeds 3 and 4 gives the same composed rows")
	}
}

// TestPairsRead holds Matrix and Responses to reading only the first PairsRead pairs: with
// the texts of the others blanked, they give the same result.
func TestPairsRead(t *testing.T) {
	pairs := corpusPairs(t)
	const n = 1 // so that fewer pairs are read than the corpus has
	read := drift.PairsRead(len(pairs), n)
	if read >= len(pairs) || read < 1 {
		t.Fatalf("PairsRead(%d, %d) = %d: want some of the pairs, not all (the test needs more pairs)", len(pairs), n, read)
	}
	if got := drift.PairsRead(len(pairs), 0); got != 0 {
		t.Errorf("PairsRead(%d, 0) = %d, want 0", len(pairs), got)
	}
	if got := drift.PairsRead(3, 1000); got != 3 {
		t.Errorf("PairsRead(3, 1000) = %d, want 3", got)
	}
	blanked := append([]drift.Pair(nil), pairs...)
	for i := read; i < len(blanked); i++ {
		blanked[i] = drift.Pair{ID: blanked[i].ID}
	}
	extractors := append([]compact.Extractor{{Name: "seed", Extract: compact.Extract}}, fakeExtractors...)
	if want, got := drift.Matrix(pairs, extractors, 3, n), drift.Matrix(blanked, extractors, 3, n); !cmp.Equal(want, got) {
		t.Errorf("Matrix with the pairs past PairsRead blanked differs (-want +got):\n%s", cmp.Diff(want, got))
	}
	if want, got := drift.Responses(pairs, 3, n), drift.Responses(blanked, 3, n); !cmp.Equal(want, got) {
		t.Errorf("Responses with the pairs past PairsRead blanked differs (-want +got):\n%s", cmp.Diff(want, got))
	}
}

func TestMatrixEmpty(t *testing.T) {
	m := drift.Matrix(nil, fakeExtractors, 1, 10)
	if m.Total.Samples != 0 || m.Single != nil || len(m.Extractors) != 2 {
		t.Errorf("Matrix(no pairs) = %+v, want an empty result naming the extractors", m)
	}
	if m := drift.Matrix(corpusPairs(t), fakeExtractors, 1, 0); m.Total.Samples != 0 {
		t.Errorf("Matrix(n=0) has %d samples, want 0", m.Total.Samples)
	}
}

func TestCheckN(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string // "" for no error
	}{
		{n: 1},
		{n: 100},
		{n: drift.MaxN},
		{n: 0, want: "want at least 1"},
		{n: -5, want: "want at least 1"},
		{n: drift.MaxN + 1, want: "over the limit of 10000"},
		{n: 20_000_000, want: "20000000 samples per operator is over the limit of 10000"},
	} {
		err := drift.CheckN(tc.n)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckN(%d) = %v, want %q", tc.n, err, tc.want)
		}
	}
}

func TestSamples(t *testing.T) {
	pairs := corpusPairs(t)
	for _, n := range []int{1, 3} {
		m := drift.Matrix(pairs, nil, 1, n)
		if got, want := drift.Samples(n), m.Total.Samples; got != want {
			t.Errorf("Samples(%d) = %d, want %d (the matrix's samples)", n, got, want)
		}
		if got, want := drift.Samples(n), len(drift.Responses(pairs, 1, n)); got != want {
			t.Errorf("Samples(%d) = %d, want %d (len(Responses))", n, got, want)
		}
	}
	if got := drift.Samples(0); got != 0 {
		t.Errorf("Samples(0) = %d, want 0", got)
	}
}

// TestResponsesAreMatrixs: Responses gives exactly the texts Matrix hands its extractors,
// each as often, so that an external extractor sent them ahead is asked nothing again.
func TestResponsesAreMatrixs(t *testing.T) {
	pairs := corpusPairs(t)
	const seed, n = 5, 3
	var mu sync.Mutex
	seen := map[string]int{}
	record := compact.Extractor{Name: "record", Extract: func(text string) compact.Extraction {
		mu.Lock()
		defer mu.Unlock()
		seen[text]++
		return compact.Extract(text)
	}}
	drift.Matrix(pairs, []compact.Extractor{record}, seed, n)
	responses := drift.Responses(pairs, seed, n)
	if len(responses) != drift.Samples(n) {
		t.Fatalf("Responses gives %d texts, want Samples(%d) = %d", len(responses), n, drift.Samples(n))
	}
	for _, r := range responses {
		seen[r]--
	}
	for text, k := range seen {
		if k != 0 {
			t.Fatalf("Matrix extracts %q %+d times more than Responses gives it", text[:min(len(text), 80)], k)
		}
	}
}
