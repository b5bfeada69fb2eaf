package fuzz

import (
	"regexp"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
)

// Properties an extractor is held to, as robust is (compact/robust.go). Each is claimed only
// where a careful reader can know the answer from the text alone (and, for a corpus case,
// the intended result a person judged); where the text does not decide, the input is
// ambiguous for that property (Result.Ambiguous counts it), not a failure.
const (
	// PropLeak: the summary holds a line of a closed analysis block: an "<analysis>" line
	// and an "</analysis>" line outside any summary block and fenced code, nothing tagged or
	// fenced between, and a line written nowhere else in the text. For a drift sample, a
	// line of the sample's analysis counts when an analysis opener and an analysis closer
	// outside fences mark both ends; with every analysis tag gone nothing marks which lines
	// were analysis, and the sample is ambiguous.
	PropLeak = "analysis-leak"
	// PropBareTag: the summary is nothing but tags (the tags robust knows, in any ASCII
	// case, with attributes, on one line).
	PropBareTag = "bare-tag"
	// PropTagKept: the summary keeps a structural tag line (a <summary>, </summary>,
	// <analysis> or </analysis> line): an unclosed opener left in front of the text, a
	// closer left at its end. Against a corpus case's intended summary (a person judged it),
	// any such line it does not have counts. Otherwise (no intended summary, or a drift
	// sample's, known from a structure the text may not show) the text decides: a summary
	// tag line anywhere in the summary, or an analysis tag line as its first or last line.
	// Ambiguous: a text with fenced code or an example block; a text whose summary block
	// itself holds a tag line (quoted, or an HTML <details> element's <summary>); an
	// analysis tag line inside the summary, which marks analysis within it (whether the
	// lines it marks are analysis is analysis-leak's question).
	PropTagKept = "tag-kept"
	// PropLost: nothing is returned where a reader sees a summary: the text holds a
	// "<summary>" line outside every analysis region, a body with a letter or digit, and a
	// "</summary>" line; or a corpus case intends a summary; or a drift sample intends one
	// that stands outside every analysis region of the text (an analysis opener outside
	// fences up to its closer, or to the end with none). Ambiguous: a drift sample whose
	// summary stands inside such a region, or that drift marks ambiguous; a closed block
	// followed by an analysis closer that closes no opener (a reasoning model's "</think>"
	// whose opener was in the prompt: the block may be part of the analysis).
	PropLost = "summary-lost"
	// PropNondeterministic: the same text got two different answers.
	PropNondeterministic = "nondeterministic"
	// PropSuperlinear: the time to answer grows faster than the input (see Timing).
	PropSuperlinear = "superlinear-time"
)

// Properties lists the properties in report order.
var Properties = []string{PropLeak, PropBareTag, PropTagKept, PropLost, PropNondeterministic, PropSuperlinear}

// The tag names robust knows, in any ASCII letter case: (?i) would fold Unicode too, and
// take "<ſummary>" (a long s) or a Kelvin sign for a tag, which a model never writes for one.
var (
	tagNames      = foldASCII("summary", "analysis", "think", "thinking", "example")
	structNames   = foldASCII("summary", "analysis")
	analysisNames = foldASCII("analysis", "think", "thinking")
)

// anyTag matches the tags robust knows, with attributes and blanks, on one line (no line
// terminator of any kind inside: "<summary" and ">" on two lines are no tag).
var anyTag = regexp.MustCompile(`<[ \t]*/?[ \t]*` + tagNames + `\b[^<>\n\r\x{85}\x{2028}\x{2029}]*>`)

// tagLine matches a line that is one structural tag and nothing else.
var tagLine = regexp.MustCompile(`^[ \t]*</?[ \t]*` + structNames + `[ \t]*>[ \t]*$`)

// foldASCII returns a regexp group matching any of names in any ASCII letter case.
func foldASCII(names ...string) string {
	var b strings.Builder
	b.WriteString("(")
	for i, n := range names {
		if i > 0 {
			b.WriteString("|")
		}
		for _, c := range n {
			b.WriteString("[" + string(c) + strings.ToUpper(string(c)) + "]")
		}
	}
	b.WriteString(")")
	return b.String()
}

// bareTag reports a found summary that is only tags.
func bareTag(e compact.Extraction) bool {
	return e.OK && compact.TrimJS(anyTag.ReplaceAllString(e.Summary, "")) == ""
}

