package fuzz

// This file holds the oracles of bare-tag and tag-kept.

import (
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
)

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

// fenced reports a text that holds a code fence or an example block: there a tag line may
// be quoted on purpose, so a kept one is not held against the extractor.
func fenced(text string) bool {
	return strings.Contains(text, "```") || strings.Contains(text, "~~~") || strings.Contains(strings.ToLower(text), "<example")
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
