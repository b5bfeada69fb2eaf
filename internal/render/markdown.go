package render

import (
	"fmt"
	"strings"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/textdiff"
	"github.com/compacteval/compacteval/report"
)

// maxProblemLines caps the regressions listed in Markdown, which must fit a pull-request
// comment (GitHub takes 65,536 characters); report.html lists them all.
const maxProblemLines = 40

// mdDiffs is how many rows' intended-against-output diffs the Markdown report shows, and
// mdDiffLines how many lines of each.
const (
	mdDiffs     = 5
	mdDiffLines = 30
)

// Markdown renders the report for a pull-request comment or GITHUB_STEP_SUMMARY: the
// verdict first, then the cases that changed behaviour (one line per case and extractor,
// the first diffs inline), those that changed only the path, the extractor totals, the
// extractor x category and extractor x drift-operator tables, and the worst-scored eval
// cases with the facts they missed. It fails only where r.Stored does.
func Markdown(r *report.Report) ([]byte, error) {
	var b strings.Builder
	rows, err := troubleRows(r)
	if err != nil {
		return nil, fmt.Errorf("render markdown: %w", err)
	}
	v := newVerdict(r, rows)
	b.WriteString("# compacteval report\n\n")
	fmt.Fprintf(&b, "**%s.**\n\n", v.Headline)
	for _, l := range v.Lines {
		fmt.Fprintf(&b, "- %s\n", mdEscape(l))
	}
	b.WriteString("\n")
	if !r.Complete {
		fmt.Fprintf(&b, "> **Partial run**: stages %s. A partial report cannot pass the gate.\n\n", strings.Join(r.Stages, ", "))
	}
	fmt.Fprintf(&b, "%d cases from `%s`; stages: %s.\n\n", r.Corpus.Cases, r.Corpus.Dir, strings.Join(r.Stages, ", "))

	b.WriteString("## Regressions\n\n")
	if len(r.Problems) == 0 {
		b.WriteString("None.\n\n")
	} else {
		writeTroubleRows(&b, rows)
	}

	b.WriteString("## Extractors\n\n")
	b.WriteString("| extractor | intended | rate | drift exact | known deviations | golden mismatches |\n|---|---:|---:|---:|---:|---:|\n")
	var refs []string
	for _, e := range r.Extractors {
		drift := "-"
		if containsStage(r.Stages, "drift") {
			drift = pct(e.DriftExact)
		}
		name := e.Name
		if e.Reference != "" {
			name += " (reference)"
			refs = append(refs, e.Name)
		}
		fmt.Fprintf(&b, "| %s | %d/%d | %s | %s | %d | %d |\n", name, e.Intended, e.Cases, pct(e.Rate), drift, e.KnownDeviations, e.GoldenMismatches)
	}
	b.WriteString("\n")
	if len(refs) > 0 {
		fmt.Fprintf(&b, "%s: %s. %s\n\n", referenceWho(refs), referenceNote, referenceGate)
	}

	b.WriteString("## Extractor x category (cases returning the intended result)\n\n")
	writeCategoryTable(&b, r)

	if containsStage(r.Stages, "drift") && len(r.Drift.Single) > 0 {
		fmt.Fprintf(&b, "## Extractor x drift operator (exact recovery, seed %d, %d samples per operator)\n\n", r.Drift.Seed, r.Drift.N)
		writeDriftTable(&b, r.Drift)
	}

	if containsStage(r.Stages, "eval") {
		rows, _, err := evalRows(r)
		if err != nil {
			return nil, fmt.Errorf("render markdown: %w", err)
		}
		worst, err := worstEvalCases(r, rows, worstCases)
		if err != nil {
			return nil, fmt.Errorf("render markdown: %w", err)
		}
		writeEval(&b, r.Eval, worst)
	}
	return []byte(b.String()), nil
}

// writeTroubleRows lists the rows that change behaviour, the first diffs, then the rows
// that change only the path.
func writeTroubleRows(b *strings.Builder, rows []troubleRow) {
	var behaviour, paths []troubleRow
	for _, row := range rows {
		if row.PathOnly {
			paths = append(paths, row)
		} else {
			behaviour = append(behaviour, row)
		}
	}
	if len(behaviour) > 0 {
		fmt.Fprintf(b, "%s:\n\n", plural(len(behaviour), "case and extractor that changes behaviour", "cases and extractors that change behaviour"))
		b.WriteString("| case | extractor | trouble | path |\n|---|---|---|---|\n")
		for i, row := range behaviour {
			if i == maxProblemLines {
				fmt.Fprintf(b, "| ... and %d more (report.html lists them all) | | | |\n", len(behaviour)-i)
				break
			}
			var ks []string
			for _, k := range row.Kinds {
				ks = append(ks, kindLabel(k))
			}
			ex, path := row.Extractor, "-"
			if ex == "" {
				ex, path = "-", mdEscape(strings.Join(row.Details, "; "))
			} else if row.res != nil && row.res.Path != "" {
				path = row.res.Path
				if row.res.GoldenPath != "" && row.res.GoldenPath != row.res.Path {
					path += " (golden: " + row.res.GoldenPath + ")"
				}
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", mdCode(row.Case), ex, strings.Join(ks, ", "), path)
		}
		b.WriteString("\n")
		shown := 0
		for _, row := range behaviour {
			if shown == mdDiffs {
				break
			}
			d, ok := rowDiff(row)
			if !ok {
				continue
			}
			shown++
			f := Fence(d)
			fmt.Fprintf(b, "<details><summary><code>%s</code> %s: intended (-) against output (+)</summary>\n\n%sdiff\n%s%s\n\n</details>\n\n", mdEscape(row.Case), mdEscape(row.Extractor), f, d, f)
		}
	}
	if len(paths) > 0 {
		b.WriteString("### Path changes only (not a behaviour change)\n\n")
		b.WriteString("The summary is the golden's byte for byte; only the path that decided differs.\n\n")
		b.WriteString("| case | extractor | golden path | path |\n|---|---|---|---|\n")
		for i, row := range paths {
			if i == maxProblemLines {
				fmt.Fprintf(b, "| ... and %d more (report.html lists them all) | | | |\n", len(paths)-i)
				break
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", mdCode(row.Case), row.Extractor, row.res.GoldenPath, row.res.Path)
		}
		b.WriteString("\n")
	}
}

// rowDiff is the unified diff of a row's intended summary against its output, at most
// mdDiffLines lines, ending in a newline; false when the report keeps no output for it.
func rowDiff(row troubleRow) (string, bool) {
	if row.res == nil || row.res.Summary == nil || row.c == nil {
		return "", false
	}
	want, got := "", ""
	if row.c.IntendedFound {
		want = row.c.Intended
	}
	if row.res.OK {
		got = *row.res.Summary
	}
	d := textdiff.Unified(want, got, 2)
	if d == "" {
		return "", false
	}
	lines := strings.SplitAfter(strings.TrimSuffix(d, "\n"), "\n")
	if len(lines) > mdDiffLines {
		lines = append(lines[:mdDiffLines], fmt.Sprintf("... %d more lines (report.html shows the whole diff)", len(lines)-mdDiffLines))
	}
	return strings.ToValidUTF8(strings.Join(lines, ""), "\uFFFD") + "\n", true
}

// Fence returns a Markdown code fence longer than any run of backticks in s.
func Fence(s string) string {
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

func writeCategoryTable(b *strings.Builder, r *report.Report) {
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

func writeEval(b *strings.Builder, rep eval.Report, worst []eval.Result) {
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
