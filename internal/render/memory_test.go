package render

import (
	"fmt"
	"io"
	"iter"
	"runtime"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/report"
)

// generated is a report.CaseSource that makes each case as it is read and holds none: every
// case is shown in detail (seed deviates as listed), with a response of about 25 KB of its
// own. Every step cases read it measures the live heap after a collection.
type generated struct {
	n, step int
	peak    uint64
}

func (g *generated) Len() int { return g.n }

func (g *generated) All() iter.Seq2[*report.Case, error] {
	return func(yield func(*report.Case, error) bool) {
		for i := range g.n {
			if i%g.step == 0 {
				g.measure()
			}
			text := fmt.Sprintf("<summary>case %d\n%s</summary>", i, strings.Repeat(fmt.Sprintf("line %d of case %d\n", i, i), 1000))
			seed, intended := text[:200], text[:300]
			c := &report.Case{ID: fmt.Sprintf("generated/case-%d", i), Title: "a generated case", Categories: []string{"well-formed"},
				Origin: "synthetic", IntendedFound: true, Response: text, Intended: intended,
				Results: []report.Result{
					{Extractor: "seed", OK: true, Path: "last-block", KnownDeviation: "cuts it", Summary: &seed},
					{Extractor: "robust", OK: true, Path: "line-anchored", MatchesIntended: true},
				}}
			if !yield(c, nil) {
				return
			}
		}
		g.measure()
	}
}

func (g *generated) measure() {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	g.peak = max(g.peak, m.HeapAlloc)
}

// TestRenderersHoldOneCase: the renderers of a run (report.json, report.md, report.html) read
// a report's cases one at a time and keep none, so that the live heap while they render 10n
// cases is that of n cases, give or take what grows by the case id alone (the page's anchors):
// well under the 9n x 25 KB more that holding the cases would take. It measures the heap after
// a collection, never time.
func TestRenderersHoldOneCase(t *testing.T) {
	const n = 60
	renderers := []struct {
		name  string
		write func(io.Writer, *report.Report) error
	}{
		{"report.json", report.Write},
		{"report.md", func(w io.Writer, r *report.Report) error {
			md, err := Markdown(r)
			if err == nil {
				_, err = w.Write(md)
			}
			return err
		}},
		{"report.html", WriteHTML},
	}
	for _, rd := range renderers {
		var peak [2]uint64
		for i, cases := range []int{n, 10 * n} {
			g := &generated{n: cases, step: n / 4}
			r := handReport()
			r.Problems = nil
			r.Cases, r.Stored = nil, g
			r.Corpus.Cases = cases
			g.measure() // before: the report without its cases
			base := g.peak
			if err := rd.write(io.Discard, r); err != nil {
				t.Fatalf("%s: %v", rd.name, err)
			}
			peak[i] = g.peak - min(base, g.peak)
		}
		// Holding the cases would add 9n cases of 25 KB: 13 MB.
		if grew := int64(peak[1]) - int64(peak[0]); grew > 2<<20 {
			t.Errorf("%s: the live heap while rendering %d cases is %d KB above that of %d cases (%d KB), want under 2048 KB: the renderer holds cases",
				rd.name, 10*n, grew>>10, n, peak[0]>>10)
		}
	}
}
