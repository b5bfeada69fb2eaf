package abtest

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// MarkdownLimit is the most characters Markdown writes: a pull-request comment holds
// 65,536, and the action adds a marker and a link. What does not fit is left out, and the
// Markdown says so: the HTML and the JSON hold everything.
const MarkdownLimit = 60000

// factsShown is how many facts gained or lost the Markdown lists per input and way.
const factsShown = 8

// diffLinesShown is how many lines of a word diff the Markdown shows per input.
const diffLinesShown = 40

// lostShown is how many lost summaries and inputs not scored the Markdown lists.
const lostShown = 30

// Headline returns the verdict as the first line of a rendering says it: the mean
// difference of the headline score with base's value and the change relative to it, and
// the interval.
func (r *Result) Headline() string {
	v := r.Verdict
	what := map[string]string{Better: "head is better", Worse: "head is worse", NoDifference: "no difference this run can detect"}[v.Verdict]
	return fmt.Sprintf("%s: headline score %s%s, 95%% interval %s to %s", what, signed(v.Mean), r.ofBase(), signed(v.Low), signed(v.High))
}

// ofBase returns " (-13% of base 0.615)": the headline score's mean difference relative to
// base's mean; "" when base has no score, " (base 0.000)" when it is 0.
func (r *Result) ofBase() string {
	if len(r.Measures) == 0 || r.Measures[0].Base == nil {
		return ""
	}
	b := *r.Measures[0].Base
	if b == 0 {
		return fmt.Sprintf(" (base %.3f)", b)
	}
	return fmt.Sprintf(" (%s of base %.3f)", percent(r.Verdict.Mean/b), b)
}

// percent writes a relative change with its sign: -13%, +0.4%, +0%.
func percent(x float64) string {
	p := 100 * x
	switch {
	case p == 0:
		return "+0%"
	case math.Abs(p) < 1:
		return fmt.Sprintf("%+.1f%%", p)
	}
	return fmt.Sprintf("%+.0f%%", p)
}

// Markdown writes the result for a pull-request comment, in at most MarkdownLimit
// characters: the verdict, each side and where its extractor found its summaries, the
// table of every measure, the inputs (those that changed; all of them), why each moved
// input moved (the facts gained and lost, a word diff of the summaries), the inputs not
// scored, the summaries lost, and the tokens and cost. When the whole does not fit, the
// inputs' parts are cut (the moved inputs that moved least first) and the Markdown says
// what is left out.
func Markdown(w io.Writer, r *Result) error {
	_, err := io.WriteString(w, markdown(r, MarkdownLimit))
	return err
}

