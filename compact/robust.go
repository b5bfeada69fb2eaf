package compact

import (
	"math"
	"strings"
)

func init() {
	register(Extractor{
		Name:    "robust",
		Source:  "compacteval's own extractor, designed from the corpus, the drift matrix and the peers' test suites (compact/robust.go)",
		Extract: ExtractRobust,
	})
}

// ExtractRobust is compacteval's extractor for answers from drifting models. On a
// well-formed answer (an analysis block, then one summary block with content, tags alone on
// their lines) it returns exactly what ExtractSummary returns. It never loses a summary that
// a careful reader sees, and never returns the text of a closed analysis block or a bare tag.
// Its policy otherwise (tags, analysis, echoed templates, blocks, duplicates, truncation,
// fences, no tags, trim) is written in docs/robust.md, and each rule is implemented in one
// file, robust_rule_NAME.go, headed by the rule in the same words (TestRobustRulesStated);
// they read the tags, lines and fences that the scanner (robust_scan.go) finds.
//
// The common answer, one summary block with its tags alone on their lines, is recognised by
// a fast path (robust_fast.go) that returns what the full scan returns; the rest goes
// through the full scan. It runs in time linear in the length of the text. Texts of 2 GiB and
// more are beyond its offsets; it returns ExtractSummary's result for them.
func ExtractRobust(text string) Extraction {
	if len(text) >= math.MaxInt32 {
		return Extract(text)
	}
	if seed, ok := wellFormed(text); ok {
		return seed
	}
	if e, ok := fastBlock(text); ok {
		return e
	}
	return extractRobust(text, true)
}

// wellFormed returns seed's extraction of a well-formed answer, the policy's first rule (it
// holds even where the other rules would find the block degenerate, a summary of headings
// alone), and false for any other answer.
func wellFormed(text string) (Extraction, bool) {
	if wellFormedShape(text) {
		if seed := Extract(text); wellFormedSummary(seed) {
			return seed, true
		}
	}
	return Extraction{}, false
}

// extractRobust is ExtractRobust after the well-formed check. It runs seed only to report seed's path for the same answer. Without
// shortcuts it takes none of the scan's paths for common cases, which must answer as the
// general code does (TestRobustShortcutsAgree).
func extractRobust(text string, shortcuts bool) Extraction {
	sc := newScan(text, shortcuts)
	analysis, _ := sc.regions()
	best, ok, seen := sc.blocks(analysis, false)
	if !ok && sc.inlineOpeners > 0 {
		var seenInline bool
		best, ok, seenInline = sc.blocks(analysis, true)
		seen = seen || seenInline
	}
	if ok {
		if !sc.seedWhole() {
			if seed := Extract(text); seed.OK && seed.Summary == best.body {
				return seed // the same answer: report seed's path
			}
		}
		path := PathBlock
		if !best.closed {
			path = PathOpenerToEnd
		}
		return Extraction{Summary: best.body, OK: true, Path: path}
	}
	if body, ok := sc.marker(analysis); ok {
		return Extraction{Summary: body, OK: true, Path: PathMarker}
	}
	if !seen {
		if body, ok := sc.untagged(analysis); ok {
			return Extraction{Summary: body, OK: true, Path: PathUntagged}
		}
	}
	return Extraction{Path: PathNone}
}

// The well-formed answer is the one the prompt asks for: optional blanks, one analysis
// block, one summary block, tags alone on their lines with "\n" endings, no other tag
// (wellFormedShape), whose summary seed finds line-anchored with five sections or more
// (wellFormedSummary). There robust returns what seed returns.

// wellFormedSummary is the part of the well-formed check that reads seed's extraction of a
// text of the well-formed shape. That text ends its lines with "\n" alone, and so does the
// line-anchored summary, a part of it.
func wellFormedSummary(e Extraction) bool {
	return e.OK && e.Path == PathLineAnchored && sectionsUpTo(e.Summary, 5) >= 5 && !isFenceLine(firstLine(e.Summary)) &&
		hasContentIn(e.Summary, true) // headings alone are no summary (rule "Truncation"), however well the tags are placed
}

