package compact

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/compacteval/compacteval/internal/textgen"
)

// This file holds the fast forms of robust's line-reading policy to their plain definitions.
// Most helpers of the policy are written in their plain form and have no second copy; the
// ones below keep a faster form because the speed floor needs it (they read every body, or
// every text, of the loop families and the corpus), and each xxxRef is its one plain
// definition (line by line through eachLine, token by token, or with the strings package):
// sectionsUpTo, isToolCall, wellFormedShape, trimRobust, isTemplate and tagShapedOnly. TrimJS (trimJSRunes) and indexBracketCloser
// (indexFold) are held to plain forms the package has anyway. Each test asks both on
// bodies built from the pieces where a fast form could go wrong (every line terminator and
// its broken halves, marks, digits, labels, tags, loops of one line), and
// FuzzLinePolicyAgrees asks them all on one body.

// linePieces are the atoms of the generated bodies.
var linePieces = []string{
	"", " ", "  ", "\t", "#", "##", "*", "**", ">", "-", "_", ":", "x", "é", "\u200b", "\u00a0", "\ufeff",
	"1.", "2)", "3.", "4.", "5)", "9.", "0.", "10.", ".", ")", "1", "7",
	"Summary", "summary", "SUMMARY:", "## Summary", "**Summary:**", "Analysis:", "_summary_",
	"1. Primary Request and Intent:", "3. Files and Code Sections:**", "The tests pass now.",
	"```", "```go", "~~~", " ```", "<summary>", "</summary>", "<analysis>", "</summ", "<summ", "<", ">", "</",
	"<function_calls>", "<Invoke name=\"x\">", "<tool_use", "<TOOL_CALL", "<tool", "{", "}",
	`"tool_use"`, `"tool_calls"`, `"function_call"`, `{"type": "tool_use"}`,
	"[", "]", "[x]", "[Detailed description]", "[summary]", "[/summary]", "[/SUMMARY]", "[/summ", "[/",
	"I can't", "i'm sorry", "summary", "Summaryx", "[SUMMARY]", "  **Summary**", "\u00a0Summary", "xsummary", "summary>", "\u3000## Summary:",
	"\n", "\n", "\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085", "\xe2\x80", "\xe2", "\xc2", "\x85", "\xa8", "\x80\xa9",
}

// lineBody returns a generated body: a soup of linePieces, now and then a loop of one or two
// lines with a different tail, as a stuck model writes.
func lineBody(r *rand.Rand) string {
	soup := func(n int) string {
		var b strings.Builder
		for k := r.IntN(n + 1); k > 0; k-- {
			b.WriteString(linePieces[r.IntN(len(linePieces))])
		}
		return b.String()
	}
	if r.IntN(3) != 0 {
		return soup(12)
	}
	unit := soup(4) + "\n"
	if r.IntN(2) == 0 {
		unit += soup(4) + [...]string{"\n", "\r\n", "\u2028"}[r.IntN(3)]
	}
	return soup(3) + strings.Repeat(unit, r.IntN(40)) + unit[:r.IntN(len(unit)+1)] + soup(3)
}

// lineBodies returns the generated bodies, the families' texts and their second halves (a
// family cut mid-line).
func lineBodies(n int) []string {
	r := rand.New(rand.NewPCG(14, 3))
	bodies := []string{"", "\n", "1. a", "1.", "1.\n", "\n1. a", "\r1. a", "\u20281. a", "\xe2\x80\xa91. a", "\u00851. a",
		"x\xc2\x851. a", "\xe2\x80\xa8\n2) b", "-#> 3. c", "1. a\r", "1. a\u2028b", "1.\u2028"}
	for range n {
		bodies = append(bodies, lineBody(r))
	}
	for _, f := range textgen.Families(4 << 10) {
		bodies = append(bodies, f.Text, f.Text[len(f.Text)/2+1:])
	}
	return bodies
}

