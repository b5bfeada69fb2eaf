package gate

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/compacteval/compacteval/report"
)

// CommentLimit is the most characters GitHub takes in a pull-request comment.
const CommentLimit = 65536

// collapseRows is the number of rows past which a group's table is folded in <details>.
const collapseRows = 10

// MarkdownOptions say what the verdict's Markdown names and how long it may be.
type MarkdownOptions struct {
	// Baseline and Run are the files compared, as the reader should see them.
	Baseline, Run string
	// ReportURL, when set, is linked as the full report (the uploaded report.html).
	ReportURL string
	// Limit caps the document at that many characters (0: no cap). Rows are left out,
	// the same number from each group, until it fits; Whole says where the rest is.
	Limit int
	// Whole names where the uncut verdict is (a file, the job summary), said when rows
	// are left out.
	Whole string
}

// Markdown renders the gate's verdict: the totals that fell, then the case regressions of
// each extractor, one row per case (Table), then the notes. Groups of more than ten rows
// are folded in <details>. With opt.Limit the document never holds more characters than
// that: rows are left out, and each group says how many and where to find them.
func Markdown(res Result, opt MarkdownOptions) []byte {
	t := Arrange(res.Regressions)
	most := max(len(res.Notes), len(t.Totals))
	for _, g := range t.Groups {
		most = max(most, len(g.Rows))
	}
	full := renderVerdict(res, t, opt, most)
	if opt.Limit <= 0 || utf8.RuneCountInString(full) <= opt.Limit {
		return []byte(full)
	}
	// The most rows per group that fit: the length grows with the rows shown.
	lo, hi := -1, most-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if utf8.RuneCountInString(renderVerdict(res, t, opt, mid)) <= opt.Limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo >= 0 {
		return []byte(renderVerdict(res, t, opt, lo))
	}
	// Even without rows it is too long (thousands of groups or totals): cut at a line.
	return []byte(cutLines(renderVerdict(res, t, opt, 0), opt.Limit, "… cut to fit; the whole verdict is "+whereWhole(opt)+".\n"))
}

