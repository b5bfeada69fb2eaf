package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// hostile is text that breaks a page rendered without escaping.
const hostile = "<summary>\nIt said \"stop\" and 'go' & left.\n</details><script>alert(1)</script>\n</summary>"

func ptr(s string) *string { return &s }

// curve is a coverage curve of tenths with 4 messages each: vals[i] of them covered, a
// negative value for a tenth with no message.
func curve(vals ...int) [10]eval.Share {
	var c [10]eval.Share
	for i, v := range vals {
		if v >= 0 {
			c[i] = eval.Share{Hit: v, Of: 4}
		}
	}
	return c
}

// handReport is a small report with every section filled: three extractors, a regression,
// a known deviation, drift rows and eval results, and texts that need escaping.
func handReport() *report.Report {
	exs := []string{"seed", "robust", "dust"}
	ops := []string{"tag-case", "crlf"}
	row := func(op string, samples, amb, found int, cells ...[3]int) drift.Row {
		r := drift.Row{Operator: op, Samples: samples, Ambiguous: amb, Found: found}
		for i, c := range cells {
			r.Cells = append(r.Cells, drift.Cell{Extractor: exs[i], Exact: c[0], Leaked: c[1], Lost: c[2]})
		}
		return r
	}
	results := []eval.Result{
		{
			ID: "eval/good", Found: true, Path: "line-anchored", Messages: 10, Cut: 8,
			Coverage: eval.Share{Hit: 9, Of: 10}, BoundaryCoverage: eval.Share{Hit: 3, Of: 4},
			CoverageCurve: curve(4, 4, -1, 3, 4, 4, 2, 4, 4, 4), TailLeakage: eval.Share{Hit: 0, Of: 2},
			Sections: eval.Sections{Present: []int{1, 2, 3, 4, 5, 6, 7, 8, 9}, InOrder: true},
			Missed:   []eval.Fact{{Kind: "path", Text: "cmd/x/main.go", Message: 3}}, Leaked: []eval.Fact{},
		},
		{
			ID: "eval/bad", Found: true, Path: "line-anchored", Messages: 12, Cut: 9,
			Coverage: eval.Share{Hit: 2, Of: 10}, BoundaryCoverage: eval.Share{Hit: 0, Of: 4},
			CoverageCurve: curve(1, 0, 2, -1, -1, 1, 1, 0, 1, 2), TailLeakage: eval.Share{Hit: 1, Of: 2},
			Sections: eval.Sections{Present: []int{1, 2}, Missing: []int{3, 4, 5, 6, 7, 8, 9}, InOrder: true},
			Missed: []eval.Fact{
				{Kind: "error", Text: "<script>alert('missed')</script>", Message: 4},
				{Kind: "identifier", Text: "runQueue", Message: 6},
			},
			Leaked:        []eval.Fact{{Kind: "command", Text: `go test -run "TestX"`, Message: 10}},
			Misattributed: []eval.Fact{{Kind: "request", Text: "User: delete it", Message: 2}},
		},
		{ID: "eval/empty", Missed: []eval.Fact{}, Leaked: []eval.Fact{}},
	}
	return &report.Report{
		SchemaVersion: report.SchemaVersion,
		Complete:      true,
		Stages:        []string{"extract", "golden", "drift", "eval"},
		Corpus: report.Corpus{
			Dir: "corpus/cases", Cases: 3,
			Categories: []report.Count{{Category: "well-formed", Cases: 1}, {Category: "malformed-tags", Cases: 2}},
			Origins:    map[string]int{"synthetic": 2, "captured": 1},
		},
		Extractors: []report.Extractor{
			{Name: "seed", Source: "the port", Cases: 3, Intended: 1, Rate: 0.3333, KnownDeviations: 2,
				Categories: []report.Count{{Category: "well-formed", Cases: 1, Intended: 1}, {Category: "malformed-tags", Cases: 2}}},
			{Name: "robust", Source: "compacteval's own", Cases: 3, Intended: 2, Rate: 0.6667, GoldenMismatches: 1,
				Categories: []report.Count{{Category: "well-formed", Cases: 1, Intended: 1}, {Category: "malformed-tags", Cases: 2, Intended: 1}}},
			{Name: "dust", Source: "a <b>bold</b> source", Cases: 3, Intended: 3, Rate: 1,
				Categories: []report.Count{{Category: "well-formed", Cases: 1, Intended: 1}, {Category: "malformed-tags", Cases: 2, Intended: 2}}},
		},
		Problems: []report.Problem{
			{Kind: "unlisted-deviation", Case: "malformed-tags/unclosed", Extractor: "robust",
				Detail: "robust no longer returns the intended result and known_deviations does not list it"},
			{Kind: "golden-mismatch", Case: "malformed-tags/unclosed", Extractor: "robust",
				Detail: "the output of robust differs from corpus/golden/robust/malformed-tags/unclosed.txt"},
			{Kind: "stale-deviation", Case: "well-formed/plain", Extractor: "dust",
				Detail: "known_deviations lists dust, but it now returns the intended result"},
		},
		Cases: []report.Case{
			{ID: "well-formed/plain", Title: "a plain case", Categories: []string{"well-formed"}, Origin: "synthetic", IntendedFound: true,
				Results: []report.Result{{Extractor: "seed", OK: true, MatchesIntended: true}, {Extractor: "robust", OK: true, MatchesIntended: true},
					{Extractor: "dust", OK: true, MatchesIntended: true, KnownDeviation: "keeps the analysis"}}},
			{ID: "malformed-tags/unclosed", Title: `an "unclosed" <summary>`, Categories: []string{"malformed-tags"}, Origin: "synthetic",
				IntendedFound: true,
				Response:      "<analysis>\nthinking</analysis>\n" + hostile + "\ntrailing\r\n",
				Intended:      "It said \"stop\" and 'go' & went.\n</details><script>alert(1)</script>",
				Results: []report.Result{
					{Extractor: "seed", OK: true, Path: "fallback", KnownDeviation: `no closing tag: falls back to "the whole" text`, Summary: ptr(hostile + "\ntrailing\r")},
					{Extractor: "robust", OK: true, Path: "fallback", Golden: "mismatch", Summary: ptr(hostile + "\ntrailing\r")},
					{Extractor: "dust", OK: true, MatchesIntended: true},
				}},
			{ID: "malformed-tags/no-summary", Title: "nothing intended", Categories: []string{"malformed-tags"}, Origin: "captured",
				Response: "just <b>text</b>\u0085with NEL",
				Results: []report.Result{
					{Extractor: "seed", OK: true, Path: "whole-text", KnownDeviation: "no tags: the whole text", Summary: ptr("just <b>text</b>\u0085with NEL")},
					{Extractor: "robust", OK: false, Path: "none", MatchesIntended: true},
					{Extractor: "dust", OK: false, Path: "none", MatchesIntended: true},
				}},
		},
		Drift: drift.MatrixResult{
			Seed: 1, N: 10, Pairs: []string{"well-formed/plain"}, Extractors: exs, Operators: ops,
			Identity:      row("identity", 10, 0, 10, [3]int{10, 0, 0}, [3]int{10, 0, 0}, [3]int{10, 0, 0}),
			Single:        []drift.Row{row("tag-case", 10, 1, 9, [3]int{3, 0, 6}, [3]int{9, 0, 0}, [3]int{0, 2, 9}), row("crlf", 10, 0, 10, [3]int{10, 0, 0}, [3]int{10, 0, 0}, [3]int{5, 0, 0})},
			SingleTotal:   row("total", 20, 1, 19, [3]int{13, 0, 6}, [3]int{19, 0, 0}, [3]int{5, 2, 9}),
			Composed:      []drift.Row{row("tag-case", 14, 2, 12, [3]int{2, 1, 8}, [3]int{11, 0, 1}, [3]int{0, 3, 12}), row("crlf", 12, 0, 12, [3]int{6, 0, 3}, [3]int{12, 0, 0}, [3]int{4, 0, 2})},
			ComposedTotal: row("total", 20, 2, 18, [3]int{7, 1, 9}, [3]int{17, 0, 1}, [3]int{3, 3, 13}),
			Total:         row("total", 50, 3, 47, [3]int{30, 1, 15}, [3]int{46, 0, 1}, [3]int{18, 5, 22}),
		},
		Eval: eval.NewReport(results, eval.Options{}),
	}
}