func sectionsUpToRef(s string, limit int) int {
	var seen [10]bool
	n := 0
	eachLine(s, func(line string) bool {
		l := strings.TrimLeft(line, " \t#*>-")
		if len(l) < 3 || l[0] < '1' || l[0] > '9' || l[1] != '.' && l[1] != ')' {
			return true
		}
		if d := l[0] - '0'; !seen[d] {
			seen[d] = true
			n++
		}
		return n < limit
	})
	return n
}

// TestSectionsUpToAsLines holds sectionsUpTo, which visits the '.' and ')' of a body, to
// the same count taken line by line. It fails if a terminator (say U+0085) is left out of
// the line-start test, or if "1." at the end of a line is counted.
func TestSectionsUpToAsLines(t *testing.T) {
	for i, body := range lineBodies(60000) {
		for limit := 1; limit <= 9; limit++ {
			if got, want := sectionsUpTo(body, limit), sectionsUpToRef(body, limit); got != want {
				t.Fatalf("case %d: sectionsUpTo(%q, %d) = %d, want %d", i, body, limit, got, want)
			}
		}
	}
}

func isToolCallRef(body string) bool {
	found := false
	eachLine(body, func(line string) bool {
		l := strings.TrimSpace(line)
		for _, p := range [...]string{"<function_calls", "<invoke", "<tool_call", "<tool_use"} {
			if hasPrefixFold(l, p) {
				found = true
			}
		}
		if strings.HasPrefix(l, "{") && (strings.Contains(l, `"tool_use"`) || strings.Contains(l, `"tool_calls"`) || strings.Contains(l, `"function_call"`)) {
			found = true
		}
		return !found
	})
	return found
}

// TestToolCallAsLines holds isToolCall, which first looks for what a tool call line must
// hold, to its line-by-line definition. It fails if a '<' prefix is left out of its search
// or a body past its budget of '<' is answered false.
func TestToolCallAsLines(t *testing.T) {
	bodies := lineBodies(60000)
	for _, unit := range []string{"Summary\n", "## Summary\n", "Summary\n\n", "```\n", "\n", "Summary\r\n", "Summary\u2028"} {
		for _, tail := range []string{"", "x", "Summ", "Summary", "Summary\n", "prose\n", "\nx"} {
			for _, n := range []int{1, 2, 3, 7, 64, 100, 1000} {
				bodies = append(bodies, strings.Repeat(unit, n)+tail, "x\n"+strings.Repeat(unit, n)+tail)
			}
		}
	}
	for _, n := range []int{15, 16, 17, 40} {
		many := strings.Repeat("<summary> ", n)
		bodies = append(bodies, many+"\n<invoke name=\"x\">", many+"\n <Tool_Use>", many+"<invoke>", many+"\n"+`{"type": "tool_use"}`)
	}
	for i, body := range bodies {
		if got, want := isToolCall(body), isToolCallRef(body); got != want {
			t.Fatalf("case %d: isToolCall(%q) = %v, want %v", i, clipBody(body), got, want)
		}
	}
}

// isTemplateRef is isTemplate's plain definition: every line read, without the counts of
// ']' (at least one at the end of each placeholder line) that let isTemplate stop early.
func isTemplateRef(body string) bool {
	placeholders, content := 0, 0
	eachLine(body, func(line string) bool {
		l := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*"))
		switch {
		case l == "" || isHeadingOnly(l):
		case isPlaceholder(l):
			placeholders++
		default:
			content++
		}
		return true
	})
	return placeholders >= 3 && placeholders > content
}

