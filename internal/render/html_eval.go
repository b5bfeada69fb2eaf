package render

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/compacteval/compacteval/eval"
)

// worstEvalCases is how many of the lowest-scored eval cases the page lists.
const worstEvalShown = 10

type evalView struct {
	Extractor                  string
	KeepTokens, Window         int
	Cases                      int
	Totals                     []aggregateRow
	Counts                     []labelValue
	Worst                      []evalCaseView
	MissedTotal, LeakedTotal   int
	MisattributedTotal, Listed int
}

type aggregateRow struct {
	Name, Mean, Pooled string
	Cases              int
	Class              string
	LowerIsBetter      bool
}

type labelValue struct {
	Label, Value string
}

type evalCaseView struct {
	ID, Anchor      string
	Path, Extractor string
	Found           bool
	Messages, Cut   int
	Scores          []scoreView
	Sections        string
	Flaws           []string
	Missed, Leaked  []eval.Fact
	Misattributed   []eval.Fact
	// MissedKinds counts the missed facts by kind, most first: "12 identifier, 3 path".
	MissedKinds string
}

// scoreView is a share: Value the percentage, Of the count it is taken of ("3/4").
type scoreView struct {
	Name, Value, Of, Class string
}

func newEvalView(er *eval.Report, facts factTotals, worst []eval.Result) *evalView {
	t := er.Totals
	v := &evalView{Extractor: er.Extractor, KeepTokens: er.KeepTokens, Window: er.BoundaryWindow, Cases: t.Cases}
	agg := func(name string, a eval.Aggregate, lower bool) {
		row := aggregateRow{Name: name, Cases: a.Cases, Mean: "n/a", LowerIsBetter: lower, Class: "na"}
		if a.Mean != nil {
			row.Mean = strconv.FormatFloat(*a.Mean*100, 'f', 1, 64) + "%"
			k := int(*a.Mean*1000 + 0.5)
			if lower {
				k = 1000 - k
			}
			row.Class = rateClass(k, 1000)
		}
		row.Pooled = share(a.Pooled)
		v.Totals = append(v.Totals, row)
	}
	agg("coverage", t.Coverage, false)
	agg("boundary coverage", t.BoundaryCoverage, false)
	agg("tail leakage (lower is better)", t.TailLeakage, true)
	agg("user messages", t.UserMessages, false)
	agg("constraints verbatim", t.ConstraintsVerbatim, false)
	agg("previous summary survival", t.PreviousSummarySurvival, false)
	v.Counts = []labelValue{
		{"summaries found", fmt.Sprintf("%d of %d", t.SummaryFound, t.Cases)},
		{"all nine sections in order", fmt.Sprintf("%d of %d", t.SectionsComplete, t.Cases)},
		{"boundary computed", fmt.Sprintf("%d of %d", t.BoundaryComputed, t.Cases)},
		{"fake user turns before the cut", strconv.Itoa(t.FakeUserTurns)},
		{"of them presented as the user's", strconv.Itoa(t.Misattributed)},
		{"summary tokens / summarized tokens", fmt.Sprintf("%d / %d", t.SummaryTokens, t.SummarizedTokens)},
	}
	v.MissedTotal, v.LeakedTotal, v.MisattributedTotal = facts.missed, facts.leaked, facts.misattributed
	ids := make([]string, len(worst))
	for i, c := range worst {
		ids[i] = c.ID
	}
	anchor := anchors("eval-", ids)
	for _, c := range worst {
		cv := newEvalCaseView(c)
		cv.Anchor = anchor[c.ID]
		v.Worst = append(v.Worst, cv)
	}
	v.Listed = len(v.Worst)
	return v
}

func compareShare(a, b eval.Share) int {
	av, aok := a.Value()
	bv, bok := b.Value()
	switch {
	case aok != bok:
		if aok {
			return -1
		}
		return 1
	case av < bv:
		return -1
	case av > bv:
		return 1
	}
	return 0
}

func newEvalCaseView(r eval.Result) evalCaseView {
	v := evalCaseView{
		ID: r.ID, Path: r.Path, Found: r.Found, Messages: r.Messages, Cut: r.Cut,
		Flaws: r.Flaws, Missed: r.Missed, Leaked: r.Leaked, Misattributed: r.Misattributed,
	}
	score := func(name string, s eval.Share, lower bool) {
		k, n := s.Hit, s.Of
		if lower {
			k = n - k
		}
		v.Scores = append(v.Scores, scoreView{Name: name, Value: rate(s.Hit, s.Of), Of: fmt.Sprintf("%d/%d", s.Hit, s.Of), Class: rateClass(k, n)})
	}
	score("coverage", r.Coverage, false)
	score("boundary coverage", r.BoundaryCoverage, false)
	score("tail leakage", r.TailLeakage, true)
	score("user messages", r.UserMessages, false)
	score("constraints verbatim", r.ConstraintsVerbatim, false)
	if r.PreviousSummarySurvival != nil {
		score("previous summary survival", *r.PreviousSummarySurvival, false)
	}
	v.MissedKinds = kindCounts(r.Missed)
	switch {
	case r.Sections.Complete():
		v.Sections = "all nine, in order"
	case len(r.Sections.Missing) > 0:
		var ns []string
		for _, n := range r.Sections.Missing {
			ns = append(ns, strconv.Itoa(n))
		}
		v.Sections = "missing " + strings.Join(ns, ", ")
		if !r.Sections.InOrder {
			v.Sections += "; out of order"
		}
	default:
		v.Sections = "out of order"
	}
	return v
}

// kindCounts counts facts by kind, the most frequent first, then by kind.
func kindCounts(facts []eval.Fact) string {
	n := map[string]int{}
	var kinds []string
	for _, f := range facts {
		if n[f.Kind] == 0 {
			kinds = append(kinds, f.Kind)
		}
		n[f.Kind]++
	}
	sort.Slice(kinds, func(i, j int) bool {
		if n[kinds[i]] != n[kinds[j]] {
			return n[kinds[i]] > n[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", n[k], k)
	}
	return strings.Join(parts, ", ")
}

// share formats a share as "3/4 (75.0%)", or "0/0 (n/a)".
func share(s eval.Share) string {
	return fmt.Sprintf("%d/%d (%s)", s.Hit, s.Of, rate(s.Hit, s.Of))
}
