package compact

import "strings"

// Rule "Duplicates" of docs/robust.md, as it states it: of several blocks, the one with the most
// of the nine numbered sections wins; among equals, a closed block beats an unclosed one and a
// later block an earlier one. A one-line sign-off block or a patch of two sections does not
// displace a full summary.
//
// This file holds that rule; docs/robust.md and compact/robust.ts state and implement it too.

// candidate is one summary block.
type candidate struct {
	body       string
	closed     bool
	sections   int // sectionCount(body), -1 until a comparison asks (candidate.sectionCount)
	start      int
	degenerate bool
}

// beats reports whether c should be chosen over d, c coming later in the text (rule
// "Duplicates").
func (c *candidate) beats(d *candidate) bool {
	if cs, ds := c.sectionCount(), d.sectionCount(); cs != ds {
		return cs > ds
	}
	if c.closed != d.closed {
		return c.closed
	}
	return c.start > d.start
}

// sectionCount returns sectionCount(c.body), counted the first time it is asked: an answer
// with one block never compares it, and need not read the block for its sections.
func (c *candidate) sectionCount() int {
	if c.sections < 0 {
		c.sections = sectionCount(c.body)
	}
	return c.sections
}

// sectionCount counts which of the nine numbered sections have a heading line in s (rule
// "Duplicates").
func sectionCount(s string) int { return sectionsUpTo(s, 9) }

// sectionsUpTo is sectionCount, stopping once it has counted limit (at least 1) sections:
// the tests that only ask for "at least limit" need not read the rest of a long summary.
//
// A heading line is, after the marks " \t#*>-", a digit 1-9, '.' or ')' and one more
// character. Rather than split s into lines, it visits each '.' and ')' (a vectorised
// search: a body without them costs two passes) and reads around it: the digit before, the
// marks back to the start of the line, and the character after. That is the line-by-line
// count: a line starts at the start of s or after a terminator as eachLine splits them
// (lineStartAt), and the character after is on the line when no terminator starts there.
// Each byte is read at most once more: the runs of marks read back end at distinct digits.
func sectionsUpTo(s string, limit int) int {
	var seen [10]bool
	n := 0
	for _, punct := range [...]byte{'.', ')'} {
		for at := 1; n < limit && at < len(s); {
			k := strings.IndexByte(s[at:], punct)
			if k < 0 {
				break
			}
			p := at + k // p >= 1: a digit may stand before it
			at = p + 1
			d := s[p-1]
			if d < '1' || d > '9' || seen[d-'0'] || p+1 >= len(s) || TerminatorLen(s, p+1) > 0 {
				continue
			}
			i := p - 1
			for i > 0 && isSectionMark(s[i-1]) {
				i--
			}
			if lineStartAt(s, i) {
				seen[d-'0'] = true
				n++
			}
		}
	}
	return n
}

func isSectionMark(c byte) bool {
	return c == ' ' || c == '\t' || c == '#' || c == '*' || c == '>' || c == '-'
}

// lineStartAt reports whether a line of s, as eachLine splits them, starts at i, where s[i]
// is ASCII and no terminator byte: at the start of s, or right after \n, \r (not followed
// by the \n of \r\n, as s[i] is no '\n'), U+2028 or U+2029 (isLineStart), or U+0085.
// Their lead bytes are never a later byte of another terminator, so eachLine, reading from
// the start, reads each of them as a terminator.
func lineStartAt(s string, i int) bool {
	return isLineStart(s, i) || i >= 2 && s[i-2:i] == "\u0085"
}
