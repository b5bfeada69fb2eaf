package abtest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/record"
	"github.com/google/go-cmp/cmp"
)

// synthetic returns a result of n inputs, every one moved, with long summaries and many
// facts gained and lost: more than a comment holds once n is in the hundreds.
func synthetic(n int) *Result {
	base, head := 0.6, 0.55
	r := &Result{
		SchemaVersion: SchemaVersion, Provider: "openai", Model: "fake", Samples: 2,
		Base: SideInfo{Desc: "module a.ts"}, Head: SideInfo{Desc: "module b.ts"},
		Verdict:  Verdict{Measure: MeasureScore, Verdict: Worse, Mean: -0.05, Low: -0.07, High: -0.03, N: n},
		Measures: []Comparison{{Verdict: Verdict{Measure: MeasureScore, Verdict: Worse, Mean: -0.05, N: n}, Base: &base, Head: &head}},
		Lost:     []Lost{}, HeadOnlyLost: []Lost{}, Failures: []string{}, Unscorable: []Unscorable{},
	}
	long := strings.Repeat("a line of the summary that both sides write the same way\n", 40)
	for i := range n {
		in := InputResult{ID: fmt.Sprintf("sessions/s%03d.jsonl#compaction-1", i), Delta: map[string]float64{MeasureScore: -0.05 - float64(i%7)/100}}
		for s := 1; s <= 2; s++ {
			var missed []Fact
			for f := range 20 {
				missed = append(missed, Fact{Kind: "identifier", Text: fmt.Sprintf("name%d_%d", i, f), Weight: 2})
			}
			in.Base = append(in.Base, SampleResult{Sample: s, Found: true, Summary: long + "8. Current Work: kept\n", Values: map[string]float64{MeasureScore: 0.6}})
			in.Head = append(in.Head, SampleResult{Sample: s, Found: true, Summary: long, Values: map[string]float64{MeasureScore: 0.55}, Missed: missed})
		}
		r.Inputs = append(r.Inputs, in)
	}
	return r
}

// TestMarkdownLimit checks that the Markdown of a review too big for a comment stays
// under MarkdownLimit and says what it leaves out, while the HTML keeps every input.
func TestMarkdownLimit(t *testing.T) {
	tests := []struct {
		name   string
		inputs int
		cut    bool
	}{
		{name: "a few inputs fit whole", inputs: 3, cut: false},
		{name: "many inputs are cut", inputs: 400, cut: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := synthetic(tt.inputs)
			var b strings.Builder
			if err := Markdown(&b, r); err != nil {
				t.Fatal(err)
			}
			md := b.String()
			if len(md) > MarkdownLimit {
				t.Errorf("Markdown() of %d inputs is %d characters, want at most %d", tt.inputs, len(md), MarkdownLimit)
			}
			if got := strings.Contains(md, "**Not in this comment**"); got != tt.cut {
				t.Errorf("Markdown() of %d inputs says what it leaves out: %v, want %v", tt.inputs, got, tt.cut)
			}
			if !tt.cut && (strings.Count(md, "\n#### ") != tt.inputs || !strings.Contains(md, "`name2_0`")) {
				t.Errorf("Markdown() of %d inputs does not explain every input:\n%s", tt.inputs, md)
			}
			if !strings.HasSuffix(md, "| head | 0 | 0 | 0 | unknown (-price) |\n\nWhat every answer read cost when it was recorded, replayed ones included; what this run spent is on stderr and in the JSON (`spent`).\n") {
				t.Errorf("Markdown() of %d inputs does not end with the tokens and cost:\n%s", tt.inputs, md[max(0, len(md)-500):])
			}
			page, err := HTML(r)
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range r.Inputs {
				if !strings.Contains(string(page), "<h3 id=\""+in.ID+"\">") {
					t.Fatalf("HTML() does not explain %s", in.ID)
				}
			}
		})
	}
}

