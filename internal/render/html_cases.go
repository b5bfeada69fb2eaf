package render

import "github.com/compacteval/compacteval/report"

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

// detailedCases returns the cases with a kept summary of an extractor without a problem
// on them, in report order.
func detailedCases(r *report.Report, anchors map[string]string) []caseView {
	problems := map[[2]string]bool{}
	for _, p := range r.Problems {
		problems[[2]string{p.Case, p.Extractor}] = true
	}
	ref := map[string]bool{}
	for _, e := range r.Extractors {
		ref[e.Name] = e.Reference != ""
	}
	var known []caseView
	for i := range r.Cases {
		c := &r.Cases[i]
		v := caseView{
			ID: c.ID, Anchor: anchors[c.ID], Title: c.Title, Origin: c.Origin, Categories: c.Categories,
			IntendedFound: c.IntendedFound, Response: newResponseView(c),
		}
		index := map[string]int{} // output text (with "\x00" when not found) -> index in Outputs
		for _, res := range c.Results {
			if res.Summary == nil || problems[[2]string{c.ID, res.Extractor}] {
				continue
			}
			rv := resultView{Extractor: res.Extractor, Path: res.Path, Golden: res.Golden, Status: "ok", Reference: ref[res.Extractor]}
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
				i = len(v.Outputs)
				index[key] = i
				v.Outputs = append(v.Outputs, newOutputView(*c, res))
			}
			v.Outputs[i].Results = append(v.Outputs[i].Results, rv)
		}
		if len(v.Outputs) > 0 {
			known = append(known, v)
		}
	}
	return known
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
