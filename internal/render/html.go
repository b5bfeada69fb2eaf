package render

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"iter"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/report"
)

//go:embed html.tmpl
var htmlSource string

// htmlPage is parsed once; a template that does not parse is a programmer error.
var htmlPage = template.Must(template.New("report.html").Parse(htmlSource))

// allStages are the stages of a complete run, in the order Build runs them.
var allStages = []string{"extract", "golden", "drift", "eval"}

// HTML renders the report as report.html: one self-contained page (inline CSS and SVG, no
// script, nothing fetched) that starts with the verdict, then the totals, the regressions
// (one row per case and extractor, its kinds of trouble as badges, intended and actual
// output side by side; the golden mismatches in the path alone apart), the extractor by
// category and extractor by drift operator tables, the charts, the worst-scored eval cases
// and the known deviations of seed and robust in detail. Reference extractors are marked and
// shown in grey. The same report gives the same bytes. Stages that did not run are said so
// instead of shown empty. The page fits a window 800 px wide: wide tables scroll in their
// own box.
func HTML(r *report.Report) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteHTML writes the page HTML returns to w as it renders it, without holding the page.
func WriteHTML(w io.Writer, r *report.Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	p, err := newPage(r)
	if err != nil {
		return fmt.Errorf("render html: %w", err)
	}
	if err := htmlPage.Execute(bw, p); err != nil {
		return fmt.Errorf("render html: %w", err)
	}
	if p.cases.err != nil {
		return fmt.Errorf("render html: %w", p.cases.err)
	}
	return bw.Flush()
}

// page is what html.tmpl renders; every number is formatted here.
type page struct {
	Complete bool
	Stages   []string
	// Missing are the stages of a complete run that did not run.
	Missing      []string
	LoadProblems int
	Corpus       report.Corpus
	Origins      []labelCount
	Golden       bool // goldens were checked

	Extractors []extractorView
	// CategoryRows are the extractor by category table, a row per category and one for all.
	CategoryRows []categoryRow
	Legend       []legendItem

	Verdict      verdict
	Problems     int
	ProblemKinds []labelCount
	// Rows are the case and extractor pairs that change behaviour, PathRows those whose
	// golden differs in the path alone.
	Rows     []rowView
	PathRows []pathRowView
	// References names the reference extractors; ReferenceNote says what that means.
	References    string
	ReferenceNote string

	Drift *driftView
	Eval  *evalView

	Coverage  *lineChart
	Leakage   *hbarChart
	DriftBars *multiChart

	// NumCases counts the cases shown in detail; CaseIndex yields them without their
	// diffs, for the index, and Cases with them, each read from the report as the page is
	// written.
	NumCases  int
	CaseIndex iter.Seq[caseView]
	Cases     iter.Seq[caseView]
	cases     *caseViews
}

type labelCount struct {
	Label string
	N     int
}

type legendItem struct {
	Class, Label string
}

type extractorView struct {
	Name, Source     string
	Reference        string
	Intended, Cases  int
	Rate, Class      string
	Known            int
	DriftExact       string
	DriftClass       string
	GoldenMismatches int
	Problems         int
}

type categoryRow struct {
	Category string
	Cases    int
	All      bool
	Cells    []rateCell
}

// rateCell is k of n with its percentage and colour class; Title is the cell's tooltip.
type rateCell struct {
	K, N              int
	Pct, Class, Title string
}

func newPage(r *report.Report) (*page, error) {
	p := &page{
		Complete:     r.Complete,
		Stages:       r.Stages,
		LoadProblems: r.Corpus.LoadProblems,
		Corpus:       r.Corpus,
		Golden:       slices.Contains(r.Stages, "golden"),
		Legend:       rateLegend(),
	}
	for _, s := range allStages {
		if !slices.Contains(r.Stages, s) {
			p.Missing = append(p.Missing, s)
		}
	}
	origins := make([]string, 0, len(r.Corpus.Origins))
	for o := range r.Corpus.Origins {
		origins = append(origins, o)
	}
	sort.Strings(origins)
	for _, o := range origins {
		p.Origins = append(p.Origins, labelCount{o, r.Corpus.Origins[o]})
	}

	cases, detail, err := newCaseViews(r) // detail: case id -> its detail section, for cases with a problem
	if err != nil {
		return nil, err
	}
	p.cases, p.NumCases, p.CaseIndex, p.Cases = cases, cases.n, cases.all(false), cases.all(true)
	rows, err := troubleRows(r)
	if err != nil {
		return nil, err
	}
	p.Verdict = newVerdict(r, rows)
	p.Rows, p.PathRows = newRowViews(r, rows, detail)
	p.Problems = len(r.Problems)
	byKind := map[string]int{}
	perExtractor := map[string]int{}
	for _, pr := range r.Problems {
		byKind[pr.Kind]++
		perExtractor[pr.Extractor]++
	}
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		p.ProblemKinds = append(p.ProblemKinds, labelCount{k, byKind[k]})
	}

	drifted := slices.Contains(r.Stages, "drift") && r.Drift.Total.Samples > 0
	var refs []string
	for _, e := range r.Extractors {
		ev := extractorView{
			Name: e.Name, Source: e.Source, Reference: e.Reference, Intended: e.Intended, Cases: e.Cases,
			Rate: rate(e.Intended, e.Cases), Class: rateClass(e.Intended, e.Cases),
			Known: e.KnownDeviations, GoldenMismatches: e.GoldenMismatches, Problems: perExtractor[e.Name],
			DriftExact: "not run",
		}
		if drifted {
			t := r.Drift.Total
			for _, c := range t.Cells {
				if c.Extractor == e.Name {
					ev.DriftExact = rate(c.Exact, t.Samples-t.Ambiguous)
					ev.DriftClass = rateClass(c.Exact, t.Samples-t.Ambiguous)
				}
			}
		}
		if e.Reference != "" {
			ev.Class, ev.DriftClass = "ref", "ref"
			refs = append(refs, e.Name)
		}
		p.Extractors = append(p.Extractors, ev)
	}
	if len(refs) > 0 {
		p.References = referenceWho(refs)
		p.ReferenceNote = referenceNote + ". " + referenceGate
	}
	p.CategoryRows = categoryRows(r)

	if drifted {
		ref := map[string]bool{}
		for _, e := range r.Extractors {
			ref[e.Name] = e.Reference != ""
		}
		p.Drift = newDriftView(&r.Drift, ref)
		p.DriftBars = driftChart(&r.Drift, ref)
	}
	if slices.Contains(r.Stages, "eval") {
		rows, facts, err := evalRows(r)
		if err != nil {
			return nil, err
		}
		worst, err := worstEvalCases(r, rows, worstEvalShown)
		if err != nil {
			return nil, err
		}
		p.Eval = newEvalView(&r.Eval, facts, worst)
		p.Coverage = coverageChart(rows)
		p.Leakage = leakageChart(rows)
	}
	return p, nil
}

