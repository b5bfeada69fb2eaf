package render

import (
	"fmt"
	"sort"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/report"
)

// evalRow is what the reports keep of each eval case while they read them one at a time
// (report.AllEvalCases): its id and the shares they sort and chart, not its facts.
type evalRow struct {
	ID                                      string
	Coverage, BoundaryCoverage, TailLeakage eval.Share
	Curve                                   [10]eval.Share
	at                                      int // its place among the report's eval cases
}

func rowOf(at int, r *eval.Result) evalRow {
	return evalRow{ID: r.ID, Coverage: r.Coverage, BoundaryCoverage: r.BoundaryCoverage, TailLeakage: r.TailLeakage,
		Curve: r.CoverageCurve, at: at}
}

// rowsOf returns the rows of results.
func rowsOf(results []eval.Result) []evalRow {
	rows := make([]evalRow, len(results))
	for i := range results {
		rows[i] = rowOf(i, &results[i])
	}
	return rows
}

// factTotals counts the facts of every eval case: missed, tail-only re-told, misattributed.
type factTotals struct{ missed, leaked, misattributed int }

// evalRows reads the report's eval cases once: a row of each, and their facts counted.
func evalRows(r *report.Report) ([]evalRow, factTotals, error) {
	rows := make([]evalRow, 0, r.NumEvalCases())
	var t factTotals
	for c, err := range r.AllEvalCases() {
		if err != nil {
			return nil, t, err
		}
		rows = append(rows, rowOf(len(rows), c))
		t.missed += len(c.Missed)
		t.leaked += len(c.Leaked)
		t.misattributed += len(c.Misattributed)
	}
	return rows, t, nil
}

// evalCases returns the report's eval cases of rows, in the order of rows, reading them
// once more.
func evalCases(r *report.Report, rows []evalRow) ([]eval.Result, error) {
	want := map[int]int{}
	for i, row := range rows {
		want[row.at] = i
	}
	out := make([]eval.Result, len(rows))
	at, found := 0, 0
	for c, err := range r.AllEvalCases() {
		if err != nil {
			return nil, err
		}
		if i, ok := want[at]; ok {
			out[i] = *c
			found++
		}
		at++
		if found == len(rows) {
			break
		}
	}
	if found < len(rows) {
		return nil, fmt.Errorf("read the eval cases: %d of the %d listed are missing", len(rows)-found, len(rows))
	}
	return out, nil
}

// worstEval returns up to n rows with the lowest coverage, then boundary coverage, then
// by id; an undefined share sorts after every value.
func worstEval(rows []evalRow, n int) []evalRow {
	rs := append([]evalRow(nil), rows...)
	sort.SliceStable(rs, func(i, j int) bool {
		if c := compareShare(rs[i].Coverage, rs[j].Coverage); c != 0 {
			return c < 0
		}
		if c := compareShare(rs[i].BoundaryCoverage, rs[j].BoundaryCoverage); c != 0 {
			return c < 0
		}
		return rs[i].ID < rs[j].ID
	})
	return rs[:min(n, len(rs))]
}

// worstEvalCases returns the report's n worst-scored eval cases (worstEval), whole.
func worstEvalCases(r *report.Report, rows []evalRow, n int) ([]eval.Result, error) {
	return evalCases(r, worstEval(rows, n))
}
