package render

import (
	"strings"
	"testing"

	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
)

// pathOnlyReport is handReport where robust's golden mismatch on unclosed is in the path
// alone, and the other problems are gone.
func pathOnlyReport() *report.Report {
	r := handReport()
	r.Problems = r.Problems[1:2] // the golden mismatch
	res := &r.Cases[1].Results[1]
	res.MatchesIntended, res.GoldenPath, res.PathOnly = false, "line-anchored", true
	return r
}

func TestVerdict(t *testing.T) {
	tests := []struct {
		name     string
		report   func() *report.Report
		status   string
		headline string
		lines    []string
	}{
		{
			name: "regressions and a stale deviation", report: handReport, status: "regressed",
			headline: "Regressed: 3 problems in 2 cases",
			lines: []string{
				"robust: 1 case changes behaviour (1 unlisted deviation, 1 golden mismatch).",
				"dust: 1 case changes behaviour (1 stale deviation).",
			},
		},
		{
			name: "only a path changed", report: pathOnlyReport, status: "paths",
			headline: "Not passed: 1 problem in 1 case, no behaviour change",
			lines:    []string{"robust: 1 case changes only the path that decided; the summary is the golden's byte for byte, not a behaviour change."},
		},
		{
			name: "only a deviation that stopped happening", status: "improved",
			headline: "Not passed: 1 problem in 1 case, none a regression",
			report:   func() *report.Report { r := handReport(); r.Problems = r.Problems[2:]; return r },
			lines:    []string{"dust: 1 case changes behaviour (1 stale deviation)."},
		},
		{
			name: "no problems", status: "passed", headline: "Passed: no problems",
			report: func() *report.Report { r := handReport(); r.Problems = nil; return r },
			lines:  []string{"Every golden file matches, and every deviation from intended is listed in known_deviations."},
		},
		{
			name: "no problems, no goldens", status: "passed", headline: "Passed: no problems",
			report: func() *report.Report {
				r := handReport()
				r.Problems, r.Stages = nil, []string{"extract", "drift", "eval"}
				return r
			},
			lines: []string{"Every deviation from intended is listed in known_deviations; the corpus has no golden files to compare."},
		},
		{
			name: "no problems, a module alone", status: "passed", headline: "Passed: no problems",
			report: func() *report.Report {
				r := handReport()
				r.Problems = nil
				r.Extractors = []report.Extractor{{Name: "module:x.ts", External: true}}
				return r
			},
			lines: []string{"None of the run itself: a module or command has no goldens and no known_deviations; compacteval gate compares it with the baseline it blessed."},
		},
		{
			name: "no problems, stages missing", status: "incomplete", headline: "Incomplete: no problems in what ran",
			report: func() *report.Report {
				r := handReport()
				r.Problems, r.Complete, r.Stages = nil, false, []string{"extract"}
				return r
			},
			lines: []string{"Stages that did not run: golden, drift, eval. A partial report never passes the gate."},
		},
		{
			name: "a file that did not load in a partial run", status: "regressed", headline: "Regressed: 1 problem in 1 case",
			report: func() *report.Report {
				r := handReport()
				r.Complete, r.Stages = false, []string{"extract", "golden"}
				r.Problems = []report.Problem{{Kind: "load-error", Case: "bad.yaml", Detail: "bad.yaml:3: unknown key"}}
				return r
			},
			lines: []string{"corpus: 1 case did not load (1 load error)."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.report()
			v := newVerdict(r, mustTroubleRows(t, r))
			if v.Status != tt.status || v.Headline != tt.headline {
				t.Errorf("newVerdict() = %q, %q, want %q, %q", v.Status, v.Headline, tt.status, tt.headline)
			}
			if diff := cmp.Diff(tt.lines, v.Lines); diff != "" {
				t.Errorf("newVerdict() lines mismatch (-want +got):\n%s", diff)
			}
			md := markdownOf(t, r)
			if want := "# compacteval report\n\n**" + tt.headline + ".**\n\n"; !strings.HasPrefix(md, want) {
				t.Errorf("Markdown() does not start with the verdict %q:\n%s", want, md[:min(len(md), 300)])
			}
			page := renderHTML(t, r)
			head := `<h1>compacteval report</h1>` + "\n" + `<div class="verdict ` + tt.status + `" id="verdict">` + "\n" + `<p class="verdict-head">` + tt.headline + `</p>`
			if !strings.Contains(page, head) {
				t.Errorf("HTML() does not open with the verdict %q", head)
			}
		})
	}
}