// categoryRows returns a row per corpus category, in report order, with each extractor's
// intended matches, then a row for the whole corpus.
func categoryRows(r *report.Report) []categoryRow {
	var rows []categoryRow
	for _, cat := range r.Corpus.Categories {
		row := categoryRow{Category: cat.Category, Cases: cat.Cases}
		for _, e := range r.Extractors {
			k := 0
			for _, c := range e.Categories {
				if c.Category == cat.Category {
					k = c.Intended
				}
			}
			row.Cells = append(row.Cells, newRateCell(k, cat.Cases, fmt.Sprintf("%s on %s", e.Name, cat.Category), e.Reference != ""))
		}
		rows = append(rows, row)
	}
	all := categoryRow{Category: "all cases", Cases: r.Corpus.Cases, All: true}
	for _, e := range r.Extractors {
		all.Cells = append(all.Cells, newRateCell(e.Intended, e.Cases, e.Name+" on all cases", e.Reference != ""))
	}
	return append(rows, all)
}

// newRateCell colours k of n by rateClass, or grey for a reference extractor, whose rate
// is not a score.
func newRateCell(k, n int, what string, reference bool) rateCell {
	c := rateCell{K: k, N: n, Pct: rate(k, n), Class: rateClass(k, n),
		Title: fmt.Sprintf("%s: %d of %d cases return the intended result", what, k, n)}
	if reference {
		c.Class = "ref"
		c.Title += " (a reference behaviour: not a score)"
	}
	return c
}

var nonAnchor = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// anchors maps each of ids to a distinct element id: prefix, then the id's letters, digits,
// "-" and "_", other runs of characters turned into "-".
func anchors(prefix string, ids []string) map[string]string {
	out := map[string]string{}
	used := map[string]bool{}
	for _, id := range ids {
		if _, ok := out[id]; ok {
			continue
		}
		base := prefix + strings.Trim(nonAnchor.ReplaceAllString(id, "-"), "-")
		a := base
		for n := 2; used[a]; n++ {
			a = base + "-" + strconv.Itoa(n)
		}
		used[a] = true
		out[id] = a
	}
	return out
}

// rate formats k/n as a percentage with one decimal, never rounded to 0 or 100 unless it
// is exactly that; "n/a" when n is 0.
func rate(k, n int) string {
	if n == 0 {
		return "n/a"
	}
	p := float64(k) / float64(n) * 100
	s := strconv.FormatFloat(p, 'f', 1, 64)
	switch {
	case k > 0 && s == "0.0":
		s = "0.1"
	case k < n && s == "100.0":
		s = "99.9"
	}
	return s + "%"
}

// rateClass is the colour class of k good results of n: q5 for all of them, q0 to q4 for
// fifths below, na for nothing to count.
func rateClass(k, n int) string {
	switch {
	case n == 0:
		return "na"
	case k >= n:
		return "q5"
	}
	return "q" + strconv.Itoa(min(4, 5*k/n))
}

// badClass colours a share of bad results (leaks, losses): none for zero, b1 to b3 above.
func badClass(k, n int) string {
	switch {
	case n == 0 || k == 0:
		return ""
	case 5*k < n:
		return "b1"
	case 2*k < n:
		return "b2"
	}
	return "b3"
}

func rateLegend() []legendItem {
	return []legendItem{
		{"q0", "under 20%"}, {"q1", "20–39%"}, {"q2", "40–59%"}, {"q3", "60–79%"},
		{"q4", "80–99%"}, {"q5", "100%"}, {"na", "no cases"},
	}
}

// percent is drift.Percent: the rounding compacteval drift prints.
func percent(k, n int) int { return drift.Percent(k, n) }
