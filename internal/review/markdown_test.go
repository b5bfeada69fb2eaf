package review

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/gate"
)

// quietReview is a review in which nothing changed: one extractor, a drift matrix of one
// operator and thirty eval cases with the same scores on both sides.
func quietReview() *Review {
	v := func(label string) *Version {
		return &Version{Label: label, Impl: &extractor.Impl{Kind: "module", Desc: "module " + label + ".ts", Profiles: []string{"seed"}}}
	}
	row := func(group, op string, exact int) DriftRow {
		return DriftRow{Group: group, Operator: op, Samples: 10, Cells: []DriftCell{{Extractor: "seed", BaseExact: exact, HeadExact: exact, BaseLeaked: 1, HeadLeaked: 1}}}
	}
	r := &Review{
		Base: v("base"), Head: v("head"), Corpus: Corpus{Dir: "corpus", Cases: 3, EvalCases: 30, Pairs: 1},
		Renders: []TextChange{}, Extractors: []ExtractorChange{{Name: "seed", Cases: 3, BaseIntended: 2, HeadIntended: 2}},
		Absent: []Absent{}, Notes: []string{}, Regressions: []gate.Regression{},
		Drift: &DriftChange{Seed: 1, N: 10, Extractors: []string{"seed"}, Rows: []DriftRow{row("identity", "identity", 10), row("single", "crlf", 5), row("all", "total", 15)}},
	}
	r.Drift.Rows[2].Samples = 20
	mean := 0.5
	r.Eval = &EvalChange{Extractor: "seed", Coverage: MeanChange{Base: &mean, Head: &mean}, BoundaryCoverage: MeanChange{Base: &mean, Head: &mean}}
	for i := range 30 {
		s := eval.Share{Hit: 1, Of: 2}
		r.Eval.Cases = append(r.Eval.Cases, EvalCase{ID: fmt.Sprintf("eval/case-%02d", i), BaseFound: true, HeadFound: true,
			Coverage: ShareChange{Base: s, Head: s}, BoundaryCoverage: ShareChange{Base: s, Head: s}})
	}
	return r
}

func markdown(t *testing.T, r *Review) string {
	t.Helper()
	var b bytes.Buffer
	if err := Markdown(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSummaryLine: the verdict's line names every kind of change; a review where only
// drift changed once read "Nothing changed".
func TestSummaryLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(r *Review)
		want   string
	}{
		{"nothing", func(*Review) {}, "Nothing changed."},
		{"drift exact only", func(r *Review) { r.Drift.Rows[1].Cells[0].HeadExact, r.Drift.Rows[2].Cells[0].HeadExact = 7, 17 },
			"Seed recovers 75.0% → 85.0% of the drift samples exactly."},
		{"drift leaks only", func(r *Review) { r.Drift.Rows[1].Cells[0].HeadLeaked = 3 },
			"Seed's drift outcomes changed, not its exact recoveries (75.0%)."},
		{"one eval case", func(r *Review) { r.Eval.Cases[4].Coverage.Head = eval.Share{Hit: 2, Of: 2} },
			"1 of 30 eval cases scored differently (mean coverage 0.5000)."},
	} {
		r := quietReview()
		tc.change(r)
		if got := r.summaryLine(); got != tc.want {
			t.Errorf("%s: summaryLine() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestMarkdownEvalChangedOnly: of thirty eval cases the Markdown lists those whose score
// changed and counts the others.
func TestMarkdownEvalChangedOnly(t *testing.T) {
	r := quietReview()
	md := markdown(t, r)
	if !strings.Contains(md, "No eval score changed on the 30 eval cases.") || strings.Contains(md, "eval/case-") {
		t.Errorf("a review without an eval change lists eval cases:\n%s", md)
	}
	r.Eval.Cases[4].Coverage.Head = eval.Share{Hit: 2, Of: 2}
	md = markdown(t, r)
	if !strings.Contains(md, "1 of 30 eval cases changed; the other 29 have the same scores.") || strings.Count(md, "eval/case-") != 1 {
		t.Errorf("the Markdown does not list the one changed eval case and count the others:\n%s", md)
	}
}

// TestMarkdownRegressionsOnce: 18 cases moved away list as 18 rows under one heading
// that says the allowance once (it was repeated on every line).
func TestMarkdownRegressionsOnce(t *testing.T) {
	r := quietReview()
	for i := range 18 {
		r.Regressions = append(r.Regressions, gate.Regression{Case: fmt.Sprintf("well-formed/case-%02d", i), Metric: "seed intended", Extractor: "seed",
			Check: "intended", Family: "intended", Was: "pass", Now: "fail", Allowed: "allowed 0 of 18 lost cases"})
	}
	md := markdown(t, r)
	if n := strings.Count(md, "0 of 18 lost cases"); n != 1 {
		t.Errorf("the allowance is said %d times, want once:\n%s", n, md)
	}
	for _, want := range []string{"**18 regressions:** 18 cases of seed.", "#### seed: 18 cases", "| `well-formed/case-17` | intended | pass | fail |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestEvalChangedOnlyHTML: the HTML review, like the Markdown, lists only the eval cases
// whose scores changed (it listed all 30), and a change of the headline score alone counts.
func TestEvalChangedOnlyHTML(t *testing.T) {
	r := quietReview()
	page := func() string {
		t.Helper()
		b, err := HTML(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if p := page(); !strings.Contains(p, "No eval score changed on the 30 eval cases") || strings.Contains(p, "eval/case-") {
		t.Errorf("a review without an eval change lists eval cases in its HTML")
	}
	was, now := 0.5, 0.25
	r.Eval.Cases[7].Score = MeanChange{Base: &was, Head: &now}
	p := page()
	if !strings.Contains(p, "1 of 30 eval cases changed; the others have the same scores") || strings.Count(p, "eval/case-") != 1 {
		t.Errorf("the HTML does not list the one case whose score changed and count the others")
	}
	if md := markdown(t, r); !strings.Contains(md, "| `eval/case-07` | 0.5000 → 0.2500 |") {
		t.Errorf("the Markdown does not show the changed score first:\n%s", md)
	}
}

// TestProfilesPairLegacyNames: a base from before profiles named their version calls
// claude-code@2.1.88 "claude-code" and windmill@67ef1eb "windmill"; the review compares those
// pairs (it listed both as absent from one side), asking the base by its own name.
func TestProfilesPairLegacyNames(t *testing.T) {
	v := func(label string, profiles ...string) *Version {
		return &Version{Label: label, Impl: &extractor.Impl{Kind: "git", Profiles: profiles}}
	}
	r := &Review{
		Base: v("base", "seed", "claude-code", "windmill"),
		Head: v("head", "seed", "claude-code@2.1.332", "claude-code@2.1.88", "windmill@10cd0dc", "windmill@67ef1eb"),
	}
	both, baseName := r.profiles()
	if want := []string{"seed", "claude-code@2.1.88", "windmill@67ef1eb"}; !slices.Equal(both, want) {
		t.Errorf("profiles() = %v, want %v", both, want)
	}
	if baseName["claude-code@2.1.88"] != "claude-code" || baseName["windmill@67ef1eb"] != "windmill" || baseName["seed"] != "seed" {
		t.Errorf("baseName = %v, want the base's own names", baseName)
	}
	want := []Absent{{Profile: "claude-code@2.1.332", In: "head"}, {Profile: "windmill@10cd0dc", In: "head"}}
	if !slices.Equal(r.Absent, want) {
		t.Errorf("Absent = %v, want %v", r.Absent, want)
	}
}
