package report

import (
	"fmt"
	"strings"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz/drift"
)

// maxProblemLines caps the regressions listed in Markdown, which must fit a pull-request
// comment (GitHub takes 65,536 characters); report.html lists them all.
const maxProblemLines = 40

// Markdown renders the report for a pull-request comment or GITHUB_STEP_SUMMARY: totals,
// regressions first, the extractor x category and extractor x drift-operator tables, and the
// worst-scored eval cases with the facts they missed.
func Markdown(r *Report) []byte {
	var b strings.Builder
	b.WriteString("# compacteval report\n\n")
	if !r.Complete {
		fmt.Fprintf(&b, "> **Partial run**: stages %s. A partial report cannot pass the gate.\n\n", strings.Join(r.Stages, ", "))
	}
	fmt.Fprintf(&b, "%d cases from `%s`; stages: %s.\n\n", r.Corpus.Cases, r.Corpus.Dir, strings.Join(r.Stages, ", "))

	b.WriteString("## Regressions\n\n")
	if len(r.Problems) == 0 {
		builtin := false
		for _, e := range r.Extractors {
			builtin = builtin || !e.External
		}
		if builtin {
			b.WriteString("None: every built-in extractor matches its goldens, and every deviation from intended is listed in `known_deviations`.\n\n")
		} else {
			b.WriteString("None of the run itself. A module or command has no goldens and no `known_deviations`: `compacteval gate` compares it with the baseline it blessed.\n\n")
		}
	} else {
		fmt.Fprintf(&b, "%d problems:\n\n", len(r.Problems))
		for i, p := range r.Problems {
			if i == maxProblemLines {
				fmt.Fprintf(&b, "- ... and %d more (report.html lists them all)\n", len(r.Problems)-i)
				break
			}
			ex := ""
			if p.Extractor != "" {
				ex = " " + p.Extractor
			}
			fmt.Fprintf(&b, "- **%s** `%s`%s: %s\n", p.Kind, p.Case, ex, mdEscape(p.Detail))
		}
		b.WriteString("\n")
	}

	b.WriteString("## Extractors\n\n")
	b.WriteString("| extractor | intended | rate | drift exact | known deviations | golden mismatches |\n|---|---:|---:|---:|---:|---:|\n")
	for _, e := range r.Extractors {
		drift := "-"
		if containsStage(r.Stages, "drift") {
			drift = pct(e.DriftExact)
		}
		fmt.Fprintf(&b, "| %s | %d/%d | %s | %s | %d | %d |\n", e.Name, e.Intended, e.Cases, pct(e.Rate), drift, e.KnownDeviations, e.GoldenMismatches)
	}
	b.WriteString("\n")

	b.WriteString("## Extractor x category (cases returning the intended result)\n\n")
	writeCategoryTable(&b, r)

	if containsStage(r.Stages, "drift") && len(r.Drift.Single) > 0 {
		fmt.Fprintf(&b, "## Extractor x drift operator (exact recovery, seed %d, %d samples per operator)\n\n", r.Drift.Seed, r.Drift.N)
		writeDriftTable(&b, r.Drift)
	}

	if containsStage(r.Stages, "eval") {
		writeEval(&b, r.Eval)
	}
	return []byte(b.String())
}

