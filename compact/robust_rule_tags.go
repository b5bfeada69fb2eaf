package compact

import "strings"

// Rule "Tags" of docs/robust.md, as it states it: summary, analysis, think, thinking and example
// tags are recognised in any ASCII letter case (not Unicode folding: `<ſummary>`, with a long s,
// is no tag), with attributes (`<summary type="final">`), with spaces inside (`</ summary>`,
// `</summary >`), and, for summary, misspelled by one letter (`<sumary>`). A tag never spans a
// line end. A tag is structure where real answers put it: at the start of a line (after blanks, a
// BOM or zero-width characters), right after a closing tag (`</analysis><summary>`), or, for a
// closer, at the end of a line (before blanks or invisible characters, U+0085 included). A tag
// inside `` `inline code` `` is a mention. A summary opener after prose on its line (`Here is the
// summary: <summary>...`) starts a block when no block at a line start has content, unless it
// follows `<details>` (an HTML element).
//
// This file holds that rule; docs/robust.md and compact/robust.ts state and implement it too.

// isStructural reports whether a tag of kind k with flags f is structure rather than a
// mention in prose (rule "Tags"): at the start of a line, right after a closing tag, or for
// a closer at the end of a line; never inside `inline code`. scanTags records the answer in
// each tag's flags (structuralTag), which tag.structural reads.
func isStructural(k tagKind, f tagFlags) bool {
	if f&inCode != 0 {
		return false
	}
	return f&(atLineStart|afterCloser) != 0 || k == closer && f&atLineEnd != 0
}

// tagNameOf returns the tag a name stands for, in any ASCII letter case; summary may be
// misspelled by one letter.
func tagNameOf(s string) (tagName, bool) {
	switch s { // the names as the prompt spells them, without folding
	case "summary":
		return nameSummary, true
	case "analysis":
		return nameAnalysis, true
	}
	if len(s) < 5 || len(s) > 8 {
		return 0, false
	}
	var buf [8]byte
	for i := 0; i < len(s); i++ {
		buf[i] = s[i] | 0x20 // s holds ASCII letters only
	}
	switch string(buf[:len(s)]) {
	case "summary":
		return nameSummary, true
	case "analysis":
		return nameAnalysis, true
	case "example":
		return nameExample, true
	case "think", "thinking":
		return nameThink, true
	}
	if summaryMisspelling(string(buf[:len(s)])) {
		return nameSummary, true
	}
	return 0, false
}

// summaryMisspelling reports a tag name one edit away from "summary" that keeps its first
// two letters (sumary, summery, summmary), as small models write it. "summaries" and other
// words are two or more edits away.
func summaryMisspelling(name string) bool {
	const want = "summary"
	if len(name) < len(want)-1 || len(name) > len(want)+1 || name == want || !strings.HasPrefix(name, "su") {
		return false
	}
	return editDistanceAtMostOne(name, want)
}

func editDistanceAtMostOne(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i:] == b[i+1:]
}

// invisible reports characters that may stand before a tag without making it a mention.
func invisible(r rune) bool {
	return IsJSSpace(r) || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\u180e' || r == '\u0085'
}

func onlyInvisible(s string) bool {
	for _, r := range s {
		if !invisible(r) {
			return false
		}
	}
	return true
}

// htmlOnLine reports an opener written right after a <details> tag on its line: an HTML
// element, not a summary block after prose.
func (sc *scan) htmlOnLine(t tag) bool {
	before := TrimJS(sc.text[t.line:t.start])
	lt := strings.LastIndexByte(before, '<')
	return lt >= 0 && hasPrefixFold(before[lt:], "<details") && strings.HasSuffix(before, ">")
}
