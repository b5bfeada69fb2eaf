package review

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/compacteval/compacteval/internal/gate"
	"github.com/compacteval/compacteval/internal/render"
)

// Limits that keep a Markdown review within a pull-request comment (GitHub takes 65,536
// characters); the HTML page and the JSON document hold everything.
const (
	mdCasesPerExtractor = 20 // changed cases shown with their diff, per extractor
	mdDiffLines         = 40 // lines of one diff
	mdTextDiffLines     = 80 // lines of the instruction's diff
	mdContext           = 1  // unchanged lines around a change
	mdRegressionRows    = 40 // rows of each table of regressions
)

// Markdown writes the review for a pull-request comment: the verdict, the word diffs of the
// instruction and the renders (renders with the same change are shown once), the cases whose
// output changed by extractor and category with a word diff of base and head, the drift rows
// that changed and the eval cases whose score changed. Word diffs read as in git diff
// --word-diff: [-removed-]{+added+}, on lines marked "!"; whole lines are marked - and +.
func Markdown(w io.Writer, r *Review) error {
	m := &mdWriter{}
	m.header(r)
	if n := r.evalCodeNote(); n != "" {
		m.p("**Note:** %s.\n\n", n)
	}
	m.texts(r)
	m.extractors(r)
	m.drift(r)
	m.eval(r)
	if len(r.Notes) > 0 {
		m.p("### Notes\n")
		for _, n := range r.Notes {
			m.p("- %s\n", n)
		}
		m.p("\n")
	}
	_, err := io.WriteString(w, strings.TrimRight(m.String(), "\n")+"\n")
	return err
}

type mdWriter struct{ strings.Builder }

func (m *mdWriter) p(format string, args ...any) { fmt.Fprintf(m, format, args...) }

func (m *mdWriter) header(r *Review) {
	m.p("## compacteval review\n\n")
	m.p("| | version | extractor profiles |\n| --- | --- | --- |\n")
	for _, v := range []*Version{r.Base, r.Head} {
		profiles := "none"
		if len(v.Profiles) > 0 {
			profiles = strings.Join(v.Profiles, ", ")
		}
		m.p("| %s | %s | %s |\n", v.Label, cell(v.Desc), profiles)
	}
	m.p("\nCorpus `%s`: %s", r.Corpus.Dir, plural(r.Corpus.Cases, "case"))
	if r.Eval != nil {
		m.p(", %s", plural(r.Corpus.EvalCases, "eval case"))
	}
	if r.Drift != nil {
		m.p(", %s for drift", plural(r.Corpus.Pairs, "well-formed pair"))
	}
	m.p(".\n\n")
	if r.Passed() {
		m.p("**Nothing regressed.**")
		if s := r.summaryLine(); s != "" {
			m.p(" %s", s)
		}
		m.p("\n\n")
		return
	}
	// The gate's arrangement: a row per case and extractor, each allowance said once.
	t := gate.Arrange(r.Regressions)
	m.p("**%s:** %s.\n\n", plural(len(r.Regressions), "regression"), t.Summary())
	var b strings.Builder
	gate.WriteTable(&b, t, gate.TableOptions{MaxRows: mdRegressionRows, More: "in the HTML review", Heading: "####"})
	m.p("%s\n", strings.TrimRight(b.String(), "\n")+"\n")
}