// TestTemplateAsLines holds isTemplate, which first counts the ']' that end a line, to its
// line-by-line definition. It fails if a ']' before a space that strings.TrimSpace trims
// (U+0085, U+00A0) or before a line end other than "\n" goes uncounted.
func TestTemplateAsLines(t *testing.T) {
	bodies := lineBodies(60000)
	for _, end := range []string{"\n", "\r\n", "\r", "\u2028", "\u0085", " \n", "\u00a0\n", "\t\u0085", "]\n", "x\n"} {
		for _, n := range []int{2, 3, 4, 7} {
			lines := strings.Repeat("- [Detailed description]"+end, n)
			bodies = append(bodies, lines, lines+"prose\nprose\n", "prose\n"+lines+"[x]", "## Summary\n"+lines+"1. a [b]")
		}
	}
	for i, body := range bodies {
		if got, want := isTemplate(body), isTemplateRef(body); got != want {
			t.Fatalf("case %d: isTemplate(%q) = %v, want %v", i, clipBody(body), got, want)
		}
	}
}

// TestHasLineSeparator holds hasLineSeparator, which searches for the E2 that U+2028 and
// U+2029 start with and, after 16 others, for their last bytes, to strings.Contains.
// hasProseRef is hasProse's plain form: isProseLine of each line eachLine splits.
func hasProseRef(body string) bool {
	found := false
	eachLine(body, func(line string) bool {
		found = isProseLine(line)
		return !found
	})
	return found
}

// TestHasProseAsLines holds hasProse, which skips a line equal to the one before it and
// the copies that follow, to its plain form, on loops of one line that end in a line of
// prose, a partial copy or another terminator, and on random bodies.
func TestHasProseAsLines(t *testing.T) {
	bodies := []string{"", "Summary", "Summary\n", "x"}
	for _, unit := range []string{"Summary\n", "## Summary\n", "\n", "```\n", "<x>\n", "1. Files:\n"} {
		for _, n := range []int{1, 7, 8, 9, 40, 1000} {
			loop := strings.Repeat(unit, n)
			bodies = append(bodies, loop, loop+"Done.", loop+unit[:len(unit)/2], loop+"Done.\n"+loop,
				loop+"\r\nDone.", loop+"Summary\u2028Done.", loop[:len(loop)-1]+"x\n"+loop)
		}
	}
	bodies = append(bodies, lineBodies(20000)...)
	for i, body := range bodies {
		if got, want := hasProse(body), hasProseRef(body); got != want {
			t.Fatalf("case %d: hasProse(%q) = %v, want %v", i, clipBody(body), got, want)
		}
	}
}

func TestHasLineSeparator(t *testing.T) {
	var bodies []string
	for _, n := range []int{0, 1, 15, 16, 17, 40} {
		dashes := strings.Repeat("a—", n)
		for _, tail := range []string{"", " ", " ", "x y", "â", "â", "‧", "‪", "¨©"} {
			bodies = append(bodies, dashes+tail, tail+dashes, dashes+tail+dashes)
		}
	}
	bodies = append(bodies, lineBodies(2000)...)
	for i, body := range bodies {
		want := strings.Contains(body, " ") || strings.Contains(body, " ")
		if got := hasLineSeparator(body); got != want {
			t.Fatalf("case %d: hasLineSeparator(%q) = %v, want %v", i, clipBody(body), got, want)
		}
	}
}

// clipBody shortens a long body for a failure message.
func clipBody(s string) string {
	if len(s) > 400 {
		return s[:200] + " ... " + s[len(s)-200:]
	}
	return s
}

func trimRobustRef(s string, nel bool) string {
	cut := func(r rune) bool { return invisible(r) && (r != '\u0085' || nel) }
	return strings.TrimFunc(s, cut)
}

// TestTrimsAsRunes holds trimRobust and TrimJS, which trim ASCII ends byte by byte, to their
// definitions rune by rune. trimRobust fails if U+0085 or a zero-width space is left to the
// ASCII loop.
func TestTrimsAsRunes(t *testing.T) {
	bodies := append(lineBodies(60000), " \u0085x\u0085 ", "\u200b x \u200b", "\t\xff\t", "\u00a0", " \n ", "\ufeffx\u3000")
	for i, body := range bodies {
		for _, nel := range []bool{false, true} {
			if got, want := trimRobust(body, nel), trimRobustRef(body, nel); got != want {
				t.Fatalf("case %d: trimRobust(%q, %v) = %q, want %q", i, clipBody(body), nel, clipBody(got), clipBody(want))
			}
		}
		if got, want := TrimJS(body), trimJSRunes(body); got != want {
			t.Fatalf("case %d: TrimJS(%q) = %q, want %q", i, clipBody(body), clipBody(got), clipBody(want))
		}
	}
}

