package report

import (
	"strings"
)

// caseView is a case shown in detail: its response once, and each distinct output of the
// extractors that keep a summary beside the intended summary.
type caseView struct {
	ID, Anchor, Title, Origin string
	Categories                []string
	Regression                bool
	IntendedFound             bool
	Response                  string
	ResponseBytes             int
	ResponseLines             int
	Outputs                   []outputView
}

// outputView is one output and the extractors that returned it.
type outputView struct {
	Results []resultView
	// Found is false when the extractors found no summary.
	Found bool
	// Same reports an output byte for byte equal to the intended summary.
	Same       bool
	Diff       []diffRow
	Bytes      int
	Dels, Adds int
}

// resultView is one extractor's verdict on a case. Status is regression (a problem of this
// run), known (a deviation known_deviations lists) or ok.
type resultView struct {
	Extractor, Path, Golden string
	Status, Reason          string
	Problems                []Problem
}

// detailedCases returns the cases with a kept summary, those with a regression first, each
// group in report order.
func detailedCases(r *Report, anchors map[string]string) []caseView {
	problems := map[[2]string][]Problem{}
	for _, p := range r.Problems {
		k := [2]string{p.Case, p.Extractor}
		problems[k] = append(problems[k], p)
	}
	var regressions, known []caseView
	for _, c := range r.Cases {
		v := caseView{
			ID: c.ID, Anchor: anchors[c.ID], Title: c.Title, Origin: c.Origin, Categories: c.Categories,
			IntendedFound: c.IntendedFound,
			Response:      strings.ToValidUTF8(c.Response, "\uFFFD"),
			ResponseBytes: len(c.Response),
			ResponseLines: len(splitLines(c.Response)),
		}
		index := map[string]int{} // output text (with "\x00" when not found) -> index in Outputs
		for _, res := range c.Results {
			if res.Summary == nil {
				continue
			}
			rv := resultView{Extractor: res.Extractor, Path: res.Path, Golden: res.Golden, Status: "ok"}
			if ps := problems[[2]string{c.ID, res.Extractor}]; len(ps) > 0 {
				rv.Status, rv.Problems = "regression", ps
				v.Regression = true
			} else if res.KnownDeviation != "" {
				rv.Status = "known"
			}
			rv.Reason = res.KnownDeviation
			key := *res.Summary
			if !res.OK {
				key += "\x00"
			}
			i, ok := index[key]
			if !ok {
				i = len(v.Outputs)
				index[key] = i
				v.Outputs = append(v.Outputs, newOutputView(c, res))
			}
			v.Outputs[i].Results = append(v.Outputs[i].Results, rv)
		}
		switch {
		case len(v.Outputs) == 0:
		case v.Regression:
			regressions = append(regressions, v)
		default:
			known = append(known, v)
		}
	}
	return append(regressions, known...)
}

func newOutputView(c Case, res Result) outputView {
	got := ""
	if res.OK {
		got = *res.Summary
	}
	want := ""
	if c.IntendedFound {
		want = c.Intended
	}
	o := outputView{Found: res.OK, Bytes: len(got), Same: res.OK == c.IntendedFound && got == want}
	if !o.Same {
		o.Diff, o.Dels, o.Adds = sideBySide(want, got)
	}
	return o
}
