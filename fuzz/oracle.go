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

func isTag(line, tag string) bool { return strings.TrimSpace(line) == tag }

// isFence reports a code fence line.
func isFence(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
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