func TestTroubleRows(t *testing.T) {
	r := handReport()
	// A second problem on the same pair, listed apart from the first, still joins its row.
	r.Problems = append(r.Problems, report.Problem{Kind: "golden-missing", Case: "well-formed/plain", Extractor: "dust", Detail: "no golden"})
	var got []string
	for _, row := range mustTroubleRows(t, r) {
		got = append(got, row.Case+" "+row.Extractor+" "+strings.Join(row.Kinds, ","))
	}
	want := []string{
		"malformed-tags/unclosed robust unlisted-deviation,golden-mismatch",
		"well-formed/plain dust stale-deviation,golden-missing",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("troubleRows() mismatch (-want +got):\n%s", diff)
	}
}

func TestMarkdownRows(t *testing.T) {
	md := markdownOf(t, handReport())
	for _, want := range []string{
		"2 cases and extractors that change behaviour:\n\n| case | extractor | trouble | path |\n|---|---|---|---|\n" +
			"| `malformed-tags/unclosed` | robust | unlisted deviation, golden mismatch | fallback |\n" +
			"| `well-formed/plain` | dust | stale deviation | - |\n",
		"<details><summary><code>malformed-tags/unclosed</code> robust: intended (-) against output (+)</summary>\n\n```diff\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown() lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "Path changes only") {
		t.Errorf("Markdown() lists path changes where there are none")
	}
	if i, j := strings.Index(md, "## Regressions"), strings.Index(md, "## Extractors"); i < 0 || i > j {
		t.Errorf("Markdown() does not put the regressions before the extractors")
	}

	md = markdownOf(t, pathOnlyReport())
	want := "### Path changes only (not a behaviour change)\n\nThe summary is the golden's byte for byte; only the path that decided differs.\n\n" +
		"| case | extractor | golden path | path |\n|---|---|---|---|\n| `malformed-tags/unclosed` | robust | line-anchored | fallback |\n"
	if !strings.Contains(md, want) {
		t.Errorf("Markdown() of a path change lacks %q:\n%s", want, md)
	}
	if strings.Contains(md, "change behaviour") {
		t.Errorf("Markdown() of a path change calls it a behaviour change:\n%s", md)
	}
}

func TestFence(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{in: "no ticks", want: "```"},
		{in: "a ``` fence", want: "````"},
		{in: "`one` and ````four````", want: "`````"},
	} {
		if got := Fence(tt.in); got != tt.want {
			t.Errorf("Fence(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestVerdictSelection: the verdict of a selection run says first that it ran on a
// selection, with the criteria.
func TestVerdictSelection(t *testing.T) {
	r := handReport()
	r.Selection = &report.Selection{Categories: []string{"fenced"}, Cases: 3, Of: 9}
	v := newVerdict(r, mustTroubleRows(t, r))
	if want := "On a selection of 3 of 9 cases (-category fenced): the gate compares these cases only."; len(v.Lines) == 0 || v.Lines[0] != want {
		t.Errorf("newVerdict(selection).Lines = %q, want %q first", v.Lines, want)
	}
}

func mustTroubleRows(t *testing.T, r *report.Report) []troubleRow {
	t.Helper()
	rows, err := troubleRows(r)
	if err != nil {
		t.Fatalf("troubleRows() = %v", err)
	}
	return rows
}

func markdownOf(t *testing.T, r *report.Report) string {
	t.Helper()
	md, err := Markdown(r)
	if err != nil {
		t.Fatalf("Markdown() = %v", err)
	}
	return string(md)
}
