package render

import (
	"strings"
	"testing"

	"github.com/compacteval/compacteval/eval"
	"github.com/google/go-cmp/cmp"
)

func TestHTMLPathOnly(t *testing.T) {
	page := renderHTML(t, pathOnlyReport())
	regressions := pageSection(t, page, "regressions")
	if strings.Contains(regressions, `<article class="row-item"`) {
		t.Errorf("a change of the path alone is shown as a behaviour change")
	}
	for _, want := range []string{
		`<h3 id="path-only">Path changes only: not a behaviour change</h3>`,
		`<tr id="row-malformed-tags-unclosed-robust"><td class="mono case">malformed-tags/unclosed</td><td>robust</td><td><code>line-anchored</code></td><td><code>fallback</code></td><td class="num">98</td></tr>`,
	} {
		if !strings.Contains(regressions, want) {
			t.Errorf("regressions section lacks %q", want)
		}
	}
	// robust's output is no problem of a behaviour: it is not among the known deviations either
	if strings.Contains(pageSection(t, page, "cases"), "<strong>robust</strong>") {
		t.Errorf("known deviations show robust's output, a golden mismatch")
	}
}

func TestHTMLReference(t *testing.T) {
	r := handReport()
	r.Extractors[2].Reference = "another agent's formatter"
	page := renderHTML(t, r)
	for _, want := range []string{
		`<th scope="row">dust <span class="badge ref" title="another agent&#39;s formatter">reference</span></th>`,
		`dust is a reference behaviour: ` + strings.ReplaceAll(referenceNote, "'", "&#39;"),
		`<th class="ref-head" title="another agent&#39;s formatter">dust<small>reference</small></th>`,
		`<th class="ex ref-head" colspan="3">dust (reference)</th>`,
		`<title id="chart-drift-dust-t">dust (reference)</title>`,
		`<svg xmlns="http://www.w3.org/2000/svg" class="chart panel ref"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("HTML() lacks %q", want)
		}
	}
	// dust returns the intended summary on every case: a reference is grey all the same
	cats := pageSection(t, page, "categories")
	if got := strings.Count(cats, `<td class="cell ref" title="dust on `); got != 3 {
		t.Errorf("categories have %d grey cells of dust, want 3 (two categories and all cases)", got)
	}
	if strings.Contains(cats, `<td class="cell q5" title="dust on`) {
		t.Errorf("categories colour a reference extractor's rate")
	}
	if !strings.Contains(cats, `<td class="cell q5" title="robust on well-formed`) {
		t.Errorf("categories no longer colour robust's rate")
	}
	if got := renderHTML(t, handReport()); strings.Contains(got, "reference") {
		t.Errorf("HTML() without a reference extractor mentions one")
	}
}

func TestCoverageChart(t *testing.T) {
	var results []eval.Result
	// five cases: in the first tenth 0, 1, 2, 3 and 4 of 4 facts; the worst have the lowest
	// coverage overall
	for i := range 5 {
		results = append(results, eval.Result{
			ID: "eval/case-" + string(rune('a'+i)), Coverage: eval.Share{Hit: i, Of: 10},
			CoverageCurve: curve(i, -1, 4),
		})
	}
	c := coverageChart(rowsOf(results))
	if len(c.Boxes) != 2 {
		t.Fatalf("coverageChart() has %d boxes, want 2 (the tenths with facts)", len(c.Boxes))
	}
	y := func(v float64) px { return c.Y + c.PH*px(1-v) }
	b := c.Boxes[0]
	got := []px{b.Lo, b.Q1, b.Med, b.Q3, b.Hi}
	want := []px{y(0), y(0.25), y(0.5), y(0.75), y(1)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("coverageChart() first box (lowest, quartiles, highest) mismatch (-want +got):\n%s", diff)
	}
	if b := c.Boxes[1]; b.Lo != y(1) || b.Hi != y(1) || b.H != 0 {
		t.Errorf("coverageChart() third tenth, all at 100%%: %+v", b)
	}
	var names []string
	for _, w := range c.Worst {
		names = append(names, w.Label)
	}
	wantNames := []string{"eval/case-a: coverage 0/10 (0.0%)", "eval/case-b: coverage 1/10 (10.0%)", "eval/case-c: coverage 2/10 (20.0%)"}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("coverageChart() worst cases mismatch (-want +got):\n%s", diff)
	}
	if got := c.Worst[0].D; got != "M"+(c.X+c.PW*0.05).String()+" "+y(0).String()+"M"+(c.X+c.PW*0.25).String()+" "+y(1).String() {
		t.Errorf("coverageChart() worst line = %q, a gap where the case has no facts", got)
	}

	page := renderHTML(t, handReport())
	charts := pageSection(t, page, "charts")
	if strings.Contains(charts, `class="case"`) {
		t.Errorf("the coverage chart still draws a line per case")
	}
	for _, want := range []string{`<rect class="box"`, `<line class="median"`, `<ul class="worst-legend"`, `<span class="mono">eval/bad: coverage 2/10 (20.0%)</span>`} {
		if !strings.Contains(charts, want) {
			t.Errorf("charts lack %q", want)
		}
	}
}

func TestQuantile(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		q    float64
		want float64
	}{
		{in: []float64{1}, q: 0.25, want: 1},
		{in: []float64{0, 1}, q: 0.5, want: 0.5},
		{in: []float64{0, 0.25, 0.5, 0.75, 1}, q: 0.75, want: 0.75},
		{in: []float64{0, 1, 2, 3}, q: 0.25, want: 0.75},
		{in: []float64{2, 4}, q: 1, want: 4},
	} {
		if got := quantile(tt.in, tt.q); got != tt.want {
			t.Errorf("quantile(%v, %v) = %v, want %v", tt.in, tt.q, got, tt.want)
		}
	}
}
