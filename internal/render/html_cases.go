package render

import (
	"iter"

	"github.com/compacteval/compacteval/report"
)

// caseView is a case shown in detail: its response once, and each distinct output of the
// extractors that keep a summary and have no problem, beside the intended summary (outputs
// with a problem are rows of the regressions section).
type caseView struct {
	ID, Anchor, Title, Origin string
	Categories                []string
	IntendedFound             bool
	Response                  responseView
	Outputs                   []outputView
}

// outputView is one output and the extractors that returned it.
type outputView struct {
	Results []resultView
	// Found is false when the extractors found no summary; IntendedFound when the case
	// intends none.
	Found, IntendedFound bool
	// Same reports an output byte for byte equal to the intended summary.
	Same       bool
	Diff       []diffRow
	Bytes      int
	Dels, Adds int
}

// resultView is one extractor's verdict on a case. Status is known (a deviation
// known_deviations lists) or ok.
type resultView struct {
	Extractor, Path, Golden string
	Status, Reason          string
	Reference               bool
}

// caseViews are the cases shown in detail: those with a kept summary of an extractor
// without a problem on them, in report order. They are read from the report's cases each
// time the page ranges over them, one at a time, never held.
type caseViews struct {
	r        *report.Report
	problems map[[2]string]bool
	ref      map[string]bool
	anchors  map[string]string
	// n counts the cases shown; err is the first error reading them.
	n   int
	err error
}

// newCaseViews reads r's cases once, for their anchors and the number shown in detail.
// It returns the anchors of the cases shown in detail that have a problem, which the
// regressions section links to.
func newCaseViews(r *report.Report) (*caseViews, map[string]string, error) {
	v := &caseViews{r: r, problems: map[[2]string]bool{}, ref: map[string]bool{}}
	for _, p := range r.Problems {
		v.problems[[2]string{p.Case, p.Extractor}] = true
	}
	for _, e := range r.Extractors {
		v.ref[e.Name] = e.Reference != ""
	}
	troubled := map[string]bool{}
	for _, p := range r.Problems {
		troubled[p.Case] = true
	}
	var ids []string
	shown := map[string]bool{} // of the cases with a problem
	for c, err := range r.AllCases() {
		if err != nil {
			return nil, nil, err
		}
		ids = append(ids, c.ID)
		if _, ok := v.view(c, false); ok {
			v.n++
			if troubled[c.ID] {
				shown[c.ID] = true
			}
		}
	}
	v.anchors = anchors("case-", ids)
	detail := map[string]string{}
	for id := range shown {
		detail[id] = v.anchors[id]
	}
	return v, detail, nil
}

// all yields the views of the cases shown in detail; with diffs false, without the
// diffs of their outputs (for the index). An error reading the cases ends it and is kept
// in v.err.
func (v *caseViews) all(diffs bool) iter.Seq[caseView] {
	return func(yield func(caseView) bool) {
		for c, err := range v.r.AllCases() {
			if err != nil {
				v.err = err
				return
			}
			if cv, ok := v.view(c, diffs); ok && !yield(cv) {
				return
			}
		}
	}
}

// view returns c's view, and whether c is shown in detail.
func (v *caseViews) view(c *report.Case, diffs bool) (caseView, bool) {
	cv := caseView{ID: c.ID, Anchor: v.anchors[c.ID], Title: c.Title, Origin: c.Origin, Categories: c.Categories,
		IntendedFound: c.IntendedFound}
	index := map[string]int{} // output text (with "\x00" when not found) -> index in Outputs
	for _, res := range c.Results {
		if res.Summary == nil || v.problems[[2]string{c.ID, res.Extractor}] {
			continue
		}
		rv := resultView{Extractor: res.Extractor, Path: res.Path, Golden: res.Golden, Status: "ok", Reference: v.ref[res.Extractor]}
		if res.KnownDeviation != "" {
			rv.Status = "known"
		}
		rv.Reason = res.KnownDeviation
		key := *res.Summary
		if !res.OK {
			key += "\x00"
		}
		i, ok := index[key]
		if !ok {
			i = len(cv.Outputs)
			index[key] = i
			o := outputView{}
			if diffs {
				o = newOutputView(*c, res)
			}
			cv.Outputs = append(cv.Outputs, o)
		}
		cv.Outputs[i].Results = append(cv.Outputs[i].Results, rv)
	}
	if len(cv.Outputs) == 0 {
		return caseView{}, false
	}
	if diffs {
		cv.Response = newResponseView(c)
	}
	return cv, true
}

func newOutputView(c report.Case, res report.Result) outputView {
	got := ""
	if res.OK {
		got = *res.Summary
	}
	want := ""
	if c.IntendedFound {
		want = c.Intended
	}
	o := outputView{Found: res.OK, IntendedFound: c.IntendedFound, Bytes: len(got), Same: res.OK == c.IntendedFound && got == want}
	if !o.Same {
		o.Diff, o.Dels, o.Adds = sideBySide(want, got)
	}
	return o
}