// TestIndexBracketCloserAsFold holds indexBracketCloser, which searches for "[/" and
// compares the rest, to indexFold from every position. It fails if the comparison is made
// with the case kept.
func TestIndexBracketCloserAsFold(t *testing.T) {
	bodies := lineBodies(20000)
	bodies = append(bodies, "[/Summary]", "x[/[/summary]", "[/summary", "[/SUMMARY][/summary]", "[[/sUmMaRy]]")
	for i, body := range bodies {
		for from := 0; from <= len(body) && from < 64; from++ {
			if got, want := indexBracketCloser(body, from), indexFold(body, "[/summary]", from); got != want {
				t.Fatalf("case %d: indexBracketCloser(%q, %d) = %d, want %d", i, clipBody(body), from, got, want)
			}
		}
	}
}

func wellFormedShapeRef(text string) bool {
	s := TrimJS(text)
	if countUpTo(s, "<summary>", 2) != 1 || countUpTo(s, "</summary>", 2) != 1 {
		return false
	}
	if analyses := countUpTo(s, "<analysis>", 2); analyses > 1 || countUpTo(s, "</analysis>", 2) != analyses ||
		strings.IndexByte(s, '\r') >= 0 || hasLineSeparator(s) || containsByLast(s, "\u0085") {
		return false
	}
	if strings.Contains(s, "<analysis>") && !strings.HasPrefix(s, "<analysis>\n") {
		return false
	}
	i := strings.Index(s, "\n<summary>\n")
	j := strings.Index(s, "\n</summary>")
	if i < 0 || j < i || !strings.HasSuffix(s, "\n</summary>") {
		return false
	}
	if a := strings.Index(s, "\n</analysis>\n"); strings.Contains(s, "<analysis>") && (a < 0 || a > i) {
		return false
	}
	return true
}

// TestWellFormedShapeAsSearched holds wellFormedShape, which reads the searches for the
// "\n"-framed tags off the positions of the tags it counted, to the searches themselves, on
// answers built from every variant of each part of the well-formed shape (the first
// variant of each is the well-formed one). It fails if the
// "\n" after the summary opener goes unchecked, or if three "\n" are asked for.
func TestWellFormedShapeAsSearched(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 4))
	parts := [][]string{
		{"", "", " ", "\n", "x", "\u00a0"},
		{"<analysis>\n", "<analysis>\n", "<analysis>", "x<analysis>\n", "<analysis>\n<analysis>\n", ""},
		{"a\n", "", "b", "</summary>\n", "<summary>\n"},
		{"</analysis>\n", "</analysis>\n", "\n</analysis>\n", "</analysis>", "\n</analysis>", "</analysis>x\n", ""},
		{"\n", "", "\r\n", "\u2028", "\u0085", "<analysis>\n"},
		{"<summary>\n", "<summary>\n", "\n<summary>\n", "<summary>", "\n<summary>", "<summary>\n<summary>\n", "<summary>x\n"},
		{"1. x\n", "", "a\n</analysis>\n", "b\u2029\n"},
		{"</summary>", "</summary>", "\n</summary>", "\n</summary>\n", "\n</summary>x", "\n</summary>\n</summary>", "x</summary>"},
		{"", "", "\n", " ", "x", "</analysis>", "\n<analysis>"},
	}
	texts := append(lineBodies(2000), "x\n<summary>\n</summary>", " x\n<summary>\n</summary>\n", "<summary>\n</summary>",
		"x<summary>\n</summary>", "x\n<summary></summary>", "<analysis>\n</analysis>\n<summary>\n</summary>")
	for range 100000 {
		var b strings.Builder
		for _, p := range parts {
			if r.IntN(4) != 0 {
				b.WriteString(p[0]) // the well-formed variant
			} else {
				b.WriteString(p[r.IntN(len(p))])
			}
		}
		texts = append(texts, b.String())
	}
	well := 0
	for i, text := range texts {
		got, want := wellFormedShape(text), wellFormedShapeRef(text)
		if got != want {
			t.Fatalf("case %d: wellFormedShape(%q) = %v, want %v", i, clipBody(text), got, want)
		}
		if want {
			well++
		}
	}
	if well < 1000 {
		t.Fatalf("only %d of %d texts have the well-formed shape: the generator misses it", well, len(texts))
	}
}

