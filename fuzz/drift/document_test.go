package drift

import (
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
)

// TestIntended checks the intended rules on compositions built by hand, where the structure
// decides the answer.
func TestIntended(t *testing.T) {
	draft := "1. Primary Request:\n   Fix the retry."
	for _, tc := range []struct {
		name      string
		build     func(d *Doc)
		want      string
		intended  corpus.Intended
		ambiguous bool
		reason    string
	}{
		{
			name: "identity", build: func(d *Doc) {},
			want: wellFormed, intended: found(testSummary),
			reason: "the pair's summary",
		},
		{
			name: "retry cut in the second block",
			build: func(d *Doc) {
				retry(d, newRand(2))
				d.CutAfterBody(d.summary)
				d.summary.Body = "1. Prim"
			},
			want:     analysisBlock + "\n\n" + block("<summary>", draft, "</summary>") + "\n\nLet me rewrite that summary more carefully.\n\n<summary>\n1. Prim",
			intended: found(draft),
			reason:   "the last complete block wins over a cut retry (corpus: second-summary-opened-not-closed)",
		},
		{
			name: "retry never closed",
			build: func(d *Doc) {
				retry(d, newRand(2))
				d.summary.Close = ""
			},
			want:      analysisBlock + "\n\n" + block("<summary>", draft, "</summary>") + "\n\nLet me rewrite that summary more carefully.\n\n<summary>\n" + testSummary,
			intended:  found(draft),
			ambiguous: true,
			reason:    "a retry the model forgot to close may be the one it meant",
		},
		{
			name: "unclosed summary, then prose",
			build: func(d *Doc) {
				d.summary.Close = ""
				proseAfter(d, newRand(1))
			},
			want:      analysisBlock + "\n\n<summary>\n" + testSummary + "\n\nLet me know if you want me to continue with the next step.",
			intended:  found(testSummary),
			ambiguous: true,
			reason:    "nothing marks where an unclosed summary ends before prose",
		},
		{
			name: "unclosed summary, then the analysis",
			build: func(d *Doc) {
				summaryFirst(d, nil)
				d.summary.Close = ""
			},
			want:     "<summary>\n" + testSummary + "\n\n" + analysisBlock,
			intended: found(testSummary),
			reason:   "the analysis opener ends an unclosed summary",
		},
		{
			name: "unclosed summary in a fence",
			build: func(d *Doc) {
				d.summary.Close = ""
				d.Insert(2, &Part{Kind: Fence, Body: "```"})
			},
			want:     analysisBlock + "\n\n<summary>\n" + testSummary + "\n```",
			intended: found(testSummary),
			reason:   "a fence line ends an unclosed summary",
		},
		{
			name: "opener-less summary after prose",
			build: func(d *Doc) {
				summaryFirst(d, nil)
				d.summary.Open = ""
				proseBefore(d, newRand(2))
			},
			want:      "Understood: text only, no tool calls.\n\n" + testSummary + "\n</summary>\n\n" + analysisBlock,
			intended:  found(testSummary),
			ambiguous: true,
			reason:    "no mark where the summary starts",
		},
		{
			name: "opener-less summary at the start",
			build: func(d *Doc) {
				summaryFirst(d, nil)
				d.summary.Open = ""
			},
			want:     testSummary + "\n</summary>\n\n" + analysisBlock,
			intended: found(testSummary),
			reason:   "the start of the response marks where it starts",
		},
		{
			name: "opener-less and closer-less summary",
			build: func(d *Doc) {
				d.summary.Open, d.summary.Close = "", ""
			},
			want:      analysisBlock + "\n\n" + testSummary,
			intended:  found(testSummary),
			ambiguous: true,
			reason:    "untagged text after the analysis may or may not be a summary",
		},
		{
			name: "opener-less summary closed by </analysis>",
			build: func(d *Doc) {
				d.summary.Open, d.summary.Close = "", "</analysis>"
			},
			want:      analysisBlock + "\n\n" + testSummary + "\n</analysis>",
			intended:  found(testSummary),
			ambiguous: true,
			reason:    "text after a closed analysis that ends in </analysis> may be a second analysis",
		},
		{
			name: "opener-less summary holding an HTML opener line",
			build: func(d *Doc) {
				d.summary.Open = ""
				d.summary.Body = "1. Request:\n<details>\n<summary>\nWhy\n</summary>\n</details>"
			},
			want:      analysisBlock + "\n\n1. Request:\n<details>\n<summary>\nWhy\n</summary>\n</details>\n</summary>",
			intended:  found("1. Request:\n<details>\n<summary>\nWhy\n</summary>\n</details>"),
			ambiguous: true,
			reason:    "the HTML <summary> line is the only opener a reader sees",
		},
		{
			name: "partial closer at a line start",
			build: func(d *Doc) {
				d.summary.Body = testSummary + "\n</summ"
				d.CutAfterBody(d.summary)
			},
			want:     analysisBlock + "\n\n<summary>\n" + testSummary + "\n</summ",
			intended: found(testSummary),
			reason:   "the fragment of a closer the cut left is not body",
		},
		{
			name: "partial closer mid-line",
			build: func(d *Doc) {
				d.summary.Body = testSummary + " <details><summary>x</summ"
				d.CutAfterBody(d.summary)
			},
			want:     analysisBlock + "\n\n<summary>\n" + testSummary + " <details><summary>x</summ",
			intended: found(testSummary + " <details><summary>x</summ"),
			reason:   "a fragment in the middle of a line belongs to the HTML being written",
		},
		{
			name: "NEL line ends, cut after a NEL",
			build: func(d *Doc) {
				d.EOL, d.BodyEOL = "\u0085", "\u0085"
				d.summary.Body = "1. Primary Request:\n"
				d.CutAfterBody(d.summary)
			},
			want:     strings.ReplaceAll(analysisBlock, "\n", "\u0085") + "\u0085\u0085<summary>\u00851. Primary Request:\u0085",
			intended: found("1. Primary Request:"),
			reason:   "where NEL ends the lines, a NEL at the cut is a line end, not content",
		},
		{
			name: "cut in the lead BOM",
			build: func(d *Doc) {
				d.summary.Lead = "\ufeff"
				d.CutAfterBody(d.summary)
				d.summary.Body = ""
			},
			want:     analysisBlock + "\n\n<summary>\n\ufeff",
			intended: corpus.Intended{},
			reason:   "an opener followed by nothing but a BOM holds no summary",
		},
		{
			name: "echoed template and a cut real block",
			build: func(d *Doc) {
				d.Insert(0, &Part{Kind: Example, Body: "<summary>\n1. [Detailed description]\n</summary>"})
				d.summary.Body = "1. Prim"
				d.CutAfterBody(d.summary)
			},
			want:     "<summary>\n1. [Detailed description]\n</summary>\n\n" + analysisBlock + "\n\n<summary>\n1. Prim",
			intended: found("1. Prim"),
			reason:   "the template is never the summary, even when complete",
		},
	} {
		d := NewDoc(testPair)
		tc.build(d)
		s := d.Sample()
		if s.Response != tc.want {
			t.Errorf("%s (%s): response mismatch (-want +got):\n%s", tc.name, tc.reason, cmp.Diff(tc.want, s.Response))
		}
		if s.Intended != tc.intended || s.Ambiguous != tc.ambiguous {
			t.Errorf("%s (%s): intended = %+v, ambiguous %v; want %+v, %v", tc.name, tc.reason, s.Intended, s.Ambiguous, tc.intended, tc.ambiguous)
		}
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"  a \r\nb\rc\u2028d\u2029e\u0085f\n\n \n", []string{"a", "b", "c", "d", "e", "f"}},
		{"\ufeffx\u00a0\n\u200by", []string{"x", "\u200by"}},
	} {
		if got := Lines(tc.in); !cmp.Equal(got, tc.want) {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestAnalysisLines(t *testing.T) {
	p := Pair{
		Analysis: "Short.\nThe user asked for a retry fix.\n   The user asked for a retry fix.  \nA line the summary repeats too.",
		Summary:  "1. Request:\n   A line the summary repeats too.",
	}
	got := MutateWith(p, 1).Analysis
	want := []string{"The user asked for a retry fix."}
	if !cmp.Equal(got, want) {
		t.Errorf("Analysis = %q, want %q (distinct, long enough, not in a summary block)", got, want)
	}
}
