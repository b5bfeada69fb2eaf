package gate

import (
	"fmt"
	"github.com/compacteval/compacteval/report"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestMarkdownRows: the verdict on 18 broken cases has a row per case (and the total), not
// one per regression, the allowances once, and no sentence in a was or now cell.
func TestMarkdownRows(t *testing.T) {
	base, run := broken(t, 18)
	res, err := Check(base, run, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	md := string(Markdown(res, MarkdownOptions{Baseline: "base.json", Run: "run.json", ReportURL: "https://ci.example/run/1", Limit: CommentLimit}))
	rows := 0
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| `") || strings.HasPrefix(line, "| seed ") {
			rows++
		}
	}
	if rows != 19 {
		t.Errorf("%d table rows for 18 cases and a total, want 19:\n%s", rows, md)
	}
	for _, want := range []string{
		"## compacteval gate: 55 regressions",
		"failed: 1 total, 18 cases of seed.",
		"[The full report](https://ci.example/run/1)",
		"intended (allowed 0 of 18 lost cases); golden-mismatch, unlisted-deviation (problems: fail).",
		"<details><summary>18 cases</summary>",
		"| `cat/case-017` | intended, golden-mismatch, unlisted-deviation | pass | fail |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	for _, bad := range []string{"differs from golden", "no longer returns", "Cut to fit"} {
		if strings.Contains(md, bad) {
			t.Errorf("Markdown holds %q:\n%s", bad, md)
		}
	}
	if n := strings.Count(md, "lost cases"); n != 1 {
		t.Errorf("the allowance of intended is said %d times, want once", n)
	}
}

// TestMarkdownLimit: however many regressions, the comment never holds more characters
// than the limit (GitHub refuses a longer comment); rows are left out, counted, and the
// text says where the whole verdict is. Without a limit everything is there.
func TestMarkdownLimit(t *testing.T) {
	base, run := broken(t, 2000)
	for i := range run.Eval.Cases {
		run.Eval.Cases[i].Coverage.Hit = 0
	}
	res, err := Check(base, run, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	opt := MarkdownOptions{Baseline: "base.json", Run: "run.json", ReportURL: "https://ci.example/run/1", Whole: "the job summary"}
	whole := string(Markdown(res, opt))
	if n := strings.Count(whole, "| `cat/case-"); n != 2000 {
		t.Fatalf("the uncut Markdown has %d case rows, want 2000", n)
	}
	if strings.Contains(whole, "not shown") || strings.Contains(whole, "Cut to fit") {
		t.Errorf("the uncut Markdown says it was cut")
	}
	for _, limit := range []int{CommentLimit, 20000, 3000, 1200, 300, 40} {
		opt.Limit = limit
		md := string(Markdown(res, opt))
		if n := utf8.RuneCountInString(md); n > limit {
			t.Errorf("Markdown(limit %d) has %d characters", limit, n)
		}
		if limit >= 1200 && (!strings.Contains(md, "Cut to fit") || !strings.Contains(md, "in the job summary and in [the full report](https://ci.example/run/1)")) {
			t.Errorf("Markdown(limit %d) does not say where the rest is:\n%s", limit, md)
		}
		if limit >= 1200 {
			shown := strings.Count(md, "| `cat/case-")
			if !strings.Contains(md, fmt.Sprintf("… %d more in the whole verdict.", 2000-shown)) && !strings.Contains(md, "2000 cases, not shown here but in the whole verdict") {
				t.Errorf("Markdown(limit %d) shows %d rows but does not count the %d others:\n%s", limit, shown, 2000-shown, md)
			}
		}
		if limit == CommentLimit && utf8.RuneCountInString(md) < limit*9/10 {
			t.Errorf("Markdown(limit %d) uses %d characters: it leaves out more than it must", limit, utf8.RuneCountInString(md))
		}
	}
}

// TestMarkdownPassed: a pass says so in a line, with the link when there is one.
func TestMarkdownPassed(t *testing.T) {
	res, err := Check(baseline(), baseline(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	got := string(Markdown(res, MarkdownOptions{Baseline: "b.json", Run: "r.json", ReportURL: "https://x.example/a", Limit: CommentLimit}))
	want := fmt.Sprintf("## compacteval gate: passed\n\n%d checks of `r.json` against `b.json`.\n\n[The full report](https://x.example/a)\n", res.Checks)
	if got != want {
		t.Errorf("Markdown(pass) = %q, want %q", got, want)
	}
}

// TestMarkdownSelection: a verdict on a selection says so, with its criteria, before
// anything else (the Markdown said nothing of it: a partial gate read as a whole one).
func TestMarkdownSelection(t *testing.T) {
	res, err := Check(baseline(), baseline(), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	res.Selection = &report.Selection{Run: "^well-formed/", Cases: 2, Of: 5}
	got := string(Markdown(res, MarkdownOptions{Baseline: "b.json", Run: "r.json", Limit: CommentLimit}))
	want := fmt.Sprintf("## compacteval gate: passed\n\n%d checks of `r.json` against `b.json`.\n\nOn a selection of 2 of 5 cases (`-run ^well-formed/`): only those cases were compared.\n", res.Checks)
	if got != want {
		t.Errorf("Markdown(selection) = %q, want %q", got, want)
	}
}