// wellFormedShape is the part of the well-formed check that needs no extraction: the tags and lines.
func wellFormedShape(text string) bool {
	s := TrimJS(text)
	// The shape ends with its summary closer after a "\n" and holds the opener alone on its
	// line: most other answers fail one of the two at once.
	if !strings.HasSuffix(s, "\n</summary>") {
		return false
	}
	if i := strings.Index(s, "<summary>"); i <= 0 || s[i-1] != '\n' || i+len("<summary>") >= len(s) || s[i+len("<summary>")] != '\n' {
		return false // the only opener the shape has is framed by "\n"
	}
	// The shape has a "\n" on each side of the summary opener: a text of one line (a line
	// of many tags or near-misses, where each search below stops at every '<') has not.
	if k := strings.IndexByte(s, '\n'); k < 0 || strings.IndexByte(s[k+1:], '\n') < 0 {
		return false
	}
	// The four tags are counted in one pass over the '<' of s, which stops at the second
	// of any: a text full of mentions fails fast. The "\n"-framed forms the shape asks for
	// (the opener alone on its line after a line, the closer ending the text after a "\n")
	// are read off the position of the only one there is.
	at, ok := shapeTags(s)
	if !ok {
		return false
	}
	open, close, aclose := at[shapeOpen], at[shapeClose], at[shapeAnalysisClose]
	analyses := 0
	if at[shapeAnalysis] >= 0 {
		analyses = 1
	}
	if open < 0 || close < 0 || open == 0 || s[open-1] != '\n' || open+len("<summary>") == len(s) || s[open+len("<summary>")] != '\n' ||
		close < open || s[close-1] != '\n' || close+len("</summary>") != len(s) {
		return false
	}
	aclosers := 0
	if aclose >= 0 {
		aclosers = 1
	}
	// Four searches, not strings.ContainsAny: with non-ASCII characters in its set that
	// calls IndexRune for every rune of s, 60% of the time of a well-formed answer.
	if aclosers != analyses || strings.IndexByte(s, '\r') >= 0 || hasLineSeparator(s) || containsByLast(s, "\u0085") {
		return false
	}
	if analyses == 0 {
		return true
	}
	// The analysis opens the text on a line of its own and its closer, alone on its line,
	// comes before the summary opener.
	return strings.HasPrefix(s, "<analysis>\n") && s[aclose-1] == '\n' && aclose+len("</analysis>") < len(s) &&
		s[aclose+len("</analysis>")] == '\n' && aclose < open
}

// The tags wellFormedShape counts, as the prompt spells them.
const (
	shapeOpen = iota
	shapeClose
	shapeAnalysis
	shapeAnalysisClose
)

// shapeTagStart holds the bytes that follow the '<' of the four tags of the shape.
var shapeTagStart = [256]bool{'s': true, 'a': true, '/': true}

// shapeTags returns the position of each of the four tags of the well-formed shape in s
// (-1 for none), and false where any of them occurs twice. The tags start with '<' and
// hold no other: one pass over the '<' of s finds them all, as four searches would.
func shapeTags(s string) (at [4]int, ok bool) {
	at = [4]int{-1, -1, -1, -1}
	for i := 0; ; i++ {
		if i = nextLtBefore(s, i, &shapeTagStart); i < 0 {
			return at, true
		}
		rest := s[i+1:]
		which := -1
		switch {
		case len(rest) < len("summary>"):
		case rest[0] == 's':
			if strings.HasPrefix(rest, "summary>") {
				which = shapeOpen
			}
		case rest[0] == 'a':
			if strings.HasPrefix(rest, "analysis>") {
				which = shapeAnalysis
			}
		case rest[0] == '/':
			if strings.HasPrefix(rest, "/summary>") {
				which = shapeClose
			} else if strings.HasPrefix(rest, "/analysis>") {
				which = shapeAnalysisClose
			}
		}
		if which >= 0 {
			if at[which] >= 0 {
				return at, false
			}
			at[which] = i
		}
	}
}

// countUpTo returns the number of non-overlapping sub in s, counting no further than max.
func countUpTo(s, sub string, max int) int {
	n := 0
	for n < max {
		i := strings.Index(s, sub)
		if i < 0 {
			break
		}
		n++
		s = s[i+len(sub):]
	}
	return n
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
