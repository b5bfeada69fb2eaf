package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz/drift"
)

// The charts are laid out here and drawn by html.tmpl as inline SVG: every coordinate is a
// px, so that the page prints short, stable numbers.

// px is an SVG coordinate or length, printed with at most one decimal.
type px float64

func (p px) String() string {
	v := math.Round(float64(p)*10) / 10
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// charW is the width of a character of the charts' 11px monospace labels.
const charW = 6.7

type tick struct {
	At         px
	Label, Sub string
}

// lineChart is the coverage curve: the mean per decile, and a faint line per case.
type lineChart struct {
	ID, Title, Desc string
	W, H            px
	X, Y, PW, PH    px // the plot area
	X2, Y2          px // its right and bottom edges
	XMid, YMid      px
	YTicks, XTicks  []tick
	Cases           []polyline
	Mean            string
	Points          []point
	XLabel, YLabel  string
	Empty           string
}

type polyline struct {
	D, Title string
}

type point struct {
	X, Y         px
	Label, Title string
}

// coverageChart averages the eval coverage curves over the cases, each decile over the
// cases that have facts in it.
func coverageChart(results []eval.Result) *lineChart {
	c := &lineChart{
		ID: "chart-coverage", Title: "Coverage by position before the boundary",
		W: 760, H: 334, X: 64, Y: 24, PW: 660, PH: 250,
		XLabel: "where each fact was last said, in tenths of the summarized messages (oldest → newest)",
		YLabel: "facts the summary holds",
	}
	c.X2, c.Y2, c.XMid, c.YMid = c.X+c.PW, c.Y+c.PH, c.X+c.PW/2, c.Y+c.PH/2
	x := func(d int) px { return c.X + c.PW*(px(d)+0.5)/10 }
	y := func(v float64) px { return c.Y + c.PH*px(1-v) }
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.YTicks = append(c.YTicks, tick{At: y(v), Label: fmt.Sprintf("%d%%", int(v*100))})
	}
	var sum [10]float64
	var n [10]int
	for _, r := range results {
		var d strings.Builder
		pen := false
		for i, s := range r.CoverageCurve {
			v, ok := s.Value()
			if !ok {
				pen = false
				continue
			}
			sum[i] += v
			n[i]++
			cmd := "L"
			if !pen {
				cmd = "M"
			}
			fmt.Fprintf(&d, "%s%v %v", cmd, x(i), y(v))
			pen = true
		}
		if d.Len() > 0 {
			c.Cases = append(c.Cases, polyline{D: d.String(), Title: r.ID})
		}
	}
	var mean strings.Builder
	pen := false
	for i := range 10 {
		c.XTicks = append(c.XTicks, tick{At: x(i), Label: fmt.Sprintf("%d–%d%%", i*10, i*10+10), Sub: fmt.Sprintf("n=%d", n[i])})
		if n[i] == 0 {
			pen = false
			continue
		}
		v := sum[i] / float64(n[i])
		cmd := "L"
		if !pen {
			cmd = "M"
		}
		fmt.Fprintf(&mean, "%s%v %v", cmd, x(i), y(v))
		pen = true
		p := percent(int(math.Round(v*1000)), 1000)
		c.Points = append(c.Points, point{X: x(i), Y: y(v), Label: fmt.Sprintf("%d%%", p),
			Title: fmt.Sprintf("%d–%d%% of the way: mean coverage %d%% over %d cases", i*10, i*10+10, p, n[i])})
	}
	c.Mean = mean.String()
	c.Desc = fmt.Sprintf("Line chart over %d eval cases: for each tenth of the summarized messages, from the oldest to the newest, the mean share of the facts last said there that the summary holds (cases without facts in a tenth are left out of its mean); a faint line per case.", len(results))
	if len(c.Points) == 0 {
		c.Empty = "no eval case has facts before its boundary"
	}
	return c
}

// maxLabel is the longest label of a bar, in characters; a longer one loses its middle.
const maxLabel = 90

// shorten returns s with its middle replaced by "…" if it is longer than n runes.
func shorten(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	head := (n - 1) / 2
	return string(rs[:head]) + "…" + string(rs[len(rs)-(n-1-head):])
}

// hbarChart is the tail leakage of each eval case, as horizontal bars.
type hbarChart struct {
	ID, Title, Desc string
	W, H            px
	LabelW, BarX    px
	BarMax, RowH    px
	Top, AxisY      px
	// TickY and LabelY are the baselines of the tick labels and of XLabel; LabelX its centre.
	TickY, LabelY, LabelX px
	Ticks                 []tick
	Bars                  []hbar
	XLabel                string
	Empty                 string
}

type hbar struct {
	Y, W, TextX, TextY px
	Label, Value       string
	Title              string
	NA                 bool
}

