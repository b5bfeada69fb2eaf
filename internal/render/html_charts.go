package render

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

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

// lineChart is the coverage curve: per decile the spread of the cases (a box from the
// lower to the upper quartile, the median across it, whiskers to the lowest and highest
// case) and the mean as a line, and the worst cases each as a line of its own.
type lineChart struct {
	ID, Title, Desc string
	W, H            px
	X, Y, PW, PH    px // the plot area
	X2, Y2          px // its right and bottom edges
	XMid, YMid      px
	YTicks, XTicks  []tick
	Boxes           []box
	Worst           []worstLine
	Mean            string
	Points          []point
	XLabel, YLabel  string
	Empty           string
}

// box is one decile's spread over the cases with facts in it.
type box struct {
	X, Left, Right, W      px // the centre, the edges and the width
	Lo, Q1, Med, Q3, Hi, H px // y of the lowest, quartiles, median and highest; H = Q1 - Q3
	Title                  string
}

// worstLine is one of the lowest-covered cases: its curve, colour class and legend text.
type worstLine struct {
	D, Class, Label string
	Points          []point
}

type point struct {
	X, Y         px
	Label, Title string
}

// coverageWorst is how many of the lowest-covered eval cases the coverage chart names.
const coverageWorst = 3

// coverageChart shows the eval coverage curves over the cases, each decile over the cases
// that have facts in it, and names the coverageWorst cases of lowest coverage.
func coverageChart(results []evalRow) *lineChart {
	c := &lineChart{
		ID: "chart-coverage", Title: "Coverage by position before the boundary",
		W: 720, H: 334, X: 64, Y: 24, PW: 630, PH: 250,
		XLabel: "where each fact was last said, in tenths of the summarized messages (oldest → newest)",
		YLabel: "facts the summary holds",
	}
	c.X2, c.Y2, c.XMid, c.YMid = c.X+c.PW, c.Y+c.PH, c.X+c.PW/2, c.Y+c.PH/2
	x := func(d int) px { return c.X + c.PW*(px(d)+0.5)/10 }
	y := func(v float64) px { return c.Y + c.PH*px(1-v) }
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.YTicks = append(c.YTicks, tick{At: y(v), Label: fmt.Sprintf("%d%%", int(v*100))})
	}
	var vals [10][]float64
	for _, r := range results {
		for i, s := range r.Curve {
			if v, ok := s.Value(); ok {
				vals[i] = append(vals[i], v)
			}
		}
	}
	var mean strings.Builder
	pen := false
	bw := c.PW / 10 * 0.44
	for i := range 10 {
		n := len(vals[i])
		c.XTicks = append(c.XTicks, tick{At: x(i), Label: fmt.Sprintf("%d–%d%%", i*10, i*10+10), Sub: fmt.Sprintf("n=%d", n)})
		if n == 0 {
			pen = false
			continue
		}
		vs := append([]float64(nil), vals[i]...)
		sort.Float64s(vs)
		sum := 0.0
		for _, v := range vs {
			sum += v
		}
		m := sum / float64(n)
		q1, med, q3 := quantile(vs, 0.25), quantile(vs, 0.5), quantile(vs, 0.75)
		c.Boxes = append(c.Boxes, box{
			X: x(i), Left: x(i) - bw/2, Right: x(i) + bw/2, W: bw,
			Lo: y(vs[0]), Q1: y(q1), Med: y(med), Q3: y(q3), Hi: y(vs[n-1]), H: y(q1) - y(q3),
			Title: fmt.Sprintf("%d–%d%% of the way, %d cases: lowest %d%%, quartiles %d%%, %d%% and %d%%, highest %d%%",
				i*10, i*10+10, n, pct1000(vs[0]), pct1000(q1), pct1000(med), pct1000(q3), pct1000(vs[n-1])),
		})
		cmd := "L"
		if !pen {
			cmd = "M"
		}
		fmt.Fprintf(&mean, "%s%v %v", cmd, x(i), y(m))
		pen = true
		p := pct1000(m)
		c.Points = append(c.Points, point{X: x(i), Y: y(m), Label: fmt.Sprintf("%d%%", p),
			Title: fmt.Sprintf("%d–%d%% of the way: mean coverage %d%% over %d cases", i*10, i*10+10, p, n)})
	}
	c.Mean = mean.String()
	for k, r := range worstEval(results, coverageWorst) {
		if _, ok := r.Coverage.Value(); !ok {
			break
		}
		w := worstLine{Class: fmt.Sprintf("w%d", k+1),
			Label: fmt.Sprintf("%s: coverage %s", r.ID, share(r.Coverage))}
		var d strings.Builder
		pen := false
		for i, s := range r.Curve {
			v, ok := s.Value()
			if !ok {
				pen = false
				continue
			}
			cmd := "L"
			if !pen {
				cmd = "M"
			}
			fmt.Fprintf(&d, "%s%v %v", cmd, x(i), y(v))
			pen = true
			w.Points = append(w.Points, point{X: x(i), Y: y(v), Title: fmt.Sprintf("%s, %d–%d%% of the way: %d of %d facts", r.ID, i*10, i*10+10, s.Hit, s.Of)})
		}
		w.D = d.String()
		c.Worst = append(c.Worst, w)
	}
	c.Desc = fmt.Sprintf("Box plot over %d eval cases: for each tenth of the summarized messages, from the oldest to the newest, the spread of the share of the facts last said there that each summary holds (box: the middle half of the cases, a line at the median, whiskers to the lowest and highest), the mean as a line, and the %d cases of lowest coverage each as a coloured line.", len(results), len(c.Worst))
	if len(c.Points) == 0 {
		c.Empty = "no eval case has facts before its boundary"
	}
	return c
}

