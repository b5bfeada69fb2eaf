package render

import (
	"strings"
	"testing"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/testhelp/junittest"
	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
	junit "github.com/joshdk/go-junit"
)

// junitRun is a small complete run: two extractors on three cases, seed deviating on one
// without known_deviations listing it, a drift matrix and two eval cases, one of which
// has no summary.
func junitRun() *report.Report {
	summary, intended := "1. Request:\n   Fix the <flaky> test.\n2. Work:\n   none", "1. Request:\n   Fix the <flaky> test.\n2. Work:\n   Injected a clock."
	score := 0.5
	return &report.Report{
		SchemaVersion: report.SchemaVersion, Complete: true, Stages: []string{"extract", "golden", "drift", "eval"},
		Extractors: []report.Extractor{{Name: "seed", Cases: 3}, {Name: "robust", Cases: 3}},
		Problems: []report.Problem{{Kind: "unlisted-deviation", Case: "b/two", Extractor: "seed",
			Detail: "seed no longer returns the intended result and known_deviations does not list it"}},
		Cases: []report.Case{
			{ID: "a/one", IntendedFound: true, Results: []report.Result{{Extractor: "seed", OK: true, MatchesIntended: true}, {Extractor: "robust", OK: true, MatchesIntended: true}}},
			{ID: "b/two", IntendedFound: true, Intended: intended, Results: []report.Result{
				{Extractor: "seed", OK: true, Summary: &summary}, {Extractor: "robust", OK: true, MatchesIntended: true}}},
			{ID: "c/three", Results: []report.Result{{Extractor: "seed"}, {Extractor: "robust"}}},
		},
		Drift: drift.MatrixResult{Seed: 1, N: 10, Extractors: []string{"seed", "robust"},
			Total: drift.Row{Operator: "total", Samples: 40, Ambiguous: 2, Cells: []drift.Cell{{Exact: 19, Leaked: 3, Lost: 1}, {Exact: 38}}}},
		Eval: eval.Report{Extractor: "seed", Cases: []eval.Result{
			{ID: "eval/x", Found: true, Score: &score, Coverage: eval.Share{Hit: 4, Of: 8}},
			{ID: "eval/y"},
		}},
	}
}

// TestJUnit checks the run's JUnit against the schema and through go-junit: a suite per
// extractor with a testcase per case, then drift and eval; the deviating case fails with
// the diff of the intended summary and the output in its body, the eval case without a
// summary fails, everything else passes.
func TestJUnit(t *testing.T) {
	data, err := JUnit(junitRun())
	if err != nil {
		t.Fatal(err)
	}
	junittest.Validate(t, data)
	suites := junittest.Parse(t, data)
	type suiteCount struct {
		Name                 string
		Tests, Failed, Error int
	}
	var got []suiteCount
	failed := map[string]junit.Test{}
	for _, s := range suites {
		got = append(got, suiteCount{s.Name, s.Totals.Tests, s.Totals.Failed, s.Totals.Error})
		for _, c := range s.Tests {
			if c.Status == junit.StatusFailed {
				failed[c.Classname+" "+c.Name] = c
			}
		}
	}
	want := []suiteCount{{"corpus/seed", 3, 1, 0}, {"corpus/robust", 3, 0, 0}, {"drift", 2, 0, 0}, {"eval", 2, 1, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JUnit suites as go-junit reads them (-want +got):\n%s", diff)
	}
	if len(failed) != 2 {
		t.Fatalf("failed testcases = %v, want seed b/two and eval eval/y", failed)
	}
	dev := failed["seed b/two"]
	body := dev.Error.(junit.Error).Body
	for _, s := range []string{"unlisted-deviation: seed no longer returns", "intended (-) and returned (+)", `-"   Injected a clock."`, `+"   none"`, `"   Fix the <flaky> test."`} {
		if !strings.Contains(body, s) {
			t.Errorf("failure body of seed b/two lacks %q:\n%s", s, body)
		}
	}
	if m := failed["eval eval/y"].Message; m != "seed found no summary" {
		t.Errorf("eval/y failure message = %q, want %q", m, "seed found no summary")
	}
	for _, s := range suites {
		for _, c := range s.Tests {
			if c.Classname == "drift" && c.Name == "seed" && !strings.Contains(c.SystemOut, "exact 19 of 38 unambiguous samples (50.0%); analysis leaked 3; summary lost 1") {
				t.Errorf("drift seed system-out = %q", c.SystemOut)
			}
		}
	}
}

// TestJUnitPartial: a run without the drift and eval stages has no such suites, and says
// it is partial in a failing testcase.
func TestJUnitPartial(t *testing.T) {
	r := junitRun()
	r.Complete, r.Stages = false, []string{"extract"}
	data, err := JUnit(r)
	if err != nil {
		t.Fatal(err)
	}
	junittest.Validate(t, data)
	var names []string
	for _, s := range junittest.Parse(t, data) {
		names = append(names, s.Name)
	}
	if diff := cmp.Diff([]string{"corpus/seed", "corpus/robust", "corpus/load"}, names); diff != "" {
		t.Errorf("suites of a partial run (-want +got):\n%s", diff)
	}
}

// TestJUnitText: a failure body and system-out keep their line breaks and tabs in the file
// (encoding/xml alone writes them as &#xA;), and come back whole through go-junit; markup
// is escaped, a carriage return stays a reference (an XML reader turns a bare one into a
// line feed), and a character XML cannot hold becomes U+FFFD.
func TestJUnitText(t *testing.T) {
	var s JUnitSuite
	body := "a <b> & ]]> c\n\td\r\x01"
	s.AddCase(JUnitCase{Name: "x", Classname: "c", Failure: &JUnitFailure{Message: "m", Type: "t", Text: body}, SystemOut: JUnitText(body)})
	data, err := MarshalJUnit("n", s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "a &lt;b&gt; &amp; ]]&gt; c\n\td&#xD;\uFFFD</failure>") {
		t.Errorf("the failure body is not written as text with its line breaks:\n%s", data)
	}
	junittest.Validate(t, data)
	c := junittest.Parse(t, data)[0].Tests[0]
	want := "a <b> & ]]> c\n\td\r\uFFFD"
	if got := c.Error.(junit.Error).Body; got != want {
		t.Errorf("go-junit reads the body as %q, want %q", got, want)
	}
	if c.SystemOut != want {
		t.Errorf("go-junit reads system-out as %q, want %q", c.SystemOut, want)
	}
}
