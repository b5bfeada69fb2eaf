package review

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"strings"

	"github.com/compacteval/compacteval/internal/render"
)

//go:embed html.tmpl
var htmlSource string

// htmlPage is parsed once; a template that does not parse is a programmer error.
var htmlPage = template.Must(template.New("review.html").Parse(htmlSource))

// htmlContext is the number of unchanged lines kept around a change in a word diff.
const htmlContext = 3

// HTML renders the review as one self-contained page (inline CSS, no script, nothing
// fetched): the verdict, the instruction text and the renders as word diffs with deletions
// and insertions inline, every case whose output changed with base and head side by side
// (render.SideBySide) and head beside intended, the whole drift matrix base and head, and
// every eval case's scores. The same review gives the same bytes.
func HTML(r *Review) ([]byte, error) {
	var buf bytes.Buffer
	if err := htmlPage.Execute(&buf, newHTMLView(r)); err != nil {
		return nil, fmt.Errorf("render html: %w", err)
	}
	return buf.Bytes(), nil
}

type htmlView struct {
	R        *Review
	Corpus   template.HTML
	DiffCSS  template.CSS
	Summary  string
	Instr    *wordDiffView
	Renders  []renderRow
	Groups   []groupView
	Extract  []extractorView
	Drift    *driftView
	Eval     *evalView
	Absent   string
	Settings renderSettings
	// EvalCode is the note that eval/ differs between the revisions, or ""; SameScorer
	// then follows the eval section's first sentence.
	EvalCode   string
	SameScorer string
}

type renderSettings struct {
	Custom, Opening string
	Tail            int
}

type wordDiffView struct {
	Words string // "N words removed, M added."
	Hunks []hunkView
}

type hunkView struct {
	Skipped int
	Lines   []lineView
}

type lineView struct {
	Class string
	No    int
	Runs  []Edit
}

type renderRow struct {
	Name, Label string
	Changed     bool
}

type groupView struct {
	Name    string
	Members string
	Diff    *wordDiffView
}

type extractorView struct {
	ExtractorChange
	Over       bool // more cases moved away than allowed
	Categories []categoryView
}

type categoryView struct {
	Category string
	Cases    []caseView
}

type caseView struct {
	CaseChange
	Anchor       string
	Verdict      string
	BaseHead     template.HTML
	HeadIntended template.HTML
	Dels, Adds   int
}

type driftView struct {
	Seed       int64
	N          int
	Extractors []string
	Rows       []driftRowView
}

type driftRowView struct {
	Name    string
	Total   bool
	Samples int
	Cells   []driftCellView
}

type driftCellView struct {
	Base, Head string
	Changed    bool
	Better     bool
}

// evalView lists the eval cases whose scores changed and counts the others (Total).
type evalView struct {
	Extractor string
	Changed   int
	Total     int
	Cases     []evalRowView
	Score     string
	Coverage  string
	Boundary  string
	ScoDelta  string
	CovDelta  string
	BndDelta  string
}

type evalRowView struct {
	ID                        string
	Score, Coverage, Boundary string
	ScoDelta, CovDelta        string
	BndDelta                  string
	Worse                     bool
}

func newHTMLView(r *Review) *htmlView {
	v := &htmlView{
		R: r, DiffCSS: template.CSS(render.DiffCSS), Summary: r.summaryLine(),
		Settings: renderSettings{Custom: renderCustom, Opening: renderOpening, Tail: renderTail},
		EvalCode: r.evalCodeNote(), SameScorer: sameScorer,
	}
	corpus := fmt.Sprintf("Corpus <code>%s</code>: %s", template.HTMLEscapeString(r.Corpus.Dir), plural(r.Corpus.Cases, "case"))
	if r.Eval != nil {
		corpus += ", " + plural(r.Corpus.EvalCases, "eval case")
	}
	if r.Drift != nil {
		corpus += ", " + plural(r.Corpus.Pairs, "well-formed pair") + " for drift"
	}
	v.Corpus = template.HTML(corpus)
	if r.Instruction.Changed {
		v.Instr = newWordDiffView(r.Instruction.Diff)
	}
	g := renderGroups(r)
	for _, t := range r.Renders {
		v.Renders = append(v.Renders, renderRow{Name: t.Name, Label: g.label(t), Changed: t.Changed})
	}
	for _, grp := range g.list {
		v.Groups = append(v.Groups, groupView{Name: grp.name, Members: strings.Join(grp.members, "; "), Diff: newWordDiffView(grp.diff)})
	}
	var absent []string
	for _, a := range r.Absent {
		absent = append(absent, fmt.Sprintf("%s (only in %s)", a.Profile, a.In))
	}
	v.Absent = strings.Join(absent, ", ")
	for _, ec := range r.Extractors {
		ev := extractorView{ExtractorChange: ec, Over: ec.Away > ec.AllowedAway}
		for _, cat := range ec.Categories {
			cv := categoryView{Category: cat.Category}
			for _, c := range cat.Cases {
				cv.Cases = append(cv.Cases, newCaseView(ec.Name, c))
			}
			ev.Categories = append(ev.Categories, cv)
		}
		v.Extract = append(v.Extract, ev)
	}
	if d := r.Drift; d != nil {
		v.Drift = newDriftView(d)
	}
	if e := r.Eval; e != nil {
		v.Eval = newEvalView(e)
	}
	return v
}

