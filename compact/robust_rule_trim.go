package compact

import (
	"strings"
	"unicode/utf8"
)

// Rule "Trim" of docs/robust.md, as it states it: JavaScript's trim, plus zero-width characters
// next to the tags, plus U+0085 where the answer uses it as its line terminator (a text with no
// `\n` or `\r`; elsewhere a U+0085 is a character, most often an ellipsis mis-decoded from
// Windows-1252). A block's body also loses the lines at its ends that hold one summary, analysis
// or think tag alone, unless the body holds a code fence (there a tag line is quoted).
//
// This file holds that rule; docs/robust.md and compact/robust.ts state and implement it too.

// trimRobust is TrimJS plus the invisible characters; U+0085 only where it ends lines (rule
// "Trim").
//
// An ASCII character is invisible exactly when it is a JavaScript blank (asciiSpace), and is
// one byte whatever follows: the ASCII ends are trimmed byte by byte, and TrimFunc, which
// decodes a rune for each character, runs only where an end is not ASCII.
func trimRobust(s string, nel bool) string {
	if s = trimASCIISpace(s); len(s) == 0 || s[0] < utf8.RuneSelf && s[len(s)-1] < utf8.RuneSelf {
		return s
	}
	cut := func(r rune) bool { return invisible(r) && (r != '\u0085' || nel) }
	return strings.TrimFunc(s, cut)
}

// trimTagLines drops the lines at the ends of a body that hold one summary, analysis or
// think tag alone (rule "Trim"): an opener or a closer left over where the block was cut
// (<sumary><analysis> then the text). Only a body that opens with '<' or ends with '>' can
// have one, and only its first or last line is read; a body with a code fence keeps them.
func trimTagLines(body string, nel bool) string {
	if (len(body) == 0 || body[0] != '<' && body[len(body)-1] != '>') || strings.Contains(body, "```") || strings.Contains(body, "~~~") {
		return body // a tag line in fenced code is quoted
	}
	for len(body) > 0 && body[0] == '<' {
		end, next := len(body), len(body)
		for i := 0; i < len(body); i++ {
			if n := TerminatorLen(body, i); n > 0 {
				end, next = i, i+n
				break
			}
		}
		if !isTagLine(body[:end]) {
			break
		}
		body = trimRobust(body[next:], nel)
	}
	for len(body) > 0 && body[len(body)-1] == '>' {
		start := 0 // the start of the last line
		for i := len(body) - 1; i > 0; i-- {
			if c := body[i-1]; c == '\n' || c == '\r' || (c == 0x85 || c == 0xa8 || c == 0xa9) && endsTerminatorAt(body, i) {
				start = i
				break
			}
		}
		if !isTagLine(body[start:]) {
			break
		}
		body = trimRobust(body[:start], nel)
	}
	return body
}

// endsTerminatorAt reports whether a U+0085, U+2028 or U+2029 ends right before s[i].
func endsTerminatorAt(s string, i int) bool {
	switch s[i-1] {
	case 0x85:
		return i >= 2 && s[i-2] == 0xc2
	case 0xa8, 0xa9:
		return i >= 3 && s[i-3] == 0xe2 && s[i-2] == 0x80
	}
	return false
}

// isTagLine reports a line that is one summary, analysis or think tag and blanks: <analysis>,
// </ Summary >, <sumary>.
func isTagLine(line string) bool {
	l := strings.TrimFunc(line, invisible)
	if len(l) < 3 || l[0] != '<' || l[len(l)-1] != '>' {
		return false
	}
	j := skipBlanks(l, 1)
	if j < len(l) && l[j] == '/' {
		j = skipBlanks(l, j+1)
	}
	k := j
	for k < len(l) && isASCIILetter(l[k]) {
		k++
	}
	name, ok := tagNameOf(l[j:k])
	return ok && name != nameExample && skipBlanks(l, k) == len(l)-1
}