func renderHTML(t *testing.T, r *report.Report) string {
	t.Helper()
	out, err := HTML(r)
	if err != nil {
		t.Fatalf("HTML() error: %v", err)
	}
	checkHTML(t, out)
	return string(out)
}

func TestHTMLHandReport(t *testing.T) {
	r := handReport()
	page := renderHTML(t, r)

	if i := strings.Index(strings.ToLower(page), "<script"); i >= 0 {
		t.Errorf("HTML() holds an unescaped <script at byte %d: %q", i, page[max(0, i-80):min(len(page), i+80)])
	}
	for _, want := range []string{
		`&lt;script&gt;alert(1)&lt;/script&gt;`,          // in the diff and the response
		`&lt;/details&gt;`,                               // cannot close a details element
		`&lt;summary&gt;`,                                // nor open a summary
		`&lt;script&gt;alert(&#39;missed&#39;)`,          // a missed fact
		`go test -run &#34;TestX&#34;`,                   // a leaked fact
		`an &#34;unclosed&#34; &lt;summary&gt;`,          // a title
		`falls back to &#34;the whole&#34; text`,         // a known deviation
		`a &lt;b&gt;bold&lt;/b&gt; source`,               // an extractor's source
		`<span class="sp" title="U&#43;0085">NEL</span>`, // an invisible character, by name
		`<span class="sp" title="U&#43;000D">CR</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("HTML() lacks %s", want)
		}
	}
	if got, want := strings.Count(page, "</details>"), strings.Count(page, "<details"); got != want {
		t.Errorf("HTML() has %d </details> for %d <details>", got, want)
	}
	// coverage, leakage and a panel per drift extractor
	if got, want := strings.Count(page, "<svg"), 2+len(r.Drift.Extractors); got != want {
		t.Errorf("HTML() has %d <svg> charts, want %d", got, want)
	}
	if got, want := strings.Count(page, "<title id="), 2+len(r.Drift.Extractors); got != want {
		t.Errorf("HTML() has %d chart titles, want %d", got, want)
	}

	// The verdict comes before everything else on the page.
	verdict := strings.Index(page, `<div class="verdict regressed" id="verdict">`)
	if verdict < 0 {
		t.Fatalf("HTML() has no regressed verdict")
	}
	for _, later := range []string{`<dl class="run">`, "Totals per extractor", `<section id="regressions">`} {
		if i := strings.Index(page, later); i < verdict {
			t.Errorf("HTML() puts %q (at %d) before the verdict (at %d)", later, i, verdict)
		}
	}
	if !strings.Contains(page, `<p class="verdict-head">Regressed: 3 problems in 2 cases</p>`) {
		t.Errorf("HTML() verdict lacks its headline")
	}
	if strings.Contains(page, "Complete:") {
		t.Errorf("HTML() still has the complete banner")
	}

	// One row per case and extractor, whatever its number of problems.
	regressions := pageSection(t, page, "regressions")
	if got := strings.Count(regressions, `<article class="row-item"`); got != 2 {
		t.Errorf("regressions section has %d rows, want 2 (robust on unclosed, dust on plain)", got)
	}
	for _, want := range []string{
		`<article class="row-item" id="row-malformed-tags-unclosed-robust">`,
		`<span class="mono case-id">malformed-tags/unclosed</span> <span class="ex">robust</span> <span class="badge regression" title="robust no longer returns the intended result and known_deviations does not list it">unlisted deviation</span> <span class="badge regression" title="the output of robust differs from corpus/golden/robust/malformed-tags/unclosed.txt">golden mismatch</span></h3>`,
		`<span class="ex">dust</span> <span class="badge regression" title="known_deviations lists dust, but it now returns the intended result">stale deviation</span>`,
		"The output is now the intended summary",
		`<a href="#case-malformed-tags-unclosed">the case's other outputs</a>`,
	} {
		if !strings.Contains(regressions, want) {
			t.Errorf("regressions section lacks %q", want)
		}
	}
	if got := strings.Count(regressions, `<table class="diff">`); got != 1 {
		t.Errorf("regressions section has %d diffs, want 1 (robust's output on unclosed)", got)
	}
	for _, e := range r.Drift.Extractors {
		if !strings.Contains(pageSection(t, page, "categories"), ">"+e+"<") {
			t.Errorf("category table lacks extractor %s", e)
		}
	}
	driftSection := pageSection(t, page, "drift")
	for _, op := range append(r.Drift.Operators, "identity", "all samples") {
		if !strings.Contains(driftSection, ">"+op+"<") {
			t.Errorf("drift section lacks operator %s", op)
		}
	}
	for _, op := range r.Drift.Operators {
		if !strings.Contains(pageSection(t, page, "charts"), ">"+op+"<") {
			t.Errorf("drift chart lacks operator %s", op)
		}
	}
	// tag-case, seed: exact 3 of 9, leak 0 of 10, lost 6 of 9
	if !strings.Contains(driftSection, `exact 3 of 9, leaked 0 of 10, lost 6 of 9">33</td><td class="d ">0</td><td class="d b3">67</td>`) {
		t.Errorf("drift section lacks seed's tag-case cell 33 0 67")
	}
	cases := pageSection(t, page, "cases")
	for _, id := range []string{"malformed-tags/unclosed", "malformed-tags/no-summary"} {
		if !strings.Contains(cases, ">"+id+"<") {
			t.Errorf("known deviations lack %s", id)
		}
	}
	if strings.Contains(cases, ">well-formed/plain<") {
		t.Errorf("known deviations show well-formed/plain, which keeps no output")
	}
	// robust's output on unclosed is a row of the regressions, not repeated here
	if got := strings.Count(cases, `<table class="diff">`); got != 2 {
		t.Errorf("known deviations have %d diffs, want 2 (seed on each case)", got)
	}
	if !strings.Contains(cases, `<span class="x">`) {
		t.Errorf("known deviations mark no changed word")
	}
	for _, want := range []string{"known deviation</span> <strong>seed</strong>", "intended: no summary"} {
		if !strings.Contains(cases, want) {
			t.Errorf("known deviations lack %q", want)
		}
	}
	if strings.Contains(cases, "<strong>robust</strong>") {
		t.Errorf("known deviations show robust, whose output on unclosed is a regression")
	}
	worst := pageSection(t, page, "eval")
	if i, j := strings.Index(worst, ">eval/bad<"), strings.Index(worst, ">eval/good<"); i < 0 || j < 0 || i > j {
		t.Errorf("eval: eval/bad (coverage 20%%) is not listed before eval/good (90%%)")
	}
	if strings.Contains(page, "PARTIAL") {
		t.Errorf("a complete report says PARTIAL")
	}
}