// go test -run='^$' -fuzz='^FuzzLinePolicyAgrees$' -fuzztime=30s ./compact
//
// FuzzLinePolicyAgrees holds each fast form of robust's line-reading policy to its plain
// definition on one body: the section count for every limit, isToolCall,
// trimRobust, TrimJS, the [/summary] search and the well-formed shape; seeds are the
// generated bodies.
func FuzzLinePolicyAgrees(f *testing.F) {
	for _, body := range lineBodies(200) {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for limit := 1; limit <= 9; limit++ {
			if got, want := sectionsUpTo(body, limit), sectionsUpToRef(body, limit); got != want {
				t.Fatalf("sectionsUpTo(%q, %d) = %d, want %d", body, limit, got, want)
			}
		}
		checks := []struct {
			name      string
			got, want bool
		}{
			{"isToolCall", isToolCall(body), isToolCallRef(body)},
			{"hasProse", hasProse(body), hasProseRef(body)},
			{"isTemplate", isTemplate(body), isTemplateRef(body)},
			{"tagShapedOnly", tagShapedOnly(body), tagShapedOnlyRef(body)},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Fatalf("%s(%q) = %v, want %v", c.name, body, c.got, c.want)
			}
		}
		for _, nel := range []bool{false, true} {
			if got, want := trimRobust(body, nel), trimRobustRef(body, nel); got != want {
				t.Fatalf("trimRobust(%q, %v) = %q, want %q", body, nel, got, want)
			}
		}
		if got, want := TrimJS(body), trimJSRunes(body); got != want {
			t.Fatalf("TrimJS(%q) = %q, want %q", body, got, want)
		}
		if got, want := indexBracketCloser(body, 0), indexFold(body, "[/summary]", 0); got != want {
			t.Fatalf("indexBracketCloser(%q, 0) = %d, want %d", body, got, want)
		}
		if got, want := wellFormedShape(body), wellFormedShapeRef(body); got != want {
			t.Fatalf("wellFormedShape(%q) = %v, want %v", body, got, want)
		}
	})
}