// summaryLine says in one sentence what changed.
func (r *Review) summaryLine() string {
	var parts []string
	if r.Instruction.Changed {
		parts = append(parts, "the instruction text changed")
	}
	n := 0
	for _, t := range r.Renders {
		if t.Changed {
			n++
		}
	}
	if n > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d rendered texts changed", n, len(r.Renders)))
	}
	for _, ec := range r.Extractors {
		if ec.Changed > 0 {
			parts = append(parts, fmt.Sprintf("%s changed on %s (%d toward intended, %d away, %d neither)", ec.Name, plural(ec.Changed, "case"), ec.Toward, ec.Away, ec.Neither))
		}
	}
	if d := r.Drift; d != nil {
		parts = append(parts, d.summary()...)
	}
	if e := r.Eval; e != nil {
		changed := 0
		for _, c := range e.Cases {
			if c.changed() {
				changed++
			}
		}
		if changed > 0 {
			parts = append(parts, fmt.Sprintf("%d of %s scored differently (mean coverage %s)", changed, plural(len(e.Cases), "eval case"), meanArrow(e.Coverage)))
		}
	}
	if len(parts) == 0 {
		return "Nothing changed."
	}
	s := strings.Join(parts, "; ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// summary says, per extractor, how its drift outcomes changed: the share of all samples
// it recovers exactly, or that only its leaked or lost samples changed.
func (d *DriftChange) summary() []string {
	var parts []string
	all := d.Rows[len(d.Rows)-1]
	n := all.Samples - all.Ambiguous
	for i, name := range d.Extractors {
		changed := false
		for _, row := range d.Rows {
			c := row.Cells[i]
			changed = changed || c.BaseExact != c.HeadExact || c.BaseLeaked != c.HeadLeaked || c.BaseLost != c.HeadLost
		}
		switch c := all.Cells[i]; {
		case !changed:
		case c.BaseExact != c.HeadExact:
			parts = append(parts, fmt.Sprintf("%s recovers %s of the drift samples exactly", name, arrow(pct(c.BaseExact, n), pct(c.HeadExact, n))))
		default:
			parts = append(parts, fmt.Sprintf("%s's drift outcomes changed, not its exact recoveries (%s)", name, pct(c.HeadExact, n)))
		}
	}
	return parts
}

func (m *mdWriter) texts(r *Review) {
	m.p("### Instruction text\n\n")
	ins := r.Instruction
	switch {
	case ins.Note != "":
		m.p("Not compared: %s.\n\n", ins.Note)
	case !ins.Changed:
		m.p("Unchanged (%d bytes).\n\n", len(ins.base))
	default:
		m.p("%s\n\n", countWords(ins.Diff))
		m.diff(ins.Diff, mdTextDiffLines)
	}
	if len(r.Renders) == 0 {
		return
	}
	m.p("### Rendered texts\n\n")
	m.p("Each reason with and without custom instructions (%q) and a kept tail of %d messages opening %q; the continuation summary with and without a transcript path.\n\n", renderCustom, renderTail, renderOpening)
	groups := renderGroups(r)
	if !anyRenderDiffers(r.Renders) {
		m.p("All %d unchanged.\n\n", len(r.Renders))
		return
	}
	m.p("| text | change |\n| --- | --- |\n")
	for _, t := range r.Renders {
		m.p("| %s | %s |\n", t.Name, cell(groups.label(t)))
	}
	m.p("\n")
	for _, g := range groups.list {
		m.p("**Change %s** (%s): %s\n\n", g.name, strings.Join(g.members, "; "), countWords(g.diff))
		m.diff(g.diff, mdTextDiffLines)
	}
}

func anyRenderDiffers(ts []TextChange) bool {
	for _, t := range ts {
		if t.Changed || t.Note != "" {
			return true
		}
	}
	return false
}

// countWords says how much a diff removes and adds.
func countWords(diff []Edit) string {
	var del, ins int
	for _, e := range diff {
		n := len(strings.Fields(e.Text))
		switch e.Op {
		case "-":
			del += max(n, 1)
		case "+":
			ins += max(n, 1)
		}
	}
	return fmt.Sprintf("%s removed, %s added.", plural(del, "word"), plural(ins, "word"))
}

// diff writes a word diff as a fenced diff block of at most limit lines.
func (m *mdWriter) diff(edits []Edit, limit int) {
	hs := hunks(wordLines(edits), mdContext)
	var body strings.Builder
	n := 0
	for _, h := range hs {
		if n >= limit {
			break
		}
		no := 0
		if len(h.Lines) > 0 {
			no = h.Lines[0].No
		}
		fmt.Fprintf(&body, "@@ line %d @@\n", no)
		for _, l := range h.Lines {
			if n >= limit {
				break
			}
			n++
			switch l.Kind {
			case '-', '+':
				body.WriteString(string(l.Kind) + l.plain() + "\n")
			case ' ':
				body.WriteString(" " + l.plain() + "\n")
			default:
				body.WriteString("!")
				for _, run := range l.marked() {
					switch run.Op {
					case "-":
						body.WriteString("[-" + run.Text + "-]")
					case "+":
						body.WriteString("{+" + run.Text + "+}")
					default:
						body.WriteString(run.Text)
					}
				}
				body.WriteString("\n")
			}
		}
	}
	total := 0
	for _, h := range hs {
		total += len(h.Lines)
	}
	if total > n {
		fmt.Fprintf(&body, "… %d more lines in the HTML review\n", total-n)
	}
	fence := render.Fence(body.String())
	m.p("%sdiff\n%s%s\n\n", fence, body.String(), fence)
}

func (m *mdWriter) extractors(r *Review) {
	if len(r.Extractors) == 0 {
		return
	}
	m.p("### Extractors on the corpus\n\n")
	m.p("| extractor | cases changed | toward intended | away from intended | neither | intended, base → head |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, ec := range r.Extractors {
		away := strconv.Itoa(ec.Away)
		if ec.Away > ec.AllowedAway {
			away = "**" + away + "**"
		}
		m.p("| %s | %d | %d | %s | %d | %d → %d of %d |\n", ec.Name, ec.Changed, ec.Toward, away, ec.Neither, ec.BaseIntended, ec.HeadIntended, ec.Cases)
	}
	m.p("\n")
	if len(r.Absent) > 0 {
		var parts []string
		for _, a := range r.Absent {
			parts = append(parts, fmt.Sprintf("%s (only in %s)", a.Profile, a.In))
		}
		m.p("Not compared, absent from one version: %s.\n\n", strings.Join(parts, ", "))
	}
	for _, ec := range r.Extractors {
		if ec.Changed == 0 {
			continue
		}
		m.p("#### %s\n\n", ec.Name)
		shown := 0
		var rest []string
		for _, cat := range ec.Categories {
			m.p("**%s** (%d)\n\n", cat.Category, len(cat.Cases))
			for _, c := range cat.Cases {
				if shown >= mdCasesPerExtractor {
					rest = append(rest, "`"+c.ID+"` ("+c.Direction+")")
					continue
				}
				shown++
				m.caseChange(c)
			}
		}
		if len(rest) > 0 {
			m.p("%d more, in the HTML review: %s.\n\n", len(rest), strings.Join(rest, ", "))
		}
	}
}

func (m *mdWriter) caseChange(c CaseChange) {
	verdict := map[string]string{
		Toward:  "**toward intended**: base deviated, head returns the intended result",
		Away:    "**away from intended**: base returned the intended result, head deviates",
		Neither: "neither: both deviate from intended, differently",
	}[c.Direction]
	m.p("- `%s` %s — %s. Base: %s; head: %s.\n\n", c.ID, cell(c.Title), verdict, describe(c.Base), describe(c.Head))
	switch {
	case !c.Base.Found || !c.Head.Found:
		// The description says it all: one side found nothing.
	default:
		m.p("  <details><summary>base → head</summary>\n\n")
		var b strings.Builder
		sub := &mdWriter{}
		sub.diff(WordDiff(c.Base.Summary, c.Head.Summary), mdDiffLines)
		for _, line := range strings.SplitAfter(sub.String(), "\n") {
			if strings.TrimSpace(line) != "" {
				b.WriteString("  ")
			}
			b.WriteString(line)
		}
		m.p("%s  </details>\n\n", b.String())
	}
}

func describe(o Output) string {
	if !o.Found {
		return "no summary"
	}
	return fmt.Sprintf("%s, %s", plural(len(o.Summary), "byte"), plural(len(splitLines(o.Summary)), "line"))
}

func (m *mdWriter) drift(r *Review) {
	d := r.Drift
	if d == nil {
		return
	}
	m.p("### Drift\n\n")
	all := d.Rows[len(d.Rows)-1]
	m.p("Seed %d, %d samples per operator, %d samples in all; the share of samples each extractor recovers exactly, base → head.\n\n", d.Seed, d.N, all.Samples)
	var changed []DriftRow
	for _, row := range d.Rows {
		if row.Group != "all" && rowChanged(row) {
			changed = append(changed, row)
		}
	}
	if len(changed) == 0 && !rowChanged(all) {
		m.p("No change: every extractor recovers, leaks and loses the same samples.\n\n")
	}
	m.p("| operator | samples |")
	for _, e := range d.Extractors {
		m.p(" %s |", e)
	}
	m.p("\n| --- | ---: |%s\n", strings.Repeat(" ---: |", len(d.Extractors)))
	for _, row := range append(changed, all) {
		name := row.name()
		if row.Group == "all" {
			name = "**" + name + "**"
		}
		m.p("| %s | %d |", name, row.Samples)
		n := row.Samples - row.Ambiguous
		for _, c := range row.Cells {
			m.p(" %s |", arrow(pct(c.BaseExact, n), pct(c.HeadExact, n)))
		}
		m.p("\n")
	}
	m.p("\n")
}

// name names a row: an operator applied alone, or a total.
func (row DriftRow) name() string {
	switch {
	case row.Group == "all":
		return "all samples"
	case row.Operator != "total":
		return row.Operator
	case row.Group == "single":
		return "total, one operator"
	}
	return "total, 2 or 3 operators"
}

func rowChanged(row DriftRow) bool {
	for _, c := range row.Cells {
		if c.BaseExact != c.HeadExact || c.BaseLeaked != c.HeadLeaked || c.BaseLost != c.HeadLost {
			return true
		}
	}
	return false
}

func arrow(b, h string) string {
	if b == h {
		return b
	}
	return b + " → " + h
}

// pct formats k/n as a percentage with one decimal, never rounded to 0 or 100 unless it is
// exactly that; "n/a" when n is 0.
func pct(k, n int) string {
	if n == 0 {
		return "n/a"
	}
	s := strconv.FormatFloat(float64(k)/float64(n)*100, 'f', 1, 64)
	switch {
	case k > 0 && s == "0.0":
		s = "0.1"
	case k < n && s == "100.0":
		s = "99.9"
	}
	return s + "%"
}

func (m *mdWriter) eval(r *Review) {
	e := r.Eval
	if e == nil {
		return
	}
	m.p("### Eval (%s extractor)\n\n", e.Extractor)
	var changed []EvalCase
	for _, c := range e.Cases {
		if c.changed() {
			changed = append(changed, c)
		}
	}
	if len(changed) == 0 {
		m.p("No eval score changed on the %s.", plural(len(e.Cases), "eval case"))
	} else {
		m.p("%d of %s changed", len(changed), plural(len(e.Cases), "eval case"))
		if rest := len(e.Cases) - len(changed); rest > 0 {
			m.p("; the other %d have the same scores", rest)
		}
		m.p(".")
	}
	if r.evalCodeNote() != "" {
		m.p(" %s", sameScorer)
	}
	m.p("\n\n")
	m.p("| case | score | Δ | coverage | Δ | boundary coverage | Δ |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, c := range changed {
		m.p("| `%s` | %s | %s | %s | %s | %s | %s |\n", c.ID, meanArrow(c.Score), delta(c.Score.Delta), shareArrow(c.Coverage), delta(c.Coverage.Delta), shareArrow(c.BoundaryCoverage), delta(c.BoundaryCoverage.Delta))
	}
	m.p("| **mean** | %s | %s | %s | %s | %s | %s |\n\n", meanArrow(e.Score), delta(e.Score.Delta), meanArrow(e.Coverage), delta(e.Coverage.Delta), meanArrow(e.BoundaryCoverage), delta(e.BoundaryCoverage.Delta))
}

// sameScorer follows the eval section's first sentence when eval/ differs.
const sameScorer = "Both sides were scored with head's eval code, although eval/ differs (see the note above)."

// evalCodeNote is the note that eval/ differs between the revisions, or "".
func (r *Review) evalCodeNote() string {
	if r.EvalCode == nil || !r.EvalCode.Differs {
		return ""
	}
	return r.EvalCode.Note
}

func (c EvalCase) changed() bool {
	return c.BaseFound != c.HeadFound || !sameFloat(c.Score.Base, c.Score.Head) ||
		c.Coverage.Base != c.Coverage.Head || c.BoundaryCoverage.Base != c.BoundaryCoverage.Head
}

func shareArrow(s ShareChange) string {
	f := func(x interface{ Value() (float64, bool) }) string {
		if v, ok := x.Value(); ok {
			return strconv.FormatFloat(v, 'f', 4, 64)
		}
		return "-"
	}
	return arrow(f(s.Base), f(s.Head))
}

func meanArrow(m MeanChange) string {
	f := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return strconv.FormatFloat(*p, 'f', 4, 64)
	}
	return arrow(f(m.Base), f(m.Head))
}

func delta(d *float64) string {
	if d == nil {
		return "-"
	}
	if *d == 0 {
		return "0"
	}
	return strconv.FormatFloat(*d, 'f', 4, 64)
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// sameFloat reports whether two optional values are equal: both nil, or both set and equal.
func sameFloat(a, b *float64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