// pageSection returns the text of the section element with id.
func pageSection(t *testing.T, page, id string) string {
	t.Helper()
	start := strings.Index(page, `<section id="`+id+`">`)
	if start < 0 {
		t.Fatalf("HTML() has no section %s", id)
	}
	end := strings.Index(page[start:], "</section>")
	return page[start : start+end]
}

func TestHTMLDeterministic(t *testing.T) {
	a, err := HTML(handReport())
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		b, err := HTML(handReport())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("HTML() differs between two renderings of the same report")
		}
	}
}

func TestHTMLPartial(t *testing.T) {
	r := handReport()
	r.Complete, r.Stages = false, []string{"extract"}
	r.Corpus.LoadProblems = 1
	page := renderHTML(t, r)
	for _, want := range []string{
		"PARTIAL REPORT", "<title>compacteval report (partial)</title>",
		"Stages that did not run: <strong>golden, drift, eval</strong>", "1 case files did not load",
		"The drift stage did not run.", "The eval stage did not run.", "not checked",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("partial HTML() lacks %q", want)
		}
	}
	if got := strings.Count(page, "<svg"); got != 0 {
		t.Errorf("partial HTML() without drift and eval has %d charts, want 0", got)
	}
}

func TestHTMLNoProblems(t *testing.T) {
	r := handReport()
	r.Problems = nil
	page := renderHTML(t, r)
	if !strings.Contains(pageSection(t, page, "regressions"), "No regressions") {
		t.Errorf("HTML() without problems does not say No regressions")
	}
	if strings.Contains(page, `badge regression`) {
		t.Errorf("HTML() without problems marks a regression")
	}
}

