package gate

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/report"
)

// committed is the repository's blessed baseline: a real report, consistent by
// construction, which each case below forges in one way.
func committed(t *testing.T) *report.Report {
	t.Helper()
	r, err := report.Read("../../reports/baseline.json")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestVerify(t *testing.T) {
	base := committed(t)
	if err := Verify("baseline", base); err != nil {
		t.Fatalf("Verify(the committed baseline) = %v, want nil", err)
	}
	// The counts follow the committed baseline, which grows with the corpus.
	cases, intended := len(base.Cases), base.Extractors[0].Intended
	for _, tc := range []struct {
		name  string
		forge func(r *report.Report)
		want  string // in the error
	}{
		{name: "eval rows removed, totals kept", forge: func(r *report.Report) { r.Eval.Cases = r.Eval.Cases[:0] },
			want: "eval.sources[].cases (their sum) is 30, the rows give 0"},
		{name: "an eval row changed", forge: func(r *report.Report) { r.Eval.Cases[0].Coverage.Hit = 0 },
			want: "eval.totals (coverage) differ from what the 30 eval.cases give"},
		{name: "a drift cell raised", forge: func(r *report.Report) { r.Drift.Total.Cells[0].Exact++ },
			want: "extractors[0] (seed).drift_exact is"},
		{name: "drift_exact raised", forge: func(r *report.Report) { r.Extractors[1].DriftExact += 0.01 },
			want: "extractors[1] (claude-code@2.1.332).drift_exact is"},
		{name: "a drift row lost a cell", forge: func(r *report.Report) { r.Drift.Single[0].Cells = r.Drift.Single[0].Cells[1:] },
			want: "drift.single[0] has 8 cells for 9 extractors"},
		{name: "intended raised", forge: func(r *report.Report) { r.Extractors[0].Intended++ },
			want: fmt.Sprintf("extractors[0] (seed).intended is %d, the rows give %d", intended+1, intended)},
		{name: "a case row removed", forge: func(r *report.Report) { r.Cases = r.Cases[1:] },
			want: fmt.Sprintf("corpus.cases is %d, the rows give %d", cases, cases-1)},
		{name: "a negative rate", forge: func(r *report.Report) { r.Extractors[0].Rate = -0.5 },
			want: "extractors[0] (seed).intended_rate is -0.5, not within [0, 1]"},
		{name: "a huge rate", forge: func(r *report.Report) { r.Extractors[0].DriftExact = 1e308 },
			want: "drift_exact is 1e+308, not within [0, 1]"},
		{name: "NaN", forge: func(r *report.Report) { r.Extractors[0].Rate = math.NaN() },
			want: "intended_rate is NaN"},
		{name: "complete without drift", forge: func(r *report.Report) { r.Stages = []string{"extract", "golden", "eval"} },
			want: "complete is true, but stages (extract, golden, eval) lack drift"},
		{name: "an extractor twice", forge: func(r *report.Report) { r.Extractors = append(r.Extractors, r.Extractors[0]) },
			want: "extractors lists seed twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := committed(t)
			tc.forge(r)
			err := Verify("forged", r)
			if !errors.Is(err, ErrContradiction) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Verify(forged) = %v, want ErrContradiction with %q", err, tc.want)
			}
		})
	}
}

func TestDuplicateKeys(t *testing.T) {
	for _, tc := range []struct {
		json, want string
	}{
		{json: `{"a": 1, "b": {"c": [1, {"d": 2}]}}`},
		{json: `{"a": 1, "a": 2}`, want: "key a appears twice"},
		{json: `{"eval": {"totals": {"cases": 1, "cases": 60}}}`, want: "key eval.totals.cases appears twice"},
		{json: `{"x": [{"k": 1}, {"k": 2, "k": 3}]}`, want: "key x[1].k appears twice"},
	} {
		err := DuplicateKeys([]byte(tc.json))
		if got := errString(err); !strings.Contains(got, tc.want) || (tc.want == "") != (err == nil) {
			t.Errorf("DuplicateKeys(%s) = %v, want %q", tc.json, err, tc.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestCheckFewerEvalCasesIsACorpusChange(t *testing.T) {
	base := committed(t)
	base.Eval.Cases = base.Eval.Cases[:29]
	if _, err := Check(base, committed(t), DefaultConfig()); !errors.Is(err, ErrCorpusChanged) || !strings.Contains(err.Error(), "29 eval cases in the baseline, 30 in the run") {
		t.Errorf("Check(baseline with an eval case fewer) = %v, want ErrCorpusChanged", err)
	}
}
