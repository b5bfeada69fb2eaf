package gate

import (
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/report"
)

// Slim returns a copy of r without the texts a baseline does not need (responses,
// intended and actual summaries, the facts each eval case missed and leaked), so that
// the committed baseline stays small.
func Slim(r *report.Report) *report.Report {
	out := *r
	out.Cases = make([]report.Case, len(r.Cases))
	for i, c := range r.Cases {
		c.Response, c.Intended = "", ""
		res := make([]report.Result, len(c.Results))
		for j, x := range c.Results {
			x.Summary = nil
			res[j] = x
		}
		c.Results = res
		out.Cases[i] = c
	}
	out.Eval.Cases = make([]eval.Result, len(r.Eval.Cases))
	for i, e := range r.Eval.Cases {
		e.Missed, e.Leaked, e.Misattributed, e.PreviousSummaryLost = []eval.Fact{}, []eval.Fact{}, []eval.Fact{}, nil
		out.Eval.Cases[i] = e
	}
	return &out
}