// keptTagLine returns the first structural tag line of s, a part of text, or "".
func keptTagLine(s, text string) string {
	for _, l := range linesOf(s, text) {
		if tagLine.MatchString(l) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// lines splits text at every line terminator JavaScript or Go knows, U+0085 included only
// where the text has no "\n" or "\r": among those a U+0085 is a character (an ellipsis
// mis-decoded from Windows-1252), as robust reads it (compact.ExtractRobust, rule "Trim").
func lines(text string) []string { return linesOf(text, text) }

// linesOf is lines for s, a part of text, split as text is.
func linesOf(s, text string) []string {
	if strings.ContainsAny(text, "\n\r") {
		s = strings.ReplaceAll(s, "\u0085", "\x00\x00") // two bytes, as U+0085: never a line end
	}
	return drift.Lines(s)
}

// strictAnalysis returns the lines (trimmed, at least drift.MinAnalysisLine bytes) that the
// text holds only inside closed analysis blocks that nobody could read otherwise: an
// "<analysis>" line outside any summary block and fenced code, then lines without any tag or fence, then
// an "</analysis>" line. A line that also stands outside such a block, whole or as part of
// a line, is not returned; an analysis block inside a summary block is part of that summary,
// as drift counts it. Each line maps to where its block stands (blockPlace).
func strictAnalysis(text string) map[string]string {
	ls := lines(text)
	inside := map[string]string{}
	outside := map[string]bool{}
	var outsideLines []string // the lines outside the blocks, as written
	var openers []int         // the lines that are a "<summary>" tag
	for i, l := range ls {
		if isTag(l, "<summary>") {
			openers = append(openers, i)
		}
	}
	inSummary := false // after a "<summary>" line and before its "</summary>" line
	fence := false     // inside fenced code, where an analysis block is quoted
	for i := 0; i < len(ls); i++ {
		switch {
		case isTag(ls[i], "<summary>"):
			inSummary = true
		case isTag(ls[i], "</summary>"):
			inSummary = false
		case isFence(ls[i]):
			fence = !fence
		}
		if inSummary || fence || !isTag(ls[i], "<analysis>") {
			outside[strings.TrimSpace(ls[i])] = true
			outsideLines = append(outsideLines, ls[i])
			continue
		}
		j := i + 1
		for j < len(ls) && !anyTag.MatchString(ls[j]) && !strings.Contains(ls[j], "```") && !strings.Contains(ls[j], "~~~") {
			j++
		}
		if j == len(ls) || !isTag(ls[j], "</analysis>") {
			outside[strings.TrimSpace(ls[i])] = true
			outsideLines = append(outsideLines, ls[i])
			continue
		}
		place := blockPlace(openers, i, j)
		for _, l := range ls[i+1 : j] {
			if t := strings.TrimSpace(l); len(t) >= drift.MinAnalysisLine {
				if _, dup := inside[t]; !dup {
					inside[t] = place
				}
			}
		}
		i = j
	}
	rest := strings.Join(outsideLines, "\n")
	for l := range inside {
		if outside[l] || strings.Contains(rest, l) {
			delete(inside, l) // the text says it outside the analysis too: the summary may
		}
	}
	return inside
}

// blockPlace names where an analysis block on lines start to end stands among the
// "<summary>" lines of a text: "alone" (there is none), "before-summary",
// "after-summary" or "between-summaries".
func blockPlace(openers []int, start, end int) string {
	before, after := false, false
	for _, o := range openers {
		before = before || o < start
		after = after || o > end
	}
	switch {
	case before && after:
		return "between-summaries"
	case before:
		return "after-summary"
	case after:
		return "before-summary"
	}
	return "alone"
}

func isTag(line, tag string) bool { return strings.TrimSpace(line) == tag }

// leakedLine returns a line of e's summary that is analysis by strictAnalysis, and where its
// block stands (blockPlace), or "".
func leakedLine(text string, e compact.Extraction) (line, place string) {
	if !e.OK {
		return "", ""
	}
	analysis := strictAnalysis(text)
	if len(analysis) == 0 {
		return "", ""
	}
	for _, l := range linesOf(e.Summary, text) {
		t := strings.TrimSpace(l)
		if p, ok := analysis[t]; ok {
			return t, p
		}
	}
	return "", ""
}

// analysisTag matches an analysis opener or closer in any spelling robust knows.
var analysisTag = regexp.MustCompile(`<[ \t]*(/?)[ \t]*` + analysisNames + `\b[^<>\n\r\x{85}\x{2028}\x{2029}]*>`)

// marksAnalysis reports a text that marks where its analysis starts and ends: an analysis
// opener and an analysis closer in any spelling outside fenced code. Inside a fence an
// analysis block may be quoted; with no closer, where the analysis stops is a guess (a line
// that opens with "<summary>" may be prose about the tag), and with no opener where it
// starts (after a summary with no closer, say); with no tag at all nothing tells the
// analysis from the summary.
func marksAnalysis(text string) bool {
	fence, opened := false, false
	for _, l := range lines(text) {
		if isFence(l) {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		for _, m := range analysisTag.FindAllStringSubmatch(l, -1) {
			if m[1] == "/" && opened {
				return true
			}
			opened = opened || m[1] == ""
		}
	}
	return false
}

// isFence reports a code fence line.
func isFence(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// visibleSummary reports whether text holds a block any reader takes for the summary: a
// "<summary>" line outside every analysis region (from an analysis opener in any spelling
// to its closer, or to the end when it has none), then at least one line with a letter or
// digit and no tag or fence, then a "</summary>" line. A body whose [bracketed] lines are
// three or more and outnumber the others may be the prompt's template echoed ("[Detailed
// description]"): no reader can tell it from a summary. A block followed by an analysis
// closer that closes no opener (a reasoning model's "</think>" with its opener in the
// prompt) may be inside the analysis: maybe then reports it, when no block is visible.
func visibleSummary(text string) (visible, maybe bool) {
	ls := lines(text)
	inAnalysis := false
	for i := 0; i < len(ls); i++ {
		for _, m := range analysisTag.FindAllStringSubmatch(ls[i], -1) {
			inAnalysis = m[1] == ""
		}
		if inAnalysis || !isTag(ls[i], "<summary>") {
			continue
		}
		body, bracketed, other := false, 0, 0
		j := i + 1
		for ; j < len(ls) && !anyTag.MatchString(ls[j]) && !strings.Contains(ls[j], "```"); j++ {
			t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(ls[j]), "-*"))
			switch {
			case strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]"):
				bracketed++
			case t != "":
				other++
			}
			body = body || strings.IndexFunc(t, isAlnum) >= 0
		}
		if bracketed >= 3 && bracketed > other {
			continue // placeholders, [Detailed description]: maybe the prompt's template echoed
		}
		if j < len(ls) && isTag(ls[j], "</summary>") && body {
			if !orphanCloserAfter(ls[j+1:]) {
				return true, false
			}
			maybe = true
		}
	}
	return false, maybe
}

// orphanCloserAfter reports whether ls, the lines after a block outside analysis, hold an
// analysis closer that closes no opener of theirs.
func orphanCloserAfter(ls []string) bool {
	open := false
	for _, l := range ls {
		for _, m := range analysisTag.FindAllStringSubmatch(l, -1) {
			if m[1] == "/" && !open {
				return true
			}
			open = m[1] == ""
		}
	}
	return false
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// insideAnalysis reports whether the summary (a part of text) stands inside an analysis
// region of text: from an analysis opener in any spelling outside fenced code to the next
// analysis closer outside fenced code, or to the end when there is none. Where the summary's
// first line occurs several times, its last occurrence counts (a retry's draft comes first);
// a summary whose first line the text does not hold is not inside.
func insideAnalysis(text, summary string) bool {
	first := ""
	for _, l := range linesOf(summary, text) {
		if first = strings.TrimSpace(l); first != "" {
			break
		}
	}
	if first == "" {
		return false
	}
	fence, inAnalysis, inside := false, false, false
	for _, l := range lines(text) {
		if isFence(l) {
			fence = !fence
		} else if !fence {
			for _, m := range analysisTag.FindAllStringSubmatch(l, -1) {
				inAnalysis = m[1] == ""
			}
		}
		if strings.TrimSpace(l) == first {
			inside = inAnalysis
		}
	}
	return inside
}

// violation is one property an extraction breaks, with what shows it. An ambiguous one is
// what the property would claim where the text does not decide it: counted apart, never a
// failure.
type violation struct {
	prop, detail string
	// kind is the property and what kind of failure it is (see Kinds).
	kind      string
	ambiguous bool
}

func newViolation(prop, sub, detail string) violation {
	return violation{prop: prop, detail: detail, kind: kindOf(prop, sub)}
}

// check returns the properties that extraction e of text breaks, and those it would break
// where the text does not decide (ambiguous). want, when not nil, is what a careful reader
// keeps (a corpus case's intended result, a drift sample's); s, when not nil, is the drift
// sample text came from, whose structure knows its analysis lines.
func check(text string, e compact.Extraction, want *corpus.Intended, s *drift.Sample) []violation {
	var out []violation
	if bareTag(e) {
		out = append(out, newViolation(PropBareTag, tagNamesOf(e.Summary), "the summary is only tags: "+quote(e.Summary, 80)))
	}
	if leak, place := leakedLine(text, e); leak != "" {
		out = append(out, newViolation(PropLeak, place, "the summary holds analysis text: "+quote(leak, 80)))
	} else if s != nil && drift.Judge(*s, e).Leaked {
		// Only where a tag marks the analysis can a reader tell it from the summary: with
		// every analysis tag gone, the sample is ambiguous, not a failure.
		v := newViolation(PropLeak, "marked", "the summary holds a line of the sample's analysis")
		v.ambiguous = !marksAnalysis(text)
		out = append(out, v)
	}
	if e.OK {
		if v, ok := tagKept(text, e, want, s); ok {
			out = append(out, v)
		}
	}
	if !e.OK {
		if v, ok := lost(text, want, s); ok {
			out = append(out, v)
		}
	}
	return out
}

// tagKept is check's tag-kept verdict on a found summary.
func tagKept(text string, e compact.Extraction, want *corpus.Intended, s *drift.Sample) (violation, bool) {
	if want != nil && keptTagLine(want.Summary, text) != "" {
		return violation{}, false // the intended summary has a tag line: it may keep one
	}
	if want != nil && s == nil {
		// A person judged the corpus case's summary: any tag line it does not have counts.
		tl := keptTagLine(e.Summary, text)
		if tl == "" {
			return violation{}, false
		}
		v := newViolation(PropTagKept, tagSub(tl), "the summary keeps the tag line "+tl)
		v.ambiguous = fenced(text)
		return v, true
	}
	// Otherwise the text decides, as a reader reads it.
	ls := linesOf(e.Summary, text)
	inner := ""
	for i, l := range ls {
		if !tagLine.MatchString(l) {
			continue
		}
		tl := strings.TrimSpace(l)
		sub := tagSub(tl)
		if i > 0 && i < len(ls)-1 && (sub == "analysis" || sub == "/analysis") {
			// An analysis tag line inside the summary marks analysis within it (whether the
			// lines it marks are analysis is analysis-leak's question): whether the line
			// belongs to the summary, the text does not decide.
			inner = tl
			continue
		}
		v := newViolation(PropTagKept, sub, "the summary keeps the tag line "+tl)
		v.ambiguous = fenced(text) || quotesTagLine(text)
		return v, true
	}
	if inner != "" {
		v := newViolation(PropTagKept, tagSub(inner), "the summary holds the tag line "+inner+" inside")
		v.ambiguous = true
		return v, true
	}
	return violation{}, false
}

// lost is check's summary-lost verdict where nothing was returned.
func lost(text string, want *corpus.Intended, s *drift.Sample) (violation, bool) {
	visible, maybe := visibleSummary(text)
	if want == nil {
		if visible || maybe {
			v := newViolation(PropLost, "closed-block", "nothing returned for a text with a closed summary block")
			v.ambiguous = !visible
			return v, true
		}
		return violation{}, false
	}
	if !want.Found || headingsOnly(want.Summary, text) {
		return violation{}, false
	}
	sub := "intended"
	if visible {
		sub = "closed-block"
	}
	v := newViolation(PropLost, sub, "nothing returned; the intended summary begins "+quote(want.Summary, 60))
	// A person judged a corpus case; a drift sample's structure knows more than its text.
	v.ambiguous = s != nil && !visible && (s.Ambiguous || maybe || insideAnalysis(text, want.Summary))
	return v, true
}

// sectionHeading matches a line that is only a numbered section heading: "3. Files and Code
// Sections:", "**1. Primary Request and Intent:**".
var sectionHeading = regexp.MustCompile(`^[#* ]*[1-9][.)][^:]*:[* ]*$`)

// headingsOnly reports an intended summary (a part of text) that holds section headings and
// nothing else, as an answer cut after its first heading does: there is nothing to lose.
func headingsOnly(summary, text string) bool {
	for _, l := range linesOf(summary, text) {
		if !sectionHeading.MatchString(strings.TrimSpace(l)) {
			return false
		}
	}
	return true
}

// fenced reports a text that holds a code fence or an example block: there a tag line may
// be quoted on purpose, so a kept one is not held against the extractor.
func fenced(text string) bool {
	return strings.Contains(text, "```") || strings.Contains(text, "~~~") || strings.Contains(strings.ToLower(text), "<example")
}

// stillFails reports whether extraction e of a shrunk text still fails with the given kind
// by the oracles that need nothing but the text (minimize keeps a candidate only then).
func stillFails(kind, text string, e compact.Extraction) bool {
	for _, v := range check(text, e, nil, nil) {
		if v.kind == kind && !v.ambiguous {
			return true
		}
	}
	return false
}

// quotesTagLine reports a text whose summary block itself holds a structural tag line
// (between a first "<summary>" line and a last "</summary>" line, another tag line): a
// kept tag line may then be part of the summary.
func quotesTagLine(text string) bool {
	ls := lines(text)
	first, last := -1, -1
	for i, l := range ls {
		if isTag(l, "<summary>") && first < 0 {
			first = i
		}
		if isTag(l, "</summary>") {
			last = i
		}
	}
	if first < 0 || last <= first {
		return false
	}
	for _, l := range ls[first+1 : last] {
		if tagLine.MatchString(l) {
			return true
		}
	}
	return false
}

// quote returns s shortened to about n bytes, quoted.
func quote(s string, n int) string {
	if len(s) > n {
		cut := n
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return "\"" + strings.NewReplacer("\n", `\n`, "\r", `\r`, "\"", `\"`).Replace(s) + "\""
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
