package report

import (
	"fmt"
	"strconv"

	"github.com/compacteval/compacteval/fuzz/drift"
)

// driftView is the drift matrix as the tables of compacteval drift: one for single-operator
// rows, one for composed rows, one for all samples.
type driftView struct {
	Seed       int64
	N, Pairs   int
	Extractors []string
	Tables     []driftTable
}

type driftTable struct {
	Title, Note string
	Rows        []driftRow
}

type driftRow struct {
	Operator                  string
	Samples, Ambiguous, Found int
	Total                     bool
	Cells                     []driftCell
}

// driftCell holds one extractor's three percentages on a row, each out of its own base:
// exact over Samples-Ambiguous, leaked over Samples, lost over Found.
type driftCell struct {
	Exact, Leak, Lost                string
	ExactClass, LeakClass, LostClass string
	Title                            string
}

func newDriftView(m *drift.MatrixResult) *driftView {
	v := &driftView{Seed: m.Seed, N: m.N, Pairs: len(m.Pairs), Extractors: m.Extractors}
	single := driftTable{
		Title: "Single operator",
		Note:  fmt.Sprintf("%d samples per operator, the operator applied alone; identity is the unmutated pairs", m.N),
		Rows:  []driftRow{newDriftRow(m.Identity, false)},
	}
	for _, r := range m.Single {
		single.Rows = append(single.Rows, newDriftRow(r, false))
	}
	single.Rows = append(single.Rows, newDriftRow(m.SingleTotal, true))
	composed := driftTable{
		Title: "Composed operators",
		Note:  fmt.Sprintf("%d samples of 2 or 3 operators, each counted under every operator in it", m.ComposedTotal.Samples),
	}
	for _, r := range m.Composed {
		composed.Rows = append(composed.Rows, newDriftRow(r, false))
	}
	composed.Rows = append(composed.Rows, newDriftRow(m.ComposedTotal, true))
	all := m.Total
	all.Operator = "all samples"
	total := driftTable{
		Title: "All samples",
		Note:  "identity, single and composed, each sample counted once",
		Rows:  []driftRow{newDriftRow(all, true)},
	}
	v.Tables = []driftTable{single, composed, total}
	return v
}

func newDriftRow(r drift.Row, total bool) driftRow {
	out := driftRow{Operator: r.Operator, Samples: r.Samples, Ambiguous: r.Ambiguous, Found: r.Found, Total: total}
	unamb := r.Samples - r.Ambiguous
	for _, c := range r.Cells {
		out.Cells = append(out.Cells, driftCell{
			Exact: pctCell(c.Exact, unamb), Leak: pctCell(c.Leaked, r.Samples), Lost: pctCell(c.Lost, r.Found),
			ExactClass: rateClass(c.Exact, unamb), LeakClass: badClass(c.Leaked, r.Samples), LostClass: badClass(c.Lost, r.Found),
			Title: fmt.Sprintf("%s, %s: exact %d of %d, leaked %d of %d, lost %d of %d",
				c.Extractor, r.Operator, c.Exact, unamb, c.Leaked, r.Samples, c.Lost, r.Found),
		})
	}
	return out
}

// pctCell is percent(k, n) as text, a dash when there is nothing to count.
func pctCell(k, n int) string {
	if n == 0 {
		return "–"
	}
	return strconv.Itoa(percent(k, n))
}
