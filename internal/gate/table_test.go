package gate

import (
	"fmt"
	"testing"

	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
)

// broken returns a baseline of n cases that seed and robust handle, and a run in which a
// change broke seed on every one of them: each case fails intended, and the run records a
// golden mismatch and an unlisted deviation for it, as a real run does.
func broken(t *testing.T, n int) (base, run *report.Report) {
	t.Helper()
	base = baseline()
	base.Cases = nil
	for i := range n {
		base.Cases = append(base.Cases, report.Case{ID: fmt.Sprintf("cat/case-%03d", i), Results: []report.Result{
			{Extractor: "seed", MatchesIntended: true}, {Extractor: "robust", MatchesIntended: true}}})
	}
	run = clone(t, base)
	for i := range run.Cases {
		c := &run.Cases[i]
		c.Results[0].MatchesIntended = false
		run.Problems = append(run.Problems,
			report.Problem{Kind: "golden-mismatch", Case: c.ID, Extractor: "seed", Detail: "the output of seed differs from golden/seed/" + c.ID + ".txt"},
			report.Problem{Kind: "unlisted-deviation", Case: c.ID, Extractor: "seed", Detail: "seed no longer returns the intended result and known_deviations does not list it"})
	}
	return base, run
}

// TestArrange: 18 cases broken on seed are 18 rows, not 3 per case (issue 15 counted 74
// rows for them), each listing the checks it failed with short values, and the allowance
// of each check is said once for the group.
func TestArrange(t *testing.T) {
	base, run := broken(t, 18)
	cfg := DefaultConfig()
	cfg.MustPass = []MustPass{{Extractor: "seed", Cases: []string{"cat/case-00*"}}}
	res, err := Check(base, run, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Regressions) != 1+18*3+10 {
		t.Fatalf("%d regressions, want the rate, 3 per case and 10 must_pass: %v", len(res.Regressions), res.Regressions)
	}
	tab := Arrange(res.Regressions)
	if len(tab.Totals) != 1 || tab.Totals[0].Metric != "seed intended_rate (common cases)" {
		t.Errorf("totals = %v, want seed's rate", tab.Totals)
	}
	if len(tab.Groups) != 1 || tab.Groups[0].Name != "seed" || len(tab.Groups[0].Rows) != 18 {
		t.Fatalf("groups = %+v, want seed with 18 rows", tab.Groups)
	}
	g := tab.Groups[0]
	wantLimits := []Limit{
		{Checks: []string{"intended"}, Allowed: "allowed 0 of 18 lost cases"},
		{Checks: []string{"must_pass"}, Allowed: "must_pass"},
		{Checks: []string{"golden-mismatch", "unlisted-deviation"}, Allowed: "problems: fail"},
	}
	if diff := cmp.Diff(wantLimits, g.Limits); diff != "" {
		t.Errorf("limits (-want +got):\n%s", diff)
	}
	for i, want := range []Row{
		{Case: "cat/case-000", Checks: []string{"intended", "must_pass", "golden-mismatch", "unlisted-deviation"}, Was: "pass", Now: "fail"},
		{Case: "cat/case-010", Checks: []string{"intended", "golden-mismatch", "unlisted-deviation"}, Was: "pass", Now: "fail"},
	} {
		got := g.Rows[[]int{0, 10}[i]]
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("row %s (-want +got):\n%s", want.Case, diff)
		}
	}
}