// leakageChart lists the eval cases by tail leakage, highest first; cases without tail-only
// facts come last, marked n/a.
func leakageChart(results []eval.Result) *hbarChart {
	rs := append([]eval.Result(nil), results...)
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i].TailLeakage, rs[j].TailLeakage
		_, aok := a.Value()
		_, bok := b.Value()
		if aok != bok {
			return aok
		}
		if c := compareShare(a, b); c != 0 {
			return c > 0
		}
		return rs[i].ID < rs[j].ID
	})
	longest := 0
	for _, r := range rs {
		longest = max(longest, len([]rune(shorten(r.ID, maxLabel))))
	}
	c := &hbarChart{
		ID: "chart-leakage", Title: "Tail leakage per eval case",
		LabelW: px(float64(longest)*charW + 12), BarMax: 420, RowH: 20, Top: 12,
		XLabel: "share of the tail-only facts the summary re-tells (lower is better)",
	}
	c.BarX = c.LabelW + 8
	c.W = c.BarX + c.BarMax + 130
	c.AxisY = c.Top + c.RowH*px(len(rs))
	c.H = c.AxisY + 44
	c.TickY, c.LabelY, c.LabelX = c.AxisY+14, c.AxisY+34, c.BarX+c.BarMax/2
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.Ticks = append(c.Ticks, tick{At: c.BarX + c.BarMax*px(v), Label: fmt.Sprintf("%d%%", int(v*100))})
	}
	for i, r := range rs {
		b := hbar{Y: c.Top + c.RowH*px(i) + 4, TextY: c.Top + c.RowH*px(i) + 14, Label: shorten(r.ID, maxLabel)}
		v, ok := r.TailLeakage.Value()
		if ok {
			b.W = c.BarMax * px(v)
			b.Value = fmt.Sprintf("%d%% (%d/%d)", percent(r.TailLeakage.Hit, r.TailLeakage.Of), r.TailLeakage.Hit, r.TailLeakage.Of)
		} else {
			b.NA, b.Value = true, "n/a: no tail-only facts"
		}
		b.TextX = c.BarX + b.W + 6
		b.Title = r.ID + ": " + b.Value
		c.Bars = append(c.Bars, b)
	}
	c.Desc = fmt.Sprintf("Horizontal bar chart: for each of %d eval cases, the share of the facts found only in the kept tail that its summary re-tells, highest first.", len(rs))
	if len(rs) == 0 {
		c.Empty = "no eval cases"
		c.H = 60
	}
	return c
}

// multiChart is the drift exact rate per operator, one small panel per extractor.
type multiChart struct {
	ID, Title, Desc string
	W, H            px
	Panels          []panel
	// LegendY is the baseline of the legend above the panels; LegendBoxY and LegendTickY
	// the tops of its bar and tick.
	LegendY, LegendBoxY, LegendTickY px
}

type panel struct {
	X, Y           px
	Title          string
	LabelW, BarMax px
	// ValueX is the right edge of the column of percentages.
	ValueX       px
	Rows         []panelRow
	AxisY, TickY px
	Ticks        []tick
}

type panelRow struct {
	Y, TextY, W px
	Label       string
	Value       string
	Total       bool
	// Composed, when set, is the x of the composed row's exact rate.
	HasComposed     bool
	Composed, TickY px
	Title           string
}

const (
	panelW, panelGap    = 320, 24
	panelLabelW         = 122
	panelRowH, panelBar = 15, 10
	panelCols           = 4
)

// driftChart draws, for each extractor, the exact rate of every single-operator row as a
// bar and of the matching composed row as a tick.
func driftChart(m *drift.MatrixResult) *multiChart {
	c := &multiChart{ID: "chart-drift", Title: "Drift: exact recoveries per operator and extractor", LegendY: 16, LegendBoxY: 7, LegendTickY: 5}
	cols := min(panelCols, len(m.Extractors))
	rows := []drift.Row{m.Identity}
	rows = append(rows, m.Single...)
	rows = append(rows, m.SingleTotal)
	composed := map[string]drift.Row{"total": m.ComposedTotal}
	for _, r := range m.Composed {
		composed[r.Operator] = r
	}
	panelH := px(24 + panelRowH*len(rows) + 26)
	top := px(30)
	barMax := px(panelW - panelLabelW - 44)
	for e, name := range m.Extractors {
		p := panel{
			X: px(e%cols) * (panelW + panelGap), Y: top + px(e/cols)*(panelH+16),
			Title: name, LabelW: panelLabelW, BarMax: barMax, ValueX: panelW - 2,
		}
		for i, r := range rows {
			unamb := r.Samples - r.Ambiguous
			exact := 0
			if e < len(r.Cells) {
				exact = r.Cells[e].Exact
			}
			y := px(24 + panelRowH*i)
			pr := panelRow{Y: y + 2, TextY: y + 11, Label: r.Operator, Total: i == len(rows)-1}
			if pr.Total {
				pr.Label = "all single"
			}
			if unamb > 0 {
				pr.W = barMax * px(exact) / px(unamb)
				pr.Value = fmt.Sprintf("%d%%", percent(exact, unamb))
			} else {
				pr.Value = "–"
			}
			pr.Title = fmt.Sprintf("%s, %s alone: exact %d of %d", name, r.Operator, exact, unamb)
			if cr, ok := composed[r.Operator]; ok && i > 0 && e < len(cr.Cells) && cr.Samples > cr.Ambiguous {
				cu := cr.Samples - cr.Ambiguous
				pr.HasComposed = true
				pr.Composed = panelLabelW + barMax*px(cr.Cells[e].Exact)/px(cu) - 1
				pr.TickY = pr.Y - 2
				pr.Title += fmt.Sprintf("; composed: exact %d of %d", cr.Cells[e].Exact, cu)
			}
			p.Rows = append(p.Rows, pr)
		}
		p.AxisY = px(24 + panelRowH*len(rows) + 2)
		p.TickY = p.AxisY + 13
		for _, v := range []int{0, 50, 100} {
			p.Ticks = append(p.Ticks, tick{At: panelLabelW + barMax*px(v)/100, Label: fmt.Sprintf("%d%%", v)})
		}
		c.Panels = append(c.Panels, p)
	}
	n := len(m.Extractors)
	c.W = px(cols)*(panelW+panelGap) - panelGap
	c.H = top + px((n+cols-1)/max(cols, 1))*(panelH+16)
	c.Desc = fmt.Sprintf("Small multiples, one panel per extractor (%s): for each drift operator, a bar with the share of its single-operator samples (out of the unambiguous ones) that the extractor recovers exactly, and a tick with the same share over the composed samples the operator takes part in.", strings.Join(m.Extractors, ", "))
	return c
}