func markdown(r *Result, limit int) string {
	var head, tail strings.Builder
	writeHead(&head, r)
	writeTail(&tail, r)

	up, down, same := r.Counts()
	var changed []InputResult
	for _, in := range r.Inputs {
		if in.Changed() {
			changed = append(changed, in)
		}
	}
	moved := r.Moved(-1)
	inputsHead := fmt.Sprintf("### Inputs: %d up, %d down, %d unchanged\n\nThe headline score of each input went up, down or stayed, head against base. Each cell is head − base (base → head), means over samples.\n\n",
		up, down, same)

	// What is left after the parts every review shows, and a note saying what was cut.
	room := limit - head.Len() - tail.Len() - len(inputsHead) - 600
	var left []string

	var table strings.Builder
	switch {
	case len(changed) == 0:
		table.WriteString("No input changed on any measure.\n\n")
	default:
		fmt.Fprintf(&table, "Changed only (%s of %d):\n\n", plural(len(changed), "input"), len(r.Inputs))
		table.WriteString(tableHeader)
		rows := 0
		for _, in := range changed {
			row := tableRow(in)
			if table.Len()+len(row) > room {
				break
			}
			table.WriteString(row)
			rows++
		}
		table.WriteString("\n")
		if rows < len(changed) {
			left = append(left, fmt.Sprintf("%d of the changed inputs' rows", len(changed)-rows))
		}
	}
	room -= table.Len()

	var why strings.Builder
	if len(moved) > 0 {
		why.WriteString("### Why each input moved\n\nEvery input that changed on a measure, the largest moves of the headline score first. Facts a side's summaries hold in more of its samples than the other's: of the whole conversation before the cut (coverage), and of the messages just before it that the summary's recent part holds (boundary). Weights are eval's: a fact said in fewer messages weighs more.\n\n")
		shown := 0
		for _, in := range moved {
			part := explainMarkdown(in)
			if why.Len()+len(part) > room {
				break
			}
			why.WriteString(part)
			shown++
		}
		if shown < len(moved) {
			left = append(left, fmt.Sprintf("why %d of the %d changed inputs changed (those that moved least)", len(moved)-shown, len(moved)))
		}
		if shown == 0 {
			why.Reset()
		}
	}
	room -= why.Len()

	var all strings.Builder
	if len(changed) > 0 && len(changed) < len(r.Inputs) {
		fmt.Fprintf(&all, "<details><summary>All %d inputs</summary>\n\n%s", len(r.Inputs), tableHeader)
		for _, in := range r.Inputs {
			all.WriteString(tableRow(in))
		}
		all.WriteString("\n</details>\n\n")
		if all.Len() > room {
			all.Reset()
			left = append(left, fmt.Sprintf("the table of all %d inputs", len(r.Inputs)))
		}
	}

	var b strings.Builder
	b.WriteString(head.String())
	b.WriteString(inputsHead)
	if len(left) > 0 {
		fmt.Fprintf(&b, "**Not in this comment** (to keep it under %d characters): %s. The HTML review (-html) and the JSON (-json) hold every input.\n\n", limit, strings.Join(left, "; "))
	}
	b.WriteString(table.String())
	b.WriteString(all.String())
	b.WriteString(why.String())
	b.WriteString(tail.String())
	return b.String()
}