// TestArrangeRows gives each kind of row a reason.
func TestArrangeRows(t *testing.T) {
	for _, tc := range []struct {
		name   string
		regs   []Regression
		want   Row
		reason string
	}{
		{
			name: "golden only",
			regs: []Regression{{Case: "a", Extractor: "seed", Check: "golden-mismatch", Family: famProblems, Was: "none", Now: "the output of seed differs from golden/seed/a.txt", Allowed: "problems: fail"}},
			want: Row{Case: "a", Checks: []string{"golden-mismatch"}, Was: "golden", Now: "differs"}, reason: "a problem alone gets short values, not its sentence",
		},
		{
			name: "golden in the path alone",
			regs: []Regression{{Case: "a", Extractor: "robust", Check: CheckPathOnly, Family: famProblems, Was: "none", Now: "the output of robust differs from golden/robust/a.txt in the path alone", Allowed: "problems: fail"}},
			want: Row{Case: "a", Checks: []string{CheckPathOnly}, Was: "golden", Now: "path only"}, reason: "a stale golden's path is not a behaviour change, and the row says so",
		},
		{
			name: "eval case",
			regs: []Regression{
				{Case: "eval/x", Check: "coverage", Family: famCaseCoverage, Was: "0.8000", Now: "0.5000", Allowed: "allowed drop 0.0000"},
				{Case: "eval/x", Check: "boundary_coverage", Family: famCaseBoundary, Was: "1.0000", Now: "0.2500", Allowed: "allowed drop 0.0000"},
			},
			want: Row{Case: "eval/x", Checks: []string{"coverage", "boundary_coverage"}, Was: "0.8000, 1.0000", Now: "0.5000, 0.2500"}, reason: "two measures keep both values, in the checks' order",
		},
		{
			name: "removed",
			regs: []Regression{{Case: "b/gone", Check: "removed", Family: famCases, Was: "present", Now: "removed", Allowed: "removed_case: fail"}},
			want: Row{Case: "b/gone", Checks: []string{"removed"}, Was: "present", Now: "removed"}, reason: "a removed case",
		},
	} {
		tab := Arrange(tc.regs)
		if len(tab.Groups) != 1 || len(tab.Groups[0].Rows) != 1 {
			t.Fatalf("%s: groups %+v, want one row", tc.name, tab.Groups)
		}
		if diff := cmp.Diff(tc.want, tab.Groups[0].Rows[0]); diff != "" {
			t.Errorf("%s: %s (-want +got):\n%s", tc.name, tc.reason, diff)
		}
	}
	tab := Arrange([]Regression{
		{Case: "z", Extractor: "robust", Check: "intended", Allowed: "x"},
		{Case: "eval/x", Check: "coverage", Family: famCaseCoverage, Allowed: "y"},
		{Case: "a", Check: "removed", Family: famCases, Allowed: "removed_case: fail"},
		{Case: "b", Extractor: "dust", Check: "intended", Allowed: "x"},
	})
	var names []string
	for _, g := range tab.Groups {
		names = append(names, g.Name)
	}
	if diff := cmp.Diff([]string{"dust", "robust", GroupEval, GroupCorpus}, names); diff != "" {
		t.Errorf("group order: extractors by name, then eval cases, then the corpus (-want +got):\n%s", diff)
	}
}

// TestCheckFamilies: the families of checks are the same on a pass and on a failure (a
// JUnit file made of them keeps its testcases), their checks add up to the gate's (but
// for the extractors' problems, counted per case), and every regression is in one.
func TestCheckFamilies(t *testing.T) {
	base, run := broken(t, 5)
	cfg := DefaultConfig()
	cfg.MustPass = []MustPass{{Extractor: "robust", Cases: []string{"*"}}}
	pass, err := Check(base, clone(t, base), cfg)
	if err != nil {
		t.Fatal(err)
	}
	fail, err := Check(base, run, cfg)
	if err != nil {
		t.Fatal(err)
	}
	names := func(res Result) []string {
		var out []string
		for _, f := range res.Families {
			out = append(out, f.Extractor+" "+f.Name)
		}
		return out
	}
	if diff := cmp.Diff(names(pass), names(fail)); diff != "" {
		t.Errorf("families differ between a pass and a failure (-pass +fail):\n%s", diff)
	}
	want := []string{"seed intended", "seed intended_rate", "seed drift_exact", "seed problems",
		"robust intended", "robust intended_rate", "robust drift_exact", "robust problems", "robust must_pass",
		" extractors", " cases", " problems", " score", " coverage", " boundary_coverage", " tail_leakage", " case_coverage", " case_boundary_coverage"}
	if diff := cmp.Diff(want, names(fail)); diff != "" {
		t.Errorf("families (-want +got):\n%s", diff)
	}
	for _, res := range []Result{pass, fail} {
		sum, failed := 0, 0
		for _, f := range res.Families {
			if f.Name != famProblems || f.Extractor == "" {
				sum += f.Checks
			}
			failed += f.Failed
		}
		if sum != res.Checks || failed != len(res.Regressions) {
			t.Errorf("families count %d checks and %d failures, the result %d and %d", sum, failed, res.Checks, len(res.Regressions))
		}
		n := 0
		for i, regs := range res.ByFamily() {
			if len(regs) != res.Families[i].Failed {
				t.Errorf("ByFamily()[%d] holds %d regressions, family %+v failed %d", i, len(regs), res.Families[i], res.Families[i].Failed)
			}
			n += len(regs)
		}
		if n != len(res.Regressions) {
			t.Errorf("ByFamily() holds %d of %d regressions", n, len(res.Regressions))
		}
	}
	for _, f := range fail.Families {
		if f.Extractor == "seed" && f.Name == famProblems && (f.Checks != 5 || f.Failed != 10) {
			t.Errorf("seed problems = %+v, want 5 checks (cases) and 10 failed", f)
		}
	}
}
