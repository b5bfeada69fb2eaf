package compact_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/textgen"
)

// fastAgrees fails t when robust's fast path answers text and the full scan answers
// differently, and reports whether the fast path answered.
func fastAgrees(t *testing.T, name, text string) bool {
	t.Helper()
	fast, ok := compact.FastBlock(text)
	if !ok {
		return false
	}
	if full := compact.ExtractRobustFull(text); fast != full {
		t.Errorf("%s: fast path(%q) = %+v, full scan gives %+v", name, clip(text), fast, full)
	}
	return true
}

// nearFast returns an answer of the fast path's shape (an optional analysis block, one
// summary block, tags alone on their lines, prose that mentions tags) with up to four
// atoms inserted at any byte: tags, broken tags, blanks, terminators, fences, brackets.
func nearFast(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(4) == 0 {
		b.WriteString(textgen.Prose(r, 1+r.IntN(2)) + "\n")
	}
	if r.IntN(4) != 0 {
		b.WriteString([...]string{"<analysis>\n", "<think>\n", "<ANALYSIS>\n", "  <analysis>\n"}[r.IntN(4)])
		b.WriteString(textgen.Prose(r, 1+r.IntN(4)))
		b.WriteString([...]string{"\n</analysis>\n\n", "\n</think>\n", " done.</analysis>\n", "\n</Analysis>\n"}[r.IntN(4)])
	}
	b.WriteString([...]string{"<summary>\n", "<Summary>\n", "\u200b<summary>\n", "<sumary>\n"}[r.IntN(4)])
	for n := 1 + r.IntN(6); n > 0; n-- {
		b.WriteString([...]string{"1. Primary Request and Intent:", "2. Key Technical Concepts:", "   - ", "```go", "```", "[Detailed description]", ""}[r.IntN(7)])
		b.WriteString(textgen.Prose(r, 1) + "\n")
	}
	b.WriteString([...]string{"</summary>", "</summary>\n", "</SUMMARY>\n", "  </summary>  \n"}[r.IntN(4)])
	if r.IntN(4) == 0 {
		b.WriteString(textgen.Prose(r, 1+r.IntN(2)))
	}
	text := b.String()
	extra := []string{"< /summary>", "</ analysis>", "<summary x>", "<summary\t>", "</summary><summary>", "</summary> <analysis>",
		"<example>", "\r", "\u2028", "\u0085", "\u00a0", "\ufeff", "\n\n", strings.Repeat(" ", 70), "`", "\xff", "<details>\n"}
	for n := r.IntN(5); n > 0; n-- {
		atom := textgen.Atoms[r.IntN(len(textgen.Atoms))]
		if r.IntN(2) == 0 {
			atom = extra[r.IntN(len(extra))]
		}
		at := r.IntN(len(text) + 1)
		text = text[:at] + atom + text[at:]
	}
	return text
}

// TestRobustFastAgrees holds the fast path to the full scan on every input of the
// TypeScript test (corpus, drift matrix, generated soups and answers, families), the
// benchmark inputs, every family at three sizes and generated answers of the fast path's
// shape with atoms inserted; and checks that the fast path answers its own family and a
// share of the generated answers, so that it cannot pass by giving up everywhere.
func TestRobustFastAgrees(t *testing.T) {
	names, texts := robustTSInputs(t)
	answered := 0
	for i := range texts {
		if fastAgrees(t, names[i], texts[i]) {
			answered++
		}
	}
	t.Logf("fast path answered %d of %d inputs of the TypeScript test", answered, len(texts))
	for _, in := range textgen.BenchInputs() {
		fastAgrees(t, "bench "+in.Name, in.Text)
	}
	for _, size := range []int{300, 5 << 10, 64 << 10} {
		for _, f := range textgen.Families(size) {
			if ok := fastAgrees(t, fmt.Sprintf("family %s %d", f.Name, size), f.Text); !ok && f.Name == "mentions" {
				t.Errorf("family %s %d: the fast path gave up on its own family", f.Name, size)
			}
		}
	}
	r := rand.New(rand.NewPCG(14, 3))
	near, nearAnswered := 30000, 0
	for i := range near {
		if fastAgrees(t, fmt.Sprintf("near-fast %d", i), nearFast(r)) {
			nearAnswered++
		}
	}
	t.Logf("fast path answered %d of %d generated answers of its shape", nearAnswered, near)
	if nearAnswered < near/10 || nearAnswered > near*9/10 {
		t.Errorf("fast path answered %d of %d generated answers of its shape, want between a tenth and nine tenths (the test would not check both sides)", nearAnswered, near)
	}
}