func newWordDiffView(edits []Edit) *wordDiffView {
	w := &wordDiffView{Words: countWords(edits)}
	for _, h := range hunks(wordLines(edits), htmlContext) {
		hv := hunkView{Skipped: h.Skipped}
		for _, l := range h.Lines {
			hv.Lines = append(hv.Lines, lineView{Class: lineClass[l.Kind], No: l.No, Runs: l.marked()})
		}
		w.Hunks = append(w.Hunks, hv)
	}
	return w
}

var lineClass = map[byte]string{' ': "eq", '-': "del", '+': "ins", '!': "chg"}

func newCaseView(extractor string, c CaseChange) caseView {
	cv := caseView{CaseChange: c, Anchor: anchor(extractor + "-" + c.ID)}
	cv.Verdict = map[string]string{
		Toward:  "toward intended",
		Away:    "away from intended",
		Neither: "changed, still not intended",
	}[c.Direction]
	title := func(side string, o Output) string {
		if !o.Found {
			return side + ": no summary"
		}
		return side
	}
	cv.BaseHead, cv.Dels, cv.Adds = render.SideBySide(text(c.Base), text(c.Head), title("base", c.Base), title("head", c.Head))
	if c.Direction != Toward {
		intended := "intended"
		if !c.Intended.Found {
			intended += ": no summary"
		}
		cv.HeadIntended, _, _ = render.SideBySide(text(c.Intended), text(c.Head), intended, title("head", c.Head))
	}
	return cv
}

func text(o Output) string {
	if !o.Found {
		return ""
	}
	return o.Summary
}

// anchor returns an element id made of s's letters, digits, "-" and "_".
func anchor(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return "c-" + b.String()
}

func newDriftView(d *DriftChange) *driftView {
	v := &driftView{Seed: d.Seed, N: d.N, Extractors: d.Extractors}
	for _, row := range d.Rows {
		rv := driftRowView{Name: row.name(), Total: row.Operator == "total" || row.Group == "all", Samples: row.Samples}
		n := row.Samples - row.Ambiguous
		for _, c := range row.Cells {
			rv.Cells = append(rv.Cells, driftCellView{
				Base: pct(c.BaseExact, n), Head: pct(c.HeadExact, n),
				Changed: c.BaseExact != c.HeadExact, Better: c.HeadExact > c.BaseExact,
			})
		}
		v.Rows = append(v.Rows, rv)
	}
	return v
}

func newEvalView(e *EvalChange) *evalView {
	v := &evalView{
		Extractor: e.Extractor, Total: len(e.Cases),
		Score: meanArrow(e.Score), ScoDelta: delta(e.Score.Delta),
		Coverage: meanArrow(e.Coverage), CovDelta: delta(e.Coverage.Delta),
		Boundary: meanArrow(e.BoundaryCoverage), BndDelta: delta(e.BoundaryCoverage.Delta),
	}
	for _, c := range e.Cases {
		if !c.changed() {
			continue
		}
		v.Changed++
		v.Cases = append(v.Cases, evalRowView{
			ID:    c.ID,
			Score: meanArrow(c.Score), ScoDelta: delta(c.Score.Delta),
			Coverage: shareArrow(c.Coverage), CovDelta: delta(c.Coverage.Delta),
			Boundary: shareArrow(c.BoundaryCoverage), BndDelta: delta(c.BoundaryCoverage.Delta),
			Worse: negative(c.Score.Delta) || negative(c.Coverage.Delta) || negative(c.BoundaryCoverage.Delta),
		})
	}
	return v
}

func negative(d *float64) bool { return d != nil && *d < 0 }
