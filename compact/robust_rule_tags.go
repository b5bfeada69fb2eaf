package compact

import (
	"math/bits"
	"strings"
)

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
// misspelled by one letter. s holds ASCII letters only (its callers read a run of them).
//
// The first letter picks the one name s can stand for, which is compared folded byte by
// byte: a line of near-miss tags (<summar> <sumaryy> ...) asks for every one of them.
// TestTagNameOfPlain holds it to plainTagNameOf, a switch on the folded name.
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
	switch s[0] | 0x20 {
	case 's':
		if summaryFoldWithinOne(s) {
			return nameSummary, true
		}
	case 'a':
		if foldedIs(s, "analysis") {
			return nameAnalysis, true
		}
	case 'e':
		if foldedIs(s, "example") {
			return nameExample, true
		}
	case 't':
		if foldedIs(s, "think") || foldedIs(s, "thinking") {
			return nameThink, true
		}
	}
	return 0, false
}

// foldedIs reports whether s, ASCII letters, is the lower-case word in any letter case.
func foldedIs(s, word string) bool {
	if len(s) != len(word) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 != word[i] {
			return false
		}
	}
	return true
}

// summaryFoldWithinOne reports whether s, ASCII letters in any case, is "summary" or one
// edit away from it keeping its first two letters (sumary, summery, summmary), as small
// models write it. "summaries" and other words are two or more edits away.
//
// The name, folded, is read into a word, one byte a letter, and compared with "summary"
// from its first difference on: the rest is equal (one letter changed), or equal one letter
// further along in one of them (one letter left out or put in).
func summaryFoldWithinOne(s string) bool {
	const want = 0x7972616d6d7573 // "summary", its first letter in the lowest byte
	if len(s) < 6 || len(s) > 8 {
		return false
	}
	var x uint64
	for i := len(s) - 1; i >= 0; i-- {
		x = x<<8 | uint64(s[i]|0x20)
	}
	d := x ^ want
	if d == 0 {
		return true
	}
	i := uint(bits.TrailingZeros64(d)) / 8 * 8 // the first difference, in bits
	if i < 16 {
		return false // "su" is kept
	}
	switch len(s) {
	case 7:
		return x>>(i+8) == want>>(i+8)
	case 6:
		return x>>i == want>>(i+8)
	}
	return x>>(i+8) == want>>i
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