// TestRobustFastPath lists inputs the fast path answers and inputs it leaves to the full
// scan, each with the reason.
func TestRobustFastPath(t *testing.T) {
	const an = "<analysis>\nI read a.go and the `<summary>` format.\n</analysis>\n\n"
	const body = "1. Primary Request and Intent:\n   fix the test; the </summary> tag goes last\n2. Key Technical Concepts:\n   - Go"
	for _, tc := range []struct {
		name   string
		in     string
		fast   bool
		reason string
	}{
		{"well-formed with mentions", an + "<summary>\n" + body + "\n</summary>\n", true, "mentions mid-line are inert"},
		{"no analysis", "Here it is.\n<summary>\n" + body + "\n</summary>", true, "the analysis block is optional"},
		{"think and a late closer", "<think>\nplan\nall done </think>\n<summary>\n" + body + "\n</summary>", true, "a closer at a line end is structural"},
		{"uppercase tags", "<ANALYSIS>\nplan\n</Analysis>\n<SUMMARY>\n" + body + "\n</Summary>", true, "tags in any case"},
		{"no closer", an + "<summary>\n" + body, false, "an unclosed block is the full scan's"},
		{"two blocks", an + "<summary>\n" + body + "\n</summary>\n<summary>\nDone.\n</summary>", false, "blocks are compared there"},
		{"opener with attribute", an + "<summary type=\"final\">\n" + body + "\n</summary>", false, "its end is on the line"},
		{"tag after closer", "<analysis>\nplan\n</analysis><summary>\n" + body + "\n</summary>", false, "structure by position after a closer"},
		{"mid-line analysis closer", an + "<summary>\n" + body + "\nsee <analysis> then </analysis> there\n</summary>", false, "it closes a mid-line opener"},
		{"text after the opener", an + "<summary>Fixed it.\n" + body + "\n</summary>", false, "a tag on the opener's line would end the block"},
		{"closer after text", an + "<summary>\n" + body + " </summary>", false, "a tag before the closer on its line may pair with it"},
		{"no newline", "<summary>" + body + "</summary>", false, "U+0085 may end lines"},
		{"template", "<summary>\n1. Primary Request and Intent:\n   [Detailed description]\n   [Detail]\n   [More]\n</summary>", false, "a degenerate block"},
		{"long blank run", an + strings.Repeat(" ", 100) + "<summary>\n" + body + "\n</summary>", false, "blanks are read a bounded length"},
	} {
		e, ok := compact.FastBlock(tc.in)
		if ok != tc.fast {
			t.Errorf("%s (%s): FastBlock(%q) answers %v, want %v", tc.name, tc.reason, tc.in, ok, tc.fast)
		}
		if full := compact.ExtractRobustFull(tc.in); ok && e != full {
			t.Errorf("%s: FastBlock(%q) = %+v, full scan gives %+v", tc.name, tc.in, e, full)
		}
	}
}

// go test -run='^$' -fuzz='^FuzzRobustFastAgrees$' -fuzztime=30s ./compact
//
// FuzzRobustFastAgrees holds robust's fast path to its full scan wherever the fast path
// answers; seeds are the corpus, the unit tests' traps and answers of the fast path's shape.
func FuzzRobustFastAgrees(f *testing.F) {
	for _, s := range seedTexts(f) {
		f.Add(s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		f.Add(nearFast(r))
	}
	f.Fuzz(func(t *testing.T, text string) {
		fast, ok := compact.FastBlock(text)
		if !ok {
			return // the full scan decides: nothing to compare
		}
		if full := compact.ExtractRobustFull(text); fast != full {
			t.Fatalf("fast path(%q) = %+v, full scan gives %+v", text, fast, full)
		}
	})
}
