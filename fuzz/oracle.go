package fuzz

import (
	"regexp"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
)

// Properties an extractor is held to, as robust is (compact/robust.go):
const (
	// PropLeak: the summary holds text of a closed analysis block.
	PropLeak = "analysis-leak"
	// PropBareTag: the summary is nothing but tags.
	PropBareTag = "bare-tag"
	// PropTagKept: the summary keeps a structural tag line (a <summary>, </summary>,
	// <analysis> or </analysis> line) that the intended summary does not have: an unclosed
	// opener left in front of the text, a closer left at its end.
	PropTagKept = "tag-kept"
	// PropLost: nothing is returned where a reader sees a summary.
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
// as drift counts it.
func strictAnalysis(text string) map[string]bool {
	ls := lines(text)
	inside := map[string]bool{}
	outside := map[string]bool{}
	var outsideLines []string // the lines outside the blocks, as written
	inSummary := false        // after a "<summary>" line and before its "</summary>" line
	fence := false            // inside fenced code, where an analysis block is quoted
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
		for _, l := range ls[i+1 : j] {
			if t := strings.TrimSpace(l); len(t) >= drift.MinAnalysisLine {
				inside[t] = true
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

func isTag(line, tag string) bool { return strings.TrimSpace(line) == tag }

// leakedLine returns a line of e's summary that is analysis by strictAnalysis, or "".
func leakedLine(text string, e compact.Extraction) string {
	if !e.OK {
		return ""
	}
	analysis := strictAnalysis(text)
	if len(analysis) == 0 {
		return ""
	}
	for _, l := range linesOf(e.Summary, text) {
		if t := strings.TrimSpace(l); analysis[t] {
			return t
		}
	}
	return ""
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
// description]"): no reader can tell it from a summary.
func visibleSummary(text string) bool {
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
			return true
		}
	}
	return false
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// violation is one property an extraction breaks, with what shows it.
type violation struct {
	prop, detail string
}

// check returns the properties that extraction e of text breaks. want, when not nil, is
// what a careful reader keeps (a corpus case's intended result, a drift sample's); s, when
// not nil, is the drift sample text came from, whose structure knows its analysis lines.
func check(text string, e compact.Extraction, want *corpus.Intended, s *drift.Sample) []violation {
	var out []violation
	if bareTag(e) {
		out = append(out, violation{PropBareTag, "the summary is only tags: " + quote(e.Summary, 80)})
	}
	leak := leakedLine(text, e)
	if leak == "" && s != nil && marksAnalysis(text) && drift.Judge(*s, e).Leaked {
		// Only where a tag marks the analysis can a reader tell it from the summary: with
		// every analysis tag gone, the sample is ambiguous, not a failure.
		leak = "(a line of the sample's analysis)"
	}
	if leak != "" {
		out = append(out, violation{PropLeak, "the summary holds analysis text: " + quote(leak, 80)})
	}
	if tl := keptTagLine(e.Summary, text); e.OK && tl != "" && !fenced(text) && (want != nil && keptTagLine(want.Summary, text) == "" || want == nil && !quotesTagLine(text)) {
		out = append(out, violation{PropTagKept, "the summary keeps the tag line " + tl})
	}
	switch {
	case e.OK:
	case want != nil && want.Found && (s == nil || !s.Ambiguous) && !headingsOnly(want.Summary, text):
		out = append(out, violation{PropLost, "nothing returned; the intended summary begins " + quote(want.Summary, 60)})
	case want == nil && visibleSummary(text):
		out = append(out, violation{PropLost, "nothing returned for a text with a closed summary block"})
	}
	return out
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

// stillFails reports whether extraction e of a shrunk text breaks prop by the oracles that
// need nothing but the text (minimize keeps a candidate only then).
func stillFails(prop, text string, e compact.Extraction) bool {
	switch prop {
	case PropBareTag:
		return bareTag(e)
	case PropLeak:
		return leakedLine(text, e) != ""
	case PropTagKept:
		return e.OK && keptTagLine(e.Summary, text) != "" && !fenced(text) && !quotesTagLine(text)
	case PropLost:
		return !e.OK && visibleSummary(text)
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