func renderVerdict(res Result, t Table, opt MarkdownOptions, maxRows int) string {
	var b strings.Builder
	const more = "in the whole verdict"
	if res.Passed() {
		fmt.Fprintf(&b, "## compacteval gate: passed\n\n%d checks of `%s` against `%s`.\n", res.Checks, opt.Run, opt.Baseline)
	} else {
		fmt.Fprintf(&b, "## compacteval gate: %s\n\n%d checks of `%s` against `%s`", plural(len(res.Regressions), "regression"), res.Checks, opt.Run, opt.Baseline)
		fmt.Fprintf(&b, "; failed: %s.\n", t.Summary())
	}
	if sel := res.Selection; !sel.Empty() {
		fmt.Fprintf(&b, "\nOn a selection of %s: only those cases were compared.\n", mdSelection(sel))
	}
	if opt.ReportURL != "" {
		fmt.Fprintf(&b, "\n[The full report](%s)\n", opt.ReportURL)
	}
	cut := maxRows < len(res.Notes) || maxRows < len(t.Totals)
	for _, g := range t.Groups {
		cut = cut || maxRows < len(g.Rows)
	}
	if cut {
		fmt.Fprintf(&b, "\nCut to fit %d characters: the whole verdict is %s.\n", opt.Limit, whereWhole(opt))
	}
	if !res.Passed() {
		b.WriteString("\n")
		WriteTable(&b, t, TableOptions{MaxRows: maxRows, More: more, Heading: "###"})
	}
	if len(res.Notes) > 0 {
		if !strings.HasSuffix(b.String(), "\n\n") {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n", plural(len(res.Notes), "note"))
		for i, n := range res.Notes {
			if i == maxRows {
				fmt.Fprintf(&b, "- %s %s\n", notShown(len(res.Notes), i, "note"), more)
				break
			}
			fmt.Fprintf(&b, "- %s\n", n)
		}
		b.WriteString("\n</details>\n")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// whereWhole says where the uncut verdict is.
func whereWhole(opt MarkdownOptions) string {
	var where []string
	if opt.Whole != "" {
		where = append(where, "in "+opt.Whole)
	}
	if opt.ReportURL != "" {
		where = append(where, fmt.Sprintf("in [the full report](%s)", opt.ReportURL))
	}
	if len(where) == 0 {
		return "in the output of `compacteval gate`"
	}
	return strings.Join(where, " and ")
}

// TableOptions say how WriteTable writes a Table.
type TableOptions struct {
	// MaxRows caps the rows of each table (all with a negative value); More says where
	// the others are, such as "in the HTML review".
	MaxRows int
	More    string
	// Heading opens each group's heading: "###", "####".
	Heading string
}

// WriteTable writes t as Markdown: a table of the totals, then a heading per group with
// the allowances of its checks said once and a table of its rows, folded in <details> past
// ten rows. A table that shows fewer rows than it has (opt.MaxRows) ends with a line
// counting the others and saying where they are.
func WriteTable(b *strings.Builder, t Table, opt TableOptions) {
	maxRows, more := opt.MaxRows, opt.More
	if len(t.Totals) > 0 {
		shown := len(t.Totals)
		if maxRows >= 0 {
			shown = min(shown, maxRows)
		}
		if shown > 0 {
			b.WriteString("| total | was | now | allowed |\n|---|---|---|---|\n")
			for _, r := range t.Totals[:shown] {
				fmt.Fprintf(b, "| %s | %s | %s | %s |\n", cell(TotalName(r)), cell(r.Was), cell(r.Now), cell(r.Allowed))
			}
			b.WriteString("\n")
		}
		if shown < len(t.Totals) {
			fmt.Fprintf(b, "%s %s.\n\n", notShown(len(t.Totals), shown, "total"), more)
		}
	}
	for _, g := range t.Groups {
		fmt.Fprintf(b, "%s %s: %s\n\n", opt.Heading, cell(g.Name), plural(len(g.Rows), "case"))
		var limits []string
		for _, l := range g.Limits {
			limits = append(limits, fmt.Sprintf("%s (%s)", strings.Join(l.Checks, ", "), l.Allowed))
		}
		fmt.Fprintf(b, "Failed checks and what they allow: %s.\n\n", strings.Join(limits, "; "))
		shown := len(g.Rows)
		if maxRows >= 0 {
			shown = min(shown, maxRows)
		}
		folded := shown > collapseRows
		if folded {
			fmt.Fprintf(b, "<details><summary>%s</summary>\n\n", plural(len(g.Rows), "case"))
		}
		if shown > 0 {
			b.WriteString("| case | failed | was | now |\n|---|---|---|---|\n")
			for _, r := range g.Rows[:shown] {
				fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", code(r.Case), cell(strings.Join(r.Checks, ", ")), cell(r.Was), cell(r.Now))
			}
			b.WriteString("\n")
		}
		if shown < len(g.Rows) {
			fmt.Fprintf(b, "%s %s.\n\n", notShown(len(g.Rows), shown, "case"), more)
		}
		if folded {
			b.WriteString("</details>\n\n")
		}
	}
}

// notShown says how many of n things are left out when shown are.
func notShown(n, shown int, noun string) string {
	if shown == 0 {
		return plural(n, noun) + ", not shown here but"
	}
	return fmt.Sprintf("… %d more", n-shown)
}

// cutLines cuts s at a line break so that it and tail hold at most limit characters.
func cutLines(s string, limit int, tail string) string {
	keep := limit - utf8.RuneCountInString(tail)
	if keep <= 0 {
		return string([]rune(tail)[:max(limit, 0)])
	}
	rs := []rune(s)
	if len(rs) > keep {
		rs = rs[:keep]
	}
	out := string(rs)
	if i := strings.LastIndexByte(out, '\n'); i >= 0 {
		out = out[:i+1]
	} else {
		out = ""
	}
	if out = strings.TrimRight(out, "\n"); out != "" {
		out += "\n\n"
	}
	return out + tail
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// code makes text safe in a code span of a table cell: a backtick would end the span.
func code(s string) string {
	return cell(strings.ReplaceAll(s, "`", "'"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// mdSelection is a selection's description with its criteria as code.
func mdSelection(s *report.Selection) string {
	return fmt.Sprintf("%d of %d cases (`%s`)", s.Cases, s.Of, strings.ReplaceAll(s.Criteria(), "`", "'"))
}
