package fuzz

// This file holds summary-lost's oracle: where a reader sees a summary.

import (
	"regexp"
	"strings"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
)

// visibleSummary reports whether text holds a block any reader takes for the summary: a
// "<summary>" line outside every analysis region (from an analysis opener in any spelling
// to its closer, or to the end when it has none), then at least one line with a letter or
// digit besides its list number and that is no bare section heading ("1. Primary Request
// and Intent:": a block of headings alone has nothing to lose) nor tags alone ("<x>"), and no
// line with a tag or fence, then a "</summary>"
// line. A body whose [bracketed] lines are
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
		for ; j < len(ls) && !anyTag.MatchString(ls[j]) && !strings.Contains(ls[j], "```") && !strings.Contains(ls[j], "~~~"); j++ {
			t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(ls[j]), "-*"))
			switch {
			case strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]"):
				bracketed++
			case t != "":
				other++
			}
			words := listNumber.ReplaceAllString(t, "") // "1.::" has no word
			body = body || strings.IndexFunc(words, isAlnum) >= 0 && !sectionHeading.MatchString(strings.TrimSpace(ls[j])) && !tagsOnly.MatchString(t)
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

// listNumber matches the number that starts a numbered line ("1.", "12)").
var listNumber = regexp.MustCompile(`^[#* ]*[0-9]+[.)]`)

// sectionHeading matches a line that is only a numbered section heading: "3. Files and Code
// Sections:", "**1. Primary Request and Intent:**", any numbered label that ends with a colon
// and is shorter than 60 characters ("1.:k:" too: it says nothing after its colon).
var sectionHeading = regexp.MustCompile(`^[#* ]*[1-9][.)].{0,56}:[* ]*$`)

// tagsOnly matches a line of <...> tokens and blanks alone (`<x>`, `<summary> <b>`): markup
// with nothing a reader could lose. Blanks are any invisible characters, as robust reads
// them (rule "Tags"): Unicode spaces, zero-width characters, a BOM, and the two NULs that
// linesOf puts for a U+0085 that ends no line.
var tagsOnly = regexp.MustCompile(`^(?:` + invisibles + `*<[^<>]*>)+` + invisibles + `*$`)

const invisibles = `[\s\x00\x{85}\p{Zs}\x{200b}-\x{200d}\x{2060}\x{180e}\x{feff}]`

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