// writeHead writes the verdict, the sides, the failures and the table of measures.
func writeHead(b *strings.Builder, r *Result) {
	fmt.Fprintf(b, "## Prompt A/B review: %s\n\n", r.Headline())
	fmt.Fprintf(b, "%s × %s per side, %s model %s.", plural(len(r.Inputs), "input"), plural(r.Samples, "sample"), r.Provider, r.Model)
	if n := len(r.Unscorable); n > 0 {
		fmt.Fprintf(b, " %s not scored (listed below).", plural(n, "more input"))
	}
	if d := r.Verdict.Detectable; d != nil {
		fmt.Fprintf(b, " The smallest difference this run would detect is %.3f.", *d)
	}
	b.WriteString("\n\n")
	for _, s := range r.sides() {
		fmt.Fprintf(b, "- %s: %s", s.name, s.info.Desc)
		if note := s.info.fallbackNote(); note != "" {
			fmt.Fprintf(b, "\n  - **%s**", note)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	if len(r.Failures) > 0 {
		b.WriteString("**The review fails:**\n\n")
		for _, f := range r.Failures {
			fmt.Fprintf(b, "- %s\n", f)
		}
		b.WriteString("\n")
	}
	if len(r.Notes) > 0 {
		b.WriteString("**How the summaries were read:**\n\n")
		for _, n := range r.Notes {
			fmt.Fprintf(b, "- %s\n", n)
		}
		b.WriteString("\n")
	}
	b.WriteString("### Measures\n\n")
	b.WriteString("| measure | base | head | head − base | 95% interval | detectable | inputs | verdict |\n")
	b.WriteString("|---|---:|---:|---:|---|---:|---:|---|\n")
	for _, c := range r.Measures {
		det := "-"
		if c.Detectable != nil {
			det = fmt.Sprintf("%.3f", *c.Detectable)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s to %s | %s | %d | %s |\n", c.Measure, ptr(c.Base), ptr(c.Head),
			signed(c.Mean), signed(c.Low), signed(c.High), det, c.N, c.Verdict.Verdict)
	}
	b.WriteString("\nTail leakage and summaries lost are better lower. A lost summary scores 0.\n\n")
}

// writeTail writes the inputs not scored, the summaries lost and the tokens and cost.
func writeTail(b *strings.Builder, r *Result) {
	if len(r.Unscorable) > 0 {
		b.WriteString("### Inputs not scored\n\n")
		for _, u := range r.Unscorable[:min(len(r.Unscorable), lostShown)] {
			fmt.Fprintf(b, "- %s: %s\n", code(u.Input), u.Reason)
		}
		if n := len(r.Unscorable) - lostShown; n > 0 {
			fmt.Fprintf(b, "- and %d more (the JSON lists them)\n", n)
		}
		b.WriteString("\n")
	}
	b.WriteString("### Summaries lost\n\n")
	if len(r.Lost) == 0 {
		b.WriteString("None.\n\n")
	}
	for _, l := range r.Lost[:min(len(r.Lost), lostShown)] {
		fmt.Fprintf(b, "- %s: %s, sample %d (%s)\n", l.Side, code(l.Input), l.Sample, l.Case)
	}
	if n := len(r.Lost) - lostShown; n > 0 {
		fmt.Fprintf(b, "- and %d more (the JSON lists them)\n", n)
	}
	if len(r.Lost) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("### Tokens and recorded cost\n\n| side | answers | tokens in | tokens out | recorded cost |\n|---|---:|---:|---:|---:|\n")
	for _, s := range r.sides() {
		fmt.Fprintf(b, "| %s | %d | %d | %d | %s |\n", s.name, s.info.Calls, s.info.TokensIn, s.info.TokensOut, cost(s.info.Cost))
	}
	b.WriteString("\nWhat every answer read cost when it was recorded, replayed ones included; what this run spent is on stderr and in the JSON (`spent`).\n")
}

// tableHeader names a column per measure, in Measures order (tableRow's).
var tableHeader = func() string {
	head, rule := "| input | samples (base, head) |", "|---|---:|"
	for _, m := range Measures {
		head += " " + strings.ReplaceAll(m, "_", " ") + " |"
		rule += "---:|"
	}
	return head + "\n" + rule + "\n"
}()

// tableRow writes an input's row: per measure, head − base (base → head).
func tableRow(in InputResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s | %d, %d |", cell(code(in.ID)), len(in.Base), len(in.Head))
	for _, m := range Measures {
		fmt.Fprintf(&b, " %s |", measureCell(in, m))
	}
	b.WriteString("\n")
	return b.String()
}

// measureCell writes "-0.250 (0.917 → 0.667)"; a side without the measure is "-".
func measureCell(in InputResult, m string) string {
	base, head, okb, okh := in.Means(m)
	bs, hs := "-", "-"
	if okb {
		bs = fmt.Sprintf("%.3f", base)
	}
	if okh {
		hs = fmt.Sprintf("%.3f", head)
	}
	d, ok := in.Delta[m]
	if !ok {
		return fmt.Sprintf("%s → %s", bs, hs)
	}
	return fmt.Sprintf("%s (%s → %s)", signed(d), bs, hs)
}

// explainMarkdown writes why an input moved: its headline score, the facts lost and
// gained, and the word diff of base's and head's first summaries.
func explainMarkdown(in InputResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#### %s: score %s\n\n", code(in.ID), measureCell(in, MeasureScore))
	gained, lost := in.FactChanges()
	if len(gained)+len(lost) == 0 {
		b.WriteString("No fact is held more often by either side: the score moved with ")
		b.WriteString(otherMoves(in))
		b.WriteString(".\n\n")
	}
	for _, part := range []struct {
		title string
		fcs   []FactChange
	}{{"Lost (base holds them more often)", lost}, {"Gained (head holds them more often)", gained}} {
		if len(part.fcs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n\n", part.title)
		// A fact that moved on both measures is one line.
		var facts []Fact
		moves := map[Fact][]string{}
		for _, fc := range part.fcs {
			if _, ok := moves[fc.Fact]; !ok {
				facts = append(facts, fc.Fact)
			}
			moves[fc.Fact] = append(moves[fc.Fact], fmt.Sprintf("%s base %s → head %s", measureName(fc.Measure), held(fc.Base, len(in.Base)), held(fc.Head, len(in.Head))))
		}
		for _, f := range facts[:min(len(facts), factsShown)] {
			fmt.Fprintf(&b, "- %s %s, weight %s: %s\n", f.Kind, code(f.Text), weight(f.Weight), strings.Join(moves[f], "; "))
		}
		if n := len(facts) - factsShown; n > 0 {
			fmt.Fprintf(&b, "- and %d more (HTML, JSON)\n", n)
		}
		b.WriteString("\n")
	}
	bs, hs := in.Base[0], in.Head[0]
	switch {
	case !bs.Found || !hs.Found:
		fmt.Fprintf(&b, "Sample 1: %s; %s.\n\n", foundText("base", bs), foundText("head", hs))
	case bs.Summary == hs.Summary:
		b.WriteString("Sample 1: base and head wrote the same summary.\n\n")
	default:
		hunks := WordDiff(bs.Summary, hs.Summary, 1)
		var d strings.Builder
		n, total := 0, 0
		for _, h := range hunks {
			total += len(h.Lines)
		}
		for _, h := range hunks {
			if n >= diffLinesShown {
				break
			}
			if h.Skipped > 0 {
				fmt.Fprintf(&d, "@@ %d unchanged lines @@\n", h.Skipped)
			}
			for _, l := range h.Lines {
				if n >= diffLinesShown {
					break
				}
				n++
				d.WriteString(string(l.Kind) + l.Text() + "\n")
			}
		}
		if total > n {
			fmt.Fprintf(&d, "… %d more lines in the HTML review\n", total-n)
		}
		fence := fenceFor(d.String())
		fmt.Fprintf(&b, "<details><summary>Word diff of the summaries, base sample 1 → head sample 1</summary>\n\n%sdiff\n%s%s\n\n</details>\n\n", fence, d.String(), fence)
	}
	return b.String()
}

// otherMoves names the measures besides coverage that moved, for an input whose score
// moved with no fact gained or lost.
func otherMoves(in InputResult) string {
	var ms []string
	for _, m := range []string{MeasureLeakage, MeasureLost} {
		if d := in.Delta[m]; d != 0 {
			ms = append(ms, fmt.Sprintf("%s %s", m, signed(d)))
		}
	}
	if len(ms) == 0 {
		return "the weights of facts held in some samples only"
	}
	return strings.Join(ms, ", ")
}

func foundText(side string, s SampleResult) string {
	if !s.Found {
		return side + " found no summary"
	}
	return side + " found one"
}

// measureName is the short name the fact lists use.
func measureName(m string) string {
	if m == MeasureBoundary {
		return "boundary"
	}
	return m
}

// held writes a share of n samples as "2/3".
func held(share float64, n int) string {
	return fmt.Sprintf("%d/%d", int(math.Round(share*float64(n))), n)
}

func weight(w float64) string {
	if w == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", w)
}

type namedSide struct {
	name string
	info SideInfo
}

func (r *Result) sides() []namedSide { return []namedSide{{"base", r.Base}, {"head", r.Head}} }

// fallbackNote says, for a side whose extractor found summaries outside every block of a
// tag its instruction names, how many; "" when there are none.
func (s SideInfo) fallbackNote() string {
	if s.Fallback == 0 {
		return ""
	}
	tags := make([]string, len(s.Tags))
	for i, t := range s.Tags {
		tags[i] = "<" + t + ">"
	}
	where := strings.Join(tags, " or ") + " block"
	if s.Fallback == s.Found {
		return fmt.Sprintf("every summary this side found (%d) came through its extractor's fallback: no answer held it in the %s the instruction asks for", s.Found, where)
	}
	return fmt.Sprintf("%d of the %d summaries this side found came through its extractor's fallback, not from the %s the instruction asks for", s.Fallback, s.Found, where)
}

func cost(c *float64) string {
	if c == nil {
		return "unknown (-price)"
	}
	return fmt.Sprintf("$%.4f", *c)
}

// code writes s as a Markdown code span.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// cell escapes a table cell's pipes.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// fenceFor returns a code fence longer than any run of backticks in s.
func fenceFor(s string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence
}

func value(vs map[string]float64, m string) string {
	if v, ok := vs[m]; ok {
		return fmt.Sprintf("%.3f", v)
	}
	return "-"
}

func ptr(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", *v)
}

// signed writes a difference with its sign, zero as +0.000.
func signed(x float64) string {
	s := fmt.Sprintf("%+.3f", x)
	if s == "-0.000" {
		return "+0.000"
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