func TestSideBySide(t *testing.T) {
	long := func(prefix string, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s %d\n", prefix, i)
		}
		return b.String()
	}
	tests := []struct {
		name       string
		a, b       string
		want       string // the rows, one per line, as rowString gives them
		dels, adds int
	}{
		{name: "equal texts have no rows", a: "x\n", b: "x\n", want: ""},
		{
			name: "a changed line is paired and compared word by word",
			a:    "one\ntwo three\nfour\n", b: "one\ntwo 3\nfour\n",
			want: "eq 1 1 |one|one\nchg 2 2 |two [three]|two [3]\neq 3 3 |four|four",
			dels: 1, adds: 1,
		},
		{
			name: "extra lines pair with nothing",
			a:    "a\n", b: "a\nb\nc\n",
			want: "eq 1 1 |a|a\nins 0 2 ||b\nins 0 3 ||c",
			adds: 2,
		},
		{
			name: "nothing intended: every line inserted",
			a:    "", b: "x\ny",
			want: "ins 0 1 ||x\nins 0 2 ||y",
			adds: 2,
		},
		{
			name: "a missing final newline is marked",
			a:    "a\nb\n", b: "a\nb",
			want: "eq 1 1 |a|a\nchg 2 2 |b|b$",
			dels: 1, adds: 1,
		},
		{
			name: "invisible characters are named",
			a:    "x y\n", b: "x\u00a0y\r\n",
			want: "chg 1 1 |x[ y]|x[<U+00A0>][y][<CR>]",
			dels: 1, adds: 1,
		},
		{
			name: "NEL, LS, PS and a lone CR end lines too",
			a:    "a\u0085b\u0085c\u2028d\re\u2029", b: "a\u0085B\u0085c\u2028d\re\u2029",
			want: "eq 1 1 |a<U+0085>|a<U+0085>\nchg 2 2 |[b]<U+0085>|[B]<U+0085>\neq 3 3 |c<U+2028>|c<U+2028>\neq 4 4 |d<CR>|d<CR>\neq 5 5 |e<U+2029>|e<U+2029>",
			dels: 1, adds: 1,
		},
		{
			name: "unchanged lines are kept only around changes",
			a:    long("same", 10) + "old\n" + long("tail", 10), b: long("same", 10) + "new\n" + long("tail", 10),
			want: "skip 7 unchanged lines\neq 8 8 |same 7|same 7\neq 9 9 |same 8|same 8\neq 10 10 |same 9|same 9\n" +
				"chg 11 11 |[old]|[new]\neq 12 12 |tail 0|tail 0\neq 13 13 |tail 1|tail 1\neq 14 14 |tail 2|tail 2\nskip 7 unchanged lines",
			dels: 1, adds: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, dels, adds := sideBySide(tt.a, tt.b)
			var got []string
			for _, r := range rows {
				got = append(got, rowString(r))
			}
			if diff := cmp.Diff(tt.want, strings.Join(got, "\n")); diff != "" {
				t.Errorf("sideBySide(%q, %q) rows mismatch (-want +got):\n%s", tt.a, tt.b, diff)
			}
			if dels != tt.dels || adds != tt.adds {
				t.Errorf("sideBySide(%q, %q) = %d deletions, %d insertions, want %d, %d", tt.a, tt.b, dels, adds, tt.dels, tt.adds)
			}
		})
	}
}