// TestFactChanges checks the facts gained and lost of an input, by measure, with the
// share of each side's samples that hold them and their weight.
func TestFactChanges(t *testing.T) {
	a := Fact{Kind: "identifier", Text: "evictIdle", Weight: 2.1}
	b := Fact{Kind: "path", Text: "limiter.go", Weight: 1.3}
	c := Fact{Kind: "constraint", Text: "never push"}
	in := InputResult{
		// base holds a everywhere, head in no sample; c is missed by both (no change);
		// b is in the boundary window: base's recent part never holds it, head's once.
		Base: []SampleResult{
			{Missed: []Fact{c}, Boundary: []BoundaryFact{{Fact: a, Held: true}, {Fact: b}}},
			{Missed: []Fact{c}, Boundary: []BoundaryFact{{Fact: a, Held: true}, {Fact: b}}},
		},
		Head: []SampleResult{
			{Missed: []Fact{a, c}, Boundary: []BoundaryFact{{Fact: a}, {Fact: b, Held: true}}},
			{Missed: []Fact{a, c}, Boundary: []BoundaryFact{{Fact: a}, {Fact: b}}},
		},
	}
	gained, lost := in.FactChanges()
	wantLost := []FactChange{
		{Measure: MeasureBoundary, Fact: a, Base: 1, Head: 0},
		{Measure: MeasureCoverage, Fact: a, Base: 1, Head: 0},
	}
	wantGained := []FactChange{{Measure: MeasureBoundary, Fact: b, Base: 0, Head: 0.5}}
	if diff := cmp.Diff(wantLost, lost); diff != "" {
		t.Errorf("FactChanges() lost mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantGained, gained); diff != "" {
		t.Errorf("FactChanges() gained mismatch (-want +got):\n%s", diff)
	}
}

func TestHeadline(t *testing.T) {
	base := 0.615
	zero := 0.0
	tests := []struct {
		name string
		mean float64
		base *float64
		want string
	}{
		{name: "a fall is stated against base", mean: -0.082, base: &base, want: "head is worse: headline score -0.082 (-13% of base 0.615), 95% interval -0.1 to +0.1"},
		{name: "a small change keeps a decimal", mean: 0.002, base: &base, want: "head is worse: headline score +0.002 (+0.3% of base 0.615), 95% interval -0.1 to +0.1"},
		{name: "a base of zero has no relative change", mean: 0.1, base: &zero, want: "head is worse: headline score +0.100 (base 0.000), 95% interval -0.1 to +0.1"},
		{name: "no base score, no base", mean: 0.1, want: "head is worse: headline score +0.100, 95% interval -0.1 to +0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Result{Verdict: Verdict{Verdict: Worse, Mean: tt.mean, Low: -0.1, High: 0.1}, Measures: []Comparison{{Base: tt.base}}}
			got := strings.ReplaceAll(strings.ReplaceAll(r.Headline(), "-0.100", "-0.1"), "to +0.100", "to +0.1")
			if got != tt.want {
				t.Errorf("Headline() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWordDiff(t *testing.T) {
	base := "1. Intent:\n   fix the limiter\n\n8. Current Work:\n   evictIdle in progress\n\n9. Next Step:\n   test it\n"
	head := "1. Intent:\n   fix the limiter\n\n8. Current Work:\n   TestEvictIdle in progress\n\n9. Next Step:\n   test it\n"
	var got []string
	for _, h := range WordDiff(base, head, 1) {
		got = append(got, fmt.Sprintf("@@ %d", h.Skipped))
		for _, l := range h.Lines {
			got = append(got, string(l.Kind)+l.Text())
		}
	}
	want := []string{"@@ 3", " 8. Current Work:", "!   [-evictIdle-]{+TestEvictIdle+} in progress", " "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WordDiff() mismatch (-want +got):\n%s", diff)
	}
	if hs := WordDiff(base, base, 1); hs != nil {
		t.Errorf("WordDiff(same, same) = %v, want nil", hs)
	}
}

func TestTagged(t *testing.T) {
	seed := "Write <analysis>...</analysis>, then the summary in <summary>...</summary>. Example: <example>x</example>"
	tests := []struct {
		name, instruction, answer, summary string
		want                               bool
	}{
		{name: "a closed summary block", instruction: seed, answer: "<analysis>a</analysis>\n<summary>\n1. x\n</summary>", summary: "1. x", want: true},
		{name: "opened on the heading's line, still closed", instruction: seed, answer: "<summary>1. x\n</summary>", summary: "1. x", want: true},
		{name: "never closed: the fallback took the whole text", instruction: seed, answer: "<summary>\n1. x", summary: "<summary>\n1. x", want: false},
		{name: "no tags at all", instruction: seed, answer: "1. x", summary: "1. x", want: false},
		{name: "only in the analysis block", instruction: seed, answer: "<analysis>1. x</analysis>", summary: "1. x", want: false},
		{name: "another tag the instruction names", instruction: "Answer in <recap></recap>.", answer: "<recap>1. x</recap>", summary: "1. x", want: true},
		{name: "an instruction that names no tag", instruction: "Summarize.", answer: "1. x", summary: "1. x", want: true},
		{name: "the system reminder it is sent in is no tag it asks for", instruction: "<system-reminder>\nSummarize.\n</system-reminder>", answer: "1. x", summary: "1. x", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tagged(tt.answer, tt.instruction, tt.summary); got != tt.want {
				t.Errorf("tagged(%q, %q, %q) = %v, want %v", tt.answer, tt.instruction, tt.summary, got, tt.want)
			}
		})
	}
}

// TestAnswers checks that an input is unscorable only when a call of it gave no answer,
// and that an answer whose case was not written is used.
func TestAnswers(t *testing.T) {
	p := &Plan{Sides: [2]Side{{Name: "base"}, {Name: "head"}}, Inputs: make([]Input, 2), Samples: 2}
	for k := range 8 {
		j := record.Job{}
		j.ID = fmt.Sprintf("job%d", k)
		p.Jobs = append(p.Jobs, j)
	}
	outs := make([]record.Outcome, 8)
	for k := range outs {
		outs[k] = record.Outcome{Response: &record.Response{Text: fmt.Sprintf("answer %d", k)}}
	}
	// Input 0, head sample 2 (job 5): answered, but its case did not check out.
	outs[5].Err = errors.New("recorded case job5 does not check out")
	// Input 1, head sample 1 (job 6): no answer.
	outs[6] = record.Outcome{Err: errors.New("429 too many requests")}
	texts, reasons := answers(p, outs)
	if texts[5] != "answer 5" {
		t.Errorf("answers() text 5 = %q, want the answer whose case was not written", texts[5])
	}
	want := []string{"", "head sample 1 (job6): 429 too many requests"}
	if diff := cmp.Diff(want, reasons); diff != "" {
		t.Errorf("answers() reasons mismatch (-want +got):\n%s", diff)
	}
}

// TestHTMLSides checks that the HTML labels its two columns base and head, and that its
// table of inputs can show the changed ones only.
func TestHTMLSides(t *testing.T) {
	r := synthetic(2)
	r.Inputs = append(r.Inputs, InputResult{ID: "still", Base: r.Inputs[0].Base, Head: r.Inputs[0].Base, Delta: map[string]float64{MeasureScore: 0}})
	page, err := HTML(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<h4>base, sample 1: score 0.600`, `<h4>head, sample 1: score 0.550`,
		`<input type="checkbox" id="changed-only">`, `<tr class="same"><td><code>still</code>`,
		`<h2>Inputs: 0 up, 2 down, 1 unchanged</h2>`, `<del>8. Current Work: kept</del>`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("HTML() holds no %q", want)
		}
	}
}

// TestFallbackNote checks what the review says of a side whose summaries came through its
// extractor's fallback: nothing when none did, how many when some did, and that the tag
// never matched when all did.
func TestFallbackNote(t *testing.T) {
	tests := []struct {
		name            string
		found, fallback int
		want            string
	}{
		{name: "none", found: 24, fallback: 0, want: ""},
		{name: "some", found: 24, fallback: 3, want: "3 of the 24 summaries this side found came through its extractor's fallback, not from the <summary> block the instruction asks for"},
		{name: "all", found: 5, fallback: 5, want: "every summary this side found (5) came through its extractor's fallback: no answer held it in the <summary> block the instruction asks for"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := SideInfo{Desc: "module b.ts", Found: tt.found, Fallback: tt.fallback, Tags: []string{"summary"}}
			if got := s.fallbackNote(); got != tt.want {
				t.Errorf("fallbackNote() = %q, want %q", got, tt.want)
			}
			r := synthetic(1)
			r.Head = s
			var b strings.Builder
			Markdown(&b, r)
			if got := strings.Contains(b.String(), "- head: module b.ts\n  - **"+tt.want+"**\n"); got != (tt.want != "") {
				t.Errorf("Markdown() says the note under head: %v, want %v", got, tt.want != "")
			}
		})
	}
}
