package compact_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/compacteval/compacteval/internal/testhelp/testref"
	"github.com/compacteval/compacteval/internal/textgen"
)

// startRobustTS removes the types of robust.ts with esbuild and runs it under Node behind
// testdata/robust-runner.mjs, which answers the protocol's extract requests.
func startRobustTS(t *testing.T) *protocol.Client {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		testref.Missing(t, "TestRobustTypeScriptAgrees (the TypeScript robust under Node)", fmt.Errorf("node is not on PATH: %w", err))
	}
	src, err := os.ReadFile("robust.ts")
	if err != nil {
		t.Fatal(err)
	}
	res := api.Transform(string(src), api.TransformOptions{
		Loader: api.LoaderTS, Format: api.FormatESModule, Target: api.ES2022, Sourcefile: "robust.ts",
	})
	for _, m := range res.Errors {
		if l := m.Location; l != nil {
			t.Errorf("%s:%d:%d: %s", l.File, l.Line, l.Column+1, m.Text)
		} else {
			t.Error(m.Text)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	module := filepath.Join(t.TempDir(), "robust.mjs")
	if err := os.WriteFile(module, res.Code, 0o644); err != nil {
		t.Fatal(err)
	}
	runner, err := filepath.Abs(filepath.Join("testdata", "robust-runner.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := protocol.Start([]string{node, runner, module})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// robustTSInputs returns the inputs of the differential test, each with where it came
// from: every corpus response, the drift matrix's samples (every operator alone and in
// compositions, over every well-formed pair), generated tag soups, structured and large
// answers, answers of the fast path's shape with atoms inserted (nearFast), loops of a few
// lines (loopAnswer: what the shortcuts for loops read), and every adversarial family at
// three sizes.
func robustTSInputs(t *testing.T) (names, texts []string) {
	add := func(name, text string) {
		if utf8.ValidString(text) { // JSON carries only valid UTF-8 to Node
			names, texts = append(names, name), append(texts, text)
		}
	}
	cases, err := corpus.Load("../corpus/cases")
	if err != nil {
		t.Fatalf("load corpus: %v", err)
	}
	for _, c := range cases {
		add("corpus "+c.ID, c.Response)
	}
	pairs := drift.PairsFromCorpus(cases)
	if len(pairs) == 0 {
		t.Fatal("no well-formed pairs for the drift samples")
	}
	for pi, p := range pairs {
		for oi, op := range drift.Operators() {
			for s := range 5 {
				seed := int64(pi*1000 + oi*10 + s)
				add(fmt.Sprintf("drift %s %s seed %d", p.ID, op.Name, seed), drift.MutateWith(p, seed, op).Response)
			}
		}
		for s := range 40 {
			seed := int64(pi*1000 + 900 + s)
			add(fmt.Sprintf("drift %s composed seed %d", p.ID, seed), drift.Mutate(p, seed, 2+s%2).Response)
		}
	}
	r := rand.New(rand.NewPCG(14, 4))
	for i := range 20000 {
		add(fmt.Sprintf("textgen response %d", i), textgen.Response(r, 64<<10))
	}
	for i := range 2000 {
		add(fmt.Sprintf("textgen soup %d", i), textgen.Soup(r, 80))
	}
	for i := range 4000 {
		add(fmt.Sprintf("near the fast path %d", i), nearFast(r))
	}
	for i := range 4000 {
		add(fmt.Sprintf("loop %d", i), loopAnswer(r))
	}
	for i := range 6000 {
		add(fmt.Sprintf("loop on a line %d", i), lineLoop(r))
	}
	// Long rows of tags (robust.ts reads a row over 256 characters with its loop for the first
	// tokens, passing repeats, then with a regular expression; a shorter one with its loop):
	// each prefix, unit and tail, as a block's only line, after a heading (a line that says
	// nothing, so that the row's own start is read), and as the whole answer.
	for _, prefix := range []string{"", " ", "\t", "\u200b", "\ufeff", "\u2060", "\u200b\u200b", "\u00a0", "x"} {
		for _, unit := range []string{"<a>", "<summary> ", "<x>\u200b", "<b>\u00a0", "<sumary>\t", "<a><"} {
			for _, n := range []int{10, 90, 700} {
				for _, tail := range []string{"", " ", "\u200b", "x", "<"} {
					row := prefix + strings.Repeat(unit, n) + tail
					add(fmt.Sprintf("tag row %q %q %d %q in a block", prefix, unit, n, tail), "<summary>\n"+row+"\n</summary>")
					add(fmt.Sprintf("tag row %q %q %d %q after a heading", prefix, unit, n, tail), "<summary>\n## 1. Heading:\n"+row+"\n</summary>")
					add(fmt.Sprintf("tag row %q %q %d %q alone", prefix, unit, n, tail), row)
				}
			}
		}
	}
	// Rows that repeat from their third token on, as long as the two tokens before it
	// (robust.ts's tokensRepeat, asked there), but not from before it: the copies hold what is
	// no tag row, except the last, cut short.
	for _, unit := range []string{"<c>zz ", "<c> z ", "<cz>y "} {
		row := "<a><b>" + strings.Repeat(unit, 90) + "<c>"
		add(fmt.Sprintf("tag row %q repeated after two tokens, after a heading", unit), "<summary>\n## 1. Heading:\n"+row+"\n</summary>")
	}
	// Rows over a megabyte (robust.ts reads them in pieces of a megabyte, each ending with a
	// '>'): whole, broken near a piece's end or at the row's, and with a token longer than a
	// piece.
	for _, row := range []string{
		strings.Repeat("<summary> ", 110_000),
		strings.Repeat("<a>\u200b", 300_000),
		strings.Repeat("<summar> <sumaryy> ", 60_000) + "x",
		strings.Repeat("<a> ", 262_000) + "x " + strings.Repeat("<a> ", 10_000),
		strings.Repeat("<a> ", 262_143) + "<" + strings.Repeat("<a> ", 10_000),
		"<a> <" + strings.Repeat("y", 1_100_000) + "> " + strings.Repeat("<b>", 400_000),
		"<a> <" + strings.Repeat("y", 1_100_000) + " " + strings.Repeat("<b>", 400_000),
	} {
		add(fmt.Sprintf("tag row of %d bytes %q in a block", len(row), row[len(row)-12:]), "<summary>\n"+row+"\n</summary>")
	}
	// Near-misses of the tags as the prompt writes them (robust.ts compares those a character at
	// a time), each letter changed in turn, inside a block, alone on their lines and after a
	// blank: no tag but where they are the summary's misspellings. An empty block after it
	// sends the answer past the fast path, which reads tags by name, to the scan.
	for _, name := range []string{"summary", "analysis"} {
		for p := range len(name) {
			near := name[:p] + "x" + name[p+1:]
			for _, pre := range []string{"", " "} {
				add(fmt.Sprintf("near-miss %q after %q", near, pre), "<summary>\nThe body.\n"+pre+"<"+near+">\nsecret\n"+pre+"</"+near+">\nmore\n</summary>\n<summary>\n</summary>")
			}
		}
	}
	// Runs of one tag line or two (the Go scan's repeatLineTag and repeatLinePair): each
	// length around the chunks they compare, ending with the line, without its "\n", cut,
	// or followed by another line.
	for _, line := range []string{"<summary>", "</summary>", "<analysis>", "</analysis>", "<think>", "<Summary>", "<example>",
		"<analysis>\n<summary>", "</summary>\n<summary>", "<summary >\n<summary>", "<example>\n</example>"} {
		for _, n := range []int{2, 3, 7, 100, 409, 410, 1000} {
			for _, tail := range []string{"", "\n", line[:len(line)-1], "x", "\nDone.\n</summary>", line + "x", "\n1. a\n</summary>\n"} {
				run := strings.Repeat(line+"\n", n-1) + line + tail
				add(fmt.Sprintf("run of %q %d %q", line, n, tail), run)
				add(fmt.Sprintf("run of %q %d %q after prose", line, n, tail), "<analysis>\nx\n</analysis>\n"+run)
			}
		}
	}
	// Runs of a line read the long way (the Go scan's repeatLine, robust.ts's): tags after
	// blanks, in a code span, after a closer, inline, each ending as the runs above do.
	for _, line := range []string{"\u200b<summary>", " <analysis>", "`<summary>` x", "</summary> <summary>", "x <summary>", "<summary>x", "\u200b</summary>\u200b"} {
		for _, n := range []int{2, 3, 100, 409} {
			for _, tail := range []string{"", "\n", line[:len(line)-1], "x", "\nDone.\n</summary>"} {
				run := strings.Repeat(line+"\n", n-1) + line + tail
				add(fmt.Sprintf("run of %q %d %q", line, n, tail), run)
				add(fmt.Sprintf("run of %q %d %q after prose", line, n, tail), "<summary>\nx\n"+run)
			}
		}
	}
	// Loops of fenced blocks (the Go scan's repeatFences): fence lines copied from one to four
	// back, the loop cut inside or after a fence line, inside a block and alone.
	for _, unit := range []string{"```\nx\n```\n", "~~~go\n<summary>\n~~~\n", "```\n```\n", " ```\n~~~\n```\n~~~\n", "```\na\n```\nb\n~~~\n</summary>\n~~~\n"} {
		for _, n := range []int{4, 8, 9, 33, 200} {
			for _, tail := range []string{"", "```", "``", "```x", "x```", "~~~ y\n", "</summary>"} {
				loop := strings.Repeat(unit, n)
				add(fmt.Sprintf("fence loop %q %d %q", unit, n, tail), loop+tail)
				add(fmt.Sprintf("fence loop %q %d %q cut", unit, n, tail), loop[:len(loop)-1]+tail)
				add(fmt.Sprintf("fence loop %q %d %q in a block", unit, n, tail), "<summary>\n"+loop+tail+"\n</summary>")
			}
		}
	}
	// A loop of fenced blocks whose last closing fence line has an info string, an analysis
	// block, right where the loop's "\n" would be: the text stops repeating at the end of its
	// fence characters, which is not that line's end. Kept in the fenced code, the block
	// stays in the summary.
	for _, n := range []int{8, 9, 40} {
		loop := strings.Repeat("```\nx\n```\n", n)
		add(fmt.Sprintf("fence loop of %d, closed with an info string", n), "<summary>\n"+loop+"```\nx\n```<analysis>kept</analysis>\n</summary>")
	}
	for _, size := range []int{200, 4 << 10, 20 << 10} {
		for _, f := range textgen.Families(size) {
			add(fmt.Sprintf("family %s %d", f.Name, size), f.Text)
		}
	}
	return names, texts
}

// loopAnswer returns one to three lines of the kinds a looping model repeats (tags, labels,
// headings, markers, blanks, a bare '<') repeated up to 40 times, with up to two atoms
// inserted at any byte, ending with or without a line end of any kind.
func loopAnswer(r *rand.Rand) string {
	lines := []string{"<summary>", "</summary>", "<analysis>", "</analysis>", "Summary", "## Summary", "**Summary:**",
		"[summary]", "[/summary]", "1. Primary Request and Intent:", "2. Key Technical Concepts:", "- done", "The tests pass now.",
		"<", "<<", "", "  ", "\u200b<summary>", "text <summary> x", "<details>", "```", "~~~", "[Detailed description]", "<think>", "</think>"}
	ends := []string{"\n", "\n", "\n", "\r\n", "\u0085", "\u2028"}
	end := ends[r.IntN(len(ends))]
	var unit strings.Builder
	for n := 1 + r.IntN(3); n > 0; n-- {
		unit.WriteString(lines[r.IntN(len(lines))] + end)
	}
	text := strings.Repeat(unit.String(), 1+r.IntN(40))
	if r.IntN(2) == 0 {
		text = strings.TrimSuffix(text, end)
	}
	for n := r.IntN(3); n > 0; n-- {
		at := r.IntN(len(text) + 1)
		text = text[:at] + textgen.Atoms[r.IntN(len(textgen.Atoms))] + text[at:]
	}
	return text
}

// lineLoop returns a line that loops over one to four tokens (robust.ts's repeatInLine
// pushes their tags at once), two to forty times, its last loop cut or changed at a random
// byte, then a token: alone, in a block, or after an opener. Where a copy is trusted past
// the loop's end, or a '`' in the loop left out of count, its tags and the code spans
// around them differ from what the Go robust reads.
func lineLoop(r *rand.Rand) string {
	tokens := []string{"<summary>", "</summary>", "<analysis>", "</analysis>", "<summar>", "<sumaryy>", "<think>", "</think>",
		"<details>", "<summary x", "<", ">", " ", "x", "`", "​", "Summary"}
	var unit strings.Builder
	for n := 1 + r.IntN(4); n > 0; n-- {
		unit.WriteString(tokens[r.IntN(len(tokens))])
	}
	b := []byte(strings.Repeat(unit.String(), 2+r.IntN(39)))
	switch cut := len(b) - 1 - r.IntN(unit.Len()); r.IntN(3) {
	case 0:
		b = b[:cut]
	case 1:
		b[cut] = "x `<>/"[r.IntN(6)]
	}
	row := string(b) + tokens[r.IntN(len(tokens))]
	switch r.IntN(3) {
	case 0:
		return row
	case 1:
		return "<summary>\n1. Primary Request and Intent:\n" + row + "\n</summary>"
	}
	return "<summary>\n" + row
}

// TestRobustTypeScriptAgrees holds robust.ts, the TypeScript robust that users drop in for
// extractSummary, to the Go ExtractRobust: the same summary, or none, on every input of
// robustTSInputs, through the protocol. It skips without Node (testref decides).
func TestRobustTypeScriptAgrees(t *testing.T) {
	c := startRobustTS(t)
	names, texts := robustTSInputs(t)
	reqs := make([]protocol.Request, len(texts))
	for i := range texts {
		reqs[i] = protocol.Request{Op: "extract", Text: &texts[i]}
	}
	answers, err := c.DoAll(reqs)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, a := range answers {
		if a.Error != nil {
			t.Fatalf("%s: robust.ts failed: %s", names[i], *a.Error)
		}
		e := compact.ExtractRobust(texts[i])
		got, gotOK := "", a.Summary != nil
		if gotOK {
			got = *a.Summary
		}
		if got != e.Summary || gotOK != e.OK {
			if bad++; bad <= 5 {
				t.Errorf("%s: robust.ts(%q) = (%q, %v), Go ExtractRobust = (%q, %v) via %s", names[i], clip(texts[i]), clip(got), gotOK, clip(e.Summary), e.OK, e.Path)
			}
		}
	}
	if bad > 0 {
		t.Errorf("robust.ts disagrees with ExtractRobust on %d of %d inputs", bad, len(texts))
	}
	t.Logf("robust.ts agrees with ExtractRobust on %d inputs", len(texts)-bad)
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:200] + " ... " + s[len(s)-200:]
	}
	return s
}