func TestSideBySideLongChange(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "loop line %d\n", i)
	}
	rows, _, adds := sideBySide("", b.String())
	if adds != 1000 {
		t.Errorf("sideBySide of 1000 inserted lines counts %d", adds)
	}
	if len(rows) != diffRunHead+diffRunTail+1 {
		t.Fatalf("sideBySide of 1000 inserted lines has %d rows, want %d", len(rows), diffRunHead+diffRunTail+1)
	}
	skip := rows[diffRunHead]
	if skip.Kind != "skip" || !strings.HasPrefix(skip.Skip, "900 changed lines not shown") {
		t.Errorf("row %d = %+v, want a skip of 900 lines", diffRunHead, skip)
	}
	if last := rows[len(rows)-1]; last.RNo != 1000 {
		t.Errorf("last row is line %d, want 1000", last.RNo)
	}
}

// rowString writes a diff row as "kind lno rno |left|right", changed text in brackets,
// invisible characters in angle brackets and a missing final newline as "$".
func rowString(r diffRow) string {
	if r.Kind == "skip" {
		return "skip " + r.Skip
	}
	side := func(segs []segment, noEOL bool) string {
		var b strings.Builder
		for _, s := range segs {
			text := s.Text
			if s.Sp {
				text = "<" + s.Title + ">"
				if s.Title == "U+000D" {
					text = "<CR>"
				}
			}
			if s.Chg {
				text = "[" + text + "]"
			}
			b.WriteString(text)
		}
		if noEOL {
			b.WriteString("$")
		}
		return b.String()
	}
	return fmt.Sprintf("%s %d %d |%s|%s", r.Kind, r.LNo, r.RNo, side(r.L, r.LEOL), side(r.R, r.REOL))
}

