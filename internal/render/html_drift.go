package render

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
	Extractors []driftHead
	Tables     []driftTable
}

// driftHead is an extractor's column group; Reference marks a reference behaviour, whose
// exact rates are shown in grey.
type driftHead struct {
	Name      string
	Reference bool
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

func newDriftView(m *drift.MatrixResult, ref map[string]bool) *driftView {
	v := &driftView{Seed: m.Seed, N: m.N, Pairs: len(m.Pairs)}
	for _, name := range m.Extractors {
		v.Extractors = append(v.Extractors, driftHead{Name: name, Reference: ref[name]})
	}
	single := driftTable{
		Title: "Single operator",
		Note:  fmt.Sprintf("%d samples per operator, the operator applied alone; identity is the unmutated pairs", m.N),
		Rows:  []driftRow{newDriftRow(m.Identity, false, ref)},
	}
	for _, r := range m.Single {
		single.Rows = append(single.Rows, newDriftRow(r, false, ref))
	}
	single.Rows = append(single.Rows, newDriftRow(m.SingleTotal, true, ref))
	composed := driftTable{
		Title: "Composed operators",
		Note:  fmt.Sprintf("%d samples of 2 or 3 operators, each counted under every operator in it", m.ComposedTotal.Samples),
	}
	for _, r := range m.Composed {
		composed.Rows = append(composed.Rows, newDriftRow(r, false, ref))
	}
	composed.Rows = append(composed.Rows, newDriftRow(m.ComposedTotal, true, ref))
	all := m.Total
	all.Operator = "all samples"
	total := driftTable{
		Title: "All samples",
		Note:  "identity, single and composed, each sample counted once",
		Rows:  []driftRow{newDriftRow(all, true, ref)},
	}
	v.Tables = []driftTable{single, composed, total}
	return v
}

func newDriftRow(r drift.Row, total bool, ref map[string]bool) driftRow {
	out := driftRow{Operator: r.Operator, Samples: r.Samples, Ambiguous: r.Ambiguous, Found: r.Found, Total: total}
	unamb := r.Samples - r.Ambiguous
	for _, c := range r.Cells {
		exactClass := rateClass(c.Exact, unamb)
		if ref[c.Extractor] {
			exactClass = "ref"
		}
		out.Cells = append(out.Cells, driftCell{
			Exact: pctCell(c.Exact, unamb), Leak: pctCell(c.Leaked, r.Samples), Lost: pctCell(c.Lost, r.Found),
			ExactClass: exactClass, LeakClass: badClass(c.Leaked, r.Samples), LostClass: badClass(c.Lost, r.Found),
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