func writeCategoryTable(b *strings.Builder, r *Report) {
	b.WriteString("| category | cases |")
	for _, e := range r.Extractors {
		fmt.Fprintf(b, " %s |", e.Name)
	}
	b.WriteString("\n|---|---:|" + strings.Repeat("---:|", len(r.Extractors)) + "\n")
	for _, cat := range r.Corpus.Categories {
		fmt.Fprintf(b, "| %s | %d |", cat.Category, cat.Cases)
		for _, e := range r.Extractors {
			n := 0
			for _, c := range e.Categories {
				if c.Category == cat.Category {
					n = c.Intended
				}
			}
			fmt.Fprintf(b, " %d |", n)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func writeDriftTable(b *strings.Builder, m drift.MatrixResult) {
	b.WriteString("| operator |")
	for _, name := range m.Extractors {
		fmt.Fprintf(b, " %s |", name)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(m.Extractors)) + "\n")
	rows := append(append([]drift.Row{m.Identity}, m.Single...), m.SingleTotal)
	for i, row := range rows {
		name := row.Operator
		if i == len(rows)-1 {
			name = "**single total**"
		}
		writeDriftRow(b, name, row)
	}
	ct := m.ComposedTotal
	writeDriftRow(b, fmt.Sprintf("**composed total** (%d samples of 2-3 operators)", ct.Samples), ct)
	b.WriteString("\nexact: the intended summary byte for byte, of the samples whose intended summary is not ambiguous. `compacteval drift` shows leaks and losses too.\n\n")
}

func writeDriftRow(b *strings.Builder, name string, row drift.Row) {
	fmt.Fprintf(b, "| %s |", name)
	for _, c := range row.Cells {
		fmt.Fprintf(b, " %s |", ratio(c.Exact, row.Samples-row.Ambiguous))
	}
	b.WriteString("\n")
}

// worstCases are how many eval cases the Markdown report details.
const worstCases = 5

func writeEval(b *strings.Builder, rep eval.Report) {
	t := rep.Totals
	fmt.Fprintf(b, "## Eval (%d cases, extractor %s)\n\n", t.Cases, rep.Extractor)
	b.WriteString("| measure | mean | pooled |\n|---|---:|---:|\n")
	for _, m := range []struct {
		name string
		a    eval.Aggregate
	}{
		{"coverage", t.Coverage}, {"boundary coverage", t.BoundaryCoverage}, {"tail leakage (lower is better)", t.TailLeakage},
		{"user messages", t.UserMessages}, {"constraints verbatim", t.ConstraintsVerbatim},
	} {
		fmt.Fprintf(b, "| %s | %s | %s |\n", m.name, meanText(m.a), shareText(m.a.Pooled))
	}
	fmt.Fprintf(b, "\n%d of %d summaries have all nine sections in order; %d misattributed user turns.\n\n", t.SectionsComplete, t.SummaryFound, t.Misattributed)
	worst := worstEval(rep.Cases, worstCases)
	if len(worst) == 0 {
		return
	}
	b.WriteString("### Worst-scored eval cases\n\n")
	for _, res := range worst {
		fmt.Fprintf(b, "- `%s`: coverage %s, boundary %s, tail leakage %s", res.ID, shareText(res.Coverage), shareText(res.BoundaryCoverage), shareText(res.TailLeakage))
		if len(res.Flaws) > 0 {
			fmt.Fprintf(b, " (labelled %s)", strings.Join(res.Flaws, ", "))
		}
		b.WriteString("\n")
		for i, f := range res.Missed {
			if i == 6 {
				fmt.Fprintf(b, "  - ... %d more missed\n", len(res.Missed)-i)
				break
			}
			fmt.Fprintf(b, "  - missed %s `%s` (message %d)\n", f.Kind, mdCode(f.Text), f.Message)
		}
	}
	b.WriteString("\n")
}

func containsStage(stages []string, s string) bool {
	for _, x := range stages {
		if x == s {
			return true
		}
	}
	return false
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// ratio prints n of d as compacteval drift does, a dash when there is nothing to count.
func ratio(n, d int) string {
	if d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%d%%", drift.Percent(n, d))
}

func meanText(a eval.Aggregate) string {
	if a.Mean == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f", *a.Mean)
}

func shareText(s eval.Share) string {
	v, ok := s.Value()
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f (%d/%d)", v, s.Hit, s.Of)
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "\n", " ").Replace(s)
}

// mdCode makes s safe inside a Markdown code span on one line.
func mdCode(s string) string {
	s = strings.ReplaceAll(s, "`", "'")
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return s
}