func TestRateFormatting(t *testing.T) {
	tests := []struct {
		k, n        int
		rate, class string
		percent     int
		reason      string
	}{
		{k: 0, n: 0, rate: "n/a", class: "na", percent: 0, reason: "nothing to count"},
		{k: 0, n: 5, rate: "0.0%", class: "q0", percent: 0, reason: "none"},
		{k: 1, n: 5000, rate: "0.1%", class: "q0", percent: 1, reason: "some is never 0"},
		{k: 4999, n: 5000, rate: "99.9%", class: "q4", percent: 99, reason: "not all is never 100"},
		{k: 5, n: 5, rate: "100.0%", class: "q5", percent: 100, reason: "all"},
		{k: 2, n: 5, rate: "40.0%", class: "q2", percent: 40, reason: "a fifth boundary starts its class"},
		{k: 132, n: 188, rate: "70.2%", class: "q3", percent: 70, reason: "seed on the corpus"},
	}
	for _, tt := range tests {
		if got := rate(tt.k, tt.n); got != tt.rate {
			t.Errorf("rate(%d, %d) = %q, want %q (%s)", tt.k, tt.n, got, tt.rate, tt.reason)
		}
		if got := rateClass(tt.k, tt.n); got != tt.class {
			t.Errorf("rateClass(%d, %d) = %q, want %q (%s)", tt.k, tt.n, got, tt.class, tt.reason)
		}
		if got := percent(tt.k, tt.n); got != tt.percent {
			t.Errorf("percent(%d, %d) = %d, want %d (%s)", tt.k, tt.n, got, tt.percent, tt.reason)
		}
	}
}

func TestWorstEval(t *testing.T) {
	rs := []eval.Result{
		{ID: "undefined"},
		{ID: "b-half", Coverage: eval.Share{Hit: 1, Of: 2}, BoundaryCoverage: eval.Share{Hit: 1, Of: 2}},
		{ID: "a-half", Coverage: eval.Share{Hit: 2, Of: 4}, BoundaryCoverage: eval.Share{Hit: 1, Of: 2}},
		{ID: "half-low-boundary", Coverage: eval.Share{Hit: 1, Of: 2}, BoundaryCoverage: eval.Share{Hit: 0, Of: 2}},
		{ID: "full", Coverage: eval.Share{Hit: 3, Of: 3}},
		{ID: "zero", Coverage: eval.Share{Hit: 0, Of: 3}},
	}
	var got []string
	for _, r := range worstEval(rowsOf(rs), 5) {
		got = append(got, r.ID)
	}
	want := []string{"zero", "half-low-boundary", "a-half", "b-half", "full"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("worstEval() mismatch (-want +got):\n%s", diff)
	}
}

// go test -run='^$' -fuzz='^FuzzLineDiff$' -fuzztime=30s ./internal/render
func FuzzLineDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc")
	f.Add("", "x\r\ny\u0085z\u2028")
	f.Add("same\n", "same\n")
	f.Add("x\ry\r\n\r", "\xff\n\r\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		var ga, gb strings.Builder
		for _, op := range lineDiff(a, b) {
			for _, l := range op.lines {
				if op.op != diffmatchpatch.DiffInsert {
					ga.WriteString(l)
				}
				if op.op != diffmatchpatch.DiffDelete {
					gb.WriteString(l)
				}
			}
		}
		if ga.String() != a || gb.String() != b {
			t.Fatalf("lineDiff(%q, %q) rebuilds %q and %q", a, b, ga.String(), gb.String())
		}
		rows, _, _ := sideBySide(a, b)
		ln, rn := 0, 0
		for _, r := range rows {
			if r.LNo > 0 {
				if r.LNo <= ln {
					t.Fatalf("sideBySide(%q, %q): left line %d after %d", a, b, r.LNo, ln)
				}
				ln = r.LNo
			}
			if r.RNo > 0 {
				if r.RNo <= rn {
					t.Fatalf("sideBySide(%q, %q): right line %d after %d", a, b, r.RNo, rn)
				}
				rn = r.RNo
			}
		}
		if ln > len(splitLines(a)) || rn > len(splitLines(b)) {
			t.Fatalf("sideBySide(%q, %q) numbers lines past the end: %d, %d", a, b, ln, rn)
		}
	})
}