// quantile is the q-quantile of sorted, interpolated between the two nearest values.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	pos := q * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	if lo+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (sorted[lo+1]-sorted[lo])*(pos-float64(lo))
}

// pct1000 is the share v as a whole percentage, rounded as compacteval drift rounds.
func pct1000(v float64) int { return percent(int(math.Round(v*1000)), 1000) }

// maxLabel is the longest label of a bar, in characters; a longer one loses its middle.
const maxLabel = 46

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
func leakageChart(results []evalRow) *hbarChart {
	rs := append([]evalRow(nil), results...)
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
		LabelW: px(float64(longest)*charW + 12), BarMax: 300, RowH: 20, Top: 12,
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

// multiChart is the drift exact rate per operator: small multiples, one SVG per extractor,
// so that the panels wrap to the page's width instead of shrinking.
type multiChart struct {
	ID, Title, Desc string
	Panels          []panel
}

type panel struct {
	ID, Title, Desc string
	Reference       bool
	W, H            px
	LabelW, BarMax  px
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
	panelW              = 320
	panelLabelW         = 122
	panelRowH, panelBar = 15, 10
)

// driftChart draws, for each extractor, the exact rate of every single-operator row as a
// bar and of the matching composed row as a tick; a reference extractor's bars are grey.
func driftChart(m *drift.MatrixResult, ref map[string]bool) *multiChart {
	c := &multiChart{ID: "chart-drift", Title: "Drift: exact recoveries per operator and extractor"}
	rows := []drift.Row{m.Identity}
	rows = append(rows, m.Single...)
	rows = append(rows, m.SingleTotal)
	composed := map[string]drift.Row{"total": m.ComposedTotal}
	for _, r := range m.Composed {
		composed[r.Operator] = r
	}
	barMax := px(panelW - panelLabelW - 44)
	ids := anchors("chart-drift-", m.Extractors)
	for e, name := range m.Extractors {
		p := panel{
			ID: ids[name], Title: name, Reference: ref[name], W: panelW, H: px(24 + panelRowH*len(rows) + 22),
			LabelW: panelLabelW, BarMax: barMax, ValueX: panelW - 2,
		}
		if p.Reference {
			p.Title += " (reference)"
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
		p.Desc = fmt.Sprintf("Bar chart for %s: for each drift operator, the share of its single-operator samples (out of the unambiguous ones) recovered exactly, and a tick with the same share over the composed samples the operator takes part in.", name)
		c.Panels = append(c.Panels, p)
	}
	c.Desc = fmt.Sprintf("Small multiples, one panel per extractor (%s).", strings.Join(m.Extractors, ", "))
	return c
}
