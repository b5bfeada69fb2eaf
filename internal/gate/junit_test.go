package gate

import (
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/testhelp/junittest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	junit "github.com/joshdk/go-junit"
)

// TestJUnit: the gate's JUnit has one testcase per family of checks and extractor, the
// same on a pass and on a failure (before issue 15 a pass had 1 testcase and this failure
// 16, so CI trend graphs jumped); it validates against the schema, and go-junit finds the
// failed families with every regression in their bodies.
func TestJUnit(t *testing.T) {
	base, run := broken(t, 5)
	pass, err := Check(base, clone(t, base), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	fail, err := Check(base, run, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	read := func(res Result) (names []string, failed map[string]junit.Test, totals junit.Totals) {
		data, err := JUnit(res)
		if err != nil {
			t.Fatal(err)
		}
		junittest.Validate(t, data)
		suites := junittest.Parse(t, data)
		failed = map[string]junit.Test{}
		for _, s := range suites {
			for _, c := range s.Tests {
				names = append(names, c.Classname+" "+c.Name)
				if c.Status == junit.StatusFailed {
					failed[c.Classname+" "+c.Name] = c
				}
			}
		}
		return names, failed, junittest.Totals(suites)
	}
	passNames, passFailed, passTotals := read(pass)
	failNames, failFailed, failTotals := read(fail)
	if diff := cmp.Diff(passNames, failNames); diff != "" {
		t.Errorf("testcases differ between a pass and a failure (-pass +fail):\n%s", diff)
	}
	if len(passNames) != len(pass.Families) || len(passFailed) != 0 || passTotals.Tests != len(pass.Families) {
		t.Errorf("pass: %d testcases (%d failed, totals %+v), want %d families and no failure", len(passNames), len(passFailed), passTotals, len(pass.Families))
	}
	var names []string
	for name := range failFailed {
		names = append(names, name)
	}
	want := []string{"seed intended", "seed intended_rate", "seed problems"}
	if diff := cmp.Diff(want, names, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" || failTotals.Failed != 3 {
		t.Errorf("failed testcases (%d) (-want +got):\n%s", failTotals.Failed, diff)
	}
	body := failFailed["seed problems"].Error.(junit.Error).Body
	for _, r := range fail.Regressions {
		if r.Family == famProblems && !strings.Contains(body, r.String()+"\n") {
			t.Errorf("the body of seed problems lacks %q:\n%s", r.String(), body)
		}
	}
	if m := failFailed["seed problems"].Message; m != "10 regressions in 5 checks" {
		t.Errorf("seed problems message = %q", m)
	}
	if m := failFailed["seed intended_rate"].Message; m != "(all): seed intended_rate (common cases) 1.0000 -> 0.0000 (allowed drop 0.0000)" {
		t.Errorf("a family with one regression has it as its message, got %q", m)
	}
}