// tagShapedOnlyRef is tagShapedOnly token by token: its one plain definition.
func tagShapedOnlyRef(l string) bool {
	for i, n := 0, 0; ; n++ {
		for i < len(l) {
			c := l[i]
			if c == ' ' || c == '\t' {
				i++
				continue
			}
			if n == 0 {
				break
			}
			if c < utf8.RuneSelf {
				if !asciiSpace(c) {
					break // the invisible ASCII characters are the spaces (the next '<' of a line of tags)
				}
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(l[i:])
			if !invisible(r) {
				break
			}
			i += size
		}
		if n == 0 && i < len(l) && l[i] != '<' {
			// A BOM or zero-width character before the first tag is invisible, as it is
			// before a tag at a line start (rule "Tags").
			j := i
			for j < len(l) {
				r, size := utf8.DecodeRuneInString(l[j:])
				if !invisible(r) {
					break
				}
				j += size
			}
			if j == len(l) || l[j] == '<' {
				i = j // a line of invisible characters alone is blank
			}
		}
		if i == len(l) {
			return true
		}
		if l[i] != '<' {
			return false
		}
		j := i + 1 // the first '<' or '>' after it, which must be '>'
		for j < len(l) && l[j] != '<' && l[j] != '>' {
			j++
		}
		if j == len(l) || l[j] != '>' {
			return false
		}
		i = j + 1
	}
}

// TestTagShapedOnlyAsTokens holds tagShapedOnly, which reads a line that loops over one
// token or two a loop at a time, to tagShapedOnlyRef on generated lines and on loops of
// tokens with blanks of every kind between them and a tail that breaks the loop or not. It
// fails if a copy of the loop is read past the end of the repeat.
func TestTagShapedOnlyAsTokens(t *testing.T) {
	lines := lineBodies(20000)
	r := rand.New(rand.NewPCG(16, 5))
	tokens := []string{"<summary>", "</summary>", "<summar>", "<sumaryy>", "<a b>", "<x", ">", "<", "<<>", "<\u200b>", "x"}
	blanks := []string{"", " ", "  ", "\t", "\u200b", "\u00a0", "\u3000", "\xe2\x80", "\u0085", "\ufeff"}
	for range 20000 {
		unit := tokens[r.IntN(len(tokens))] + blanks[r.IntN(len(blanks))]
		if r.IntN(2) == 0 {
			unit += tokens[r.IntN(len(tokens))] + blanks[r.IntN(len(blanks))]
		}
		loop := strings.Repeat(unit, r.IntN(70))
		lines = append(lines, blanks[r.IntN(len(blanks))]+loop+unit[:r.IntN(len(unit)+1)]+tokens[r.IntN(len(tokens))]+blanks[r.IntN(len(blanks))])
	}
	for i, l := range lines {
		if got, want := tagShapedOnly(l), tagShapedOnlyRef(l); got != want {
			t.Fatalf("case %d: tagShapedOnly(%q) = %v, want %v", i, clipBody(l), got, want)
		}
	}
}

// isHeadingOnlyRef is isHeadingOnly with strings.TrimLeft, as it was written before the
// trim of its marks was written out.
func isHeadingOnlyRef(l string) bool {
	l = strings.TrimLeft(l, "#* ")
	if len(l) < 3 || l[0] < '1' || l[0] > '9' || l[1] != '.' {
		return false
	}
	return strings.HasSuffix(strings.TrimRight(l, "* "), ":") && utf8.RuneCountInString(l) < 60
}

// TestHeadingOnlyAsTrimLeft holds isHeadingOnly to isHeadingOnlyRef on the lines of
// generated bodies and on headings behind every run of marks.
func TestHeadingOnlyAsTrimLeft(t *testing.T) {
	var lines []string
	for _, body := range lineBodies(20000) {
		lines = append(lines, strings.Split(body, "\n")...)
	}
	for _, marks := range []string{"", "#", "## ", "**", " * # ", "#*#", "-", "\t#"} {
		lines = append(lines, marks+"1. Primary Request and Intent:", marks+"9.:", marks+"3. x", marks)
	}
	for i, l := range lines {
		if got, want := isHeadingOnly(l), isHeadingOnlyRef(l); got != want {
			t.Fatalf("case %d: isHeadingOnly(%q) = %v, want %v", i, clipBody(l), got, want)
		}
	}
}

// stripWrapperFenceRef is stripWrapperFence with strings.TrimRight, as it was written
// before the trim of its last lines was written out.
func stripWrapperFenceRef(body string) string {
	first, rest, ok := strings.Cut(body, "\n")
	if !ok || !isFenceLine(first) {
		return body
	}
	i := strings.LastIndexByte(strings.TrimRight(rest, " \t\r\n"), '\n')
	last := TrimJS(rest[i+1:])
	if !isFenceLine(last) || countUpTo(rest, "```", 2) > 1 {
		return body
	}
	return TrimJS(rest[:max(i, 0)])
}

// TestStripWrapperFenceAsTrimRight holds stripWrapperFence to stripWrapperFenceRef on
// generated bodies and on wrapped ones with blanks after the closing fence (it fails with
// '\r' left out of the trim).
func TestStripWrapperFenceAsTrimRight(t *testing.T) {
	bodies := append(lineBodies(20000), "```\nx\n```\n\r", "~~~\nx\n~~~\r\n \t", "```\nx\n```\n\r\n```")
	for _, body := range lineBodies(5000) {
		bodies = append(bodies, "```\n"+body+"\n```\n\r", "~~~\n"+body+"\n~~~\r \n")
	}
	for i, body := range bodies {
		if got, want := stripWrapperFence(body), stripWrapperFenceRef(body); got != want {
			t.Fatalf("case %d: stripWrapperFence(%q) = %q, want %q", i, clipBody(body), clipBody(got), clipBody(want))
		}
	}
}

// TestOneTerminatorTrims holds scan.oneTerminator to trimRobust: a gap it calls one
// line terminator is one trimRobust trims to nothing, with and without U+0085 as the terminator,
// on every gap of one or two pieces that hold the terminators, their broken halves and
// their neighbours. It fails with U+0085 taken as a terminator where it is not one.
func TestOneTerminatorTrims(t *testing.T) {
	pieces := []string{"\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029", "\u2027", "\u202a", "\u00a0", "\u0084",
		"\xc2", "\xe2\x80", "\xe2", " ", "x", "<"}
	for _, nel := range []bool{false, true} {
		found := map[string]bool{}
		for _, a := range pieces {
			for _, b := range append([]string{""}, pieces...) {
				gap := a + b
				sc := &scan{text: gap + "<summary>", nel: nel, shortcuts: true}
				if !sc.oneTerminator(0, len(gap)) {
					continue
				}
				found[gap] = true
				if got := trimRobust(gap, nel); got != "" {
					t.Errorf("oneTerminator(%q) with nel %v, but trimRobust = %q, want \"\"", gap, nel, got)
				}
			}
		}
		want := 3
		if nel {
			want = 4
		}
		if len(found) != want {
			t.Errorf("oneTerminator found %d gaps with nel %v, want %d (\\r\\n, U+2028, U+2029, and U+0085 with nel)", len(found), nel, want)
		}
	}
}

// TestCutRegionsAsBytes holds cutRegions to its plain definition: the bytes of text[from:to]
// that no region covers, a region that starts inside code covering none. The regions and code
// blocks are generated sorted and disjoint, as scan.regions and scan.blockEnd make them, and
// from and to fall anywhere, inside them and between. It fails with the single region's
// part ending at its end.
func TestCutRegionsAsBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 7))
	spans := func(n, size int) []region {
		var rs []region
		for at := r.IntN(4); len(rs) < n && at < size; {
			end := at + 1 + r.IntN(6)
			rs = append(rs, region{at, min(end, size)})
			at = end + r.IntN(5)
		}
		return rs
	}
	for range 20000 {
		size := 1 + r.IntN(40)
		text := strings.Repeat("abcdefghij", 4)[:size]
		rs, code := spans(r.IntN(5), size), spans(r.IntN(3), size)
		if r.IntN(2) == 0 {
			code = nil
		}
		from := r.IntN(size + 1)
		to := from + r.IntN(size-from+1)
		var want strings.Builder
		for p := from; p < to; p++ {
			covered := false
			for _, g := range rs {
				if g.start <= p && p < g.end && !inRegions(code, g.start) {
					covered = true
				}
			}
			if !covered {
				want.WriteByte(text[p])
			}
		}
		sc := &scan{text: text}
		if got := sc.cutRegions(from, to, rs, code); got != want.String() {
			t.Fatalf("cutRegions(%q, %d, %d, %v, %v) = %q, want %q", text, from, to, rs, code, got, want.String())
		}
	}
}
