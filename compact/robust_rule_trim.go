package compact

import "unicode/utf8"

// Rule "Trim" of docs/robust.md, as it states it: JavaScript's trim, plus zero-width characters
// next to the tags, plus U+0085 where the answer uses it as its line terminator (a text with no
// `\n` or `\r`; elsewhere a U+0085 is a character, most often an ellipsis mis-decoded from
// Windows-1252). A block's body, and the text an answer without blocks keeps, also lose the lines
// at their ends that hold one summary, analysis or think tag alone, unless they hold a code fence
// (there a tag line is quoted).
//
// This file holds that rule; docs/robust.md and compact/robust.ts state and implement it too.

// trimRobust is TrimJS plus the invisible characters; U+0085 only where it ends lines (rule
// "Trim").
//
// An ASCII character is invisible exactly when it is a JavaScript blank (asciiSpace), and is
// one byte whatever follows: the ASCII ends are trimmed byte by byte, and runes are decoded
// only where an end is not ASCII. There it is strings.TrimFunc written out, without a call
// through a closure for each character (the gap between two openers after a zero-width
// space, trimmed once for every opener of a loop of them). A byte that is not UTF-8 decodes
// to U+FFFD, which is not invisible, and stops the trim as it stops TrimFunc.
func trimRobust(s string, nel bool) string {
	if s = trimASCIISpace(s); len(s) == 0 || s[0] < utf8.RuneSelf && s[len(s)-1] < utf8.RuneSelf {
		return s
	}
	for len(s) > 0 {
		r, size := rune(0), 3
		if len(s) >= 3 && s[0] == 0xe2 && s[1] == 0x80 && s[2]&0xc0 == 0x80 {
			r = 0x2000 | rune(s[2]&0x3f) // U+2000-U+203F (the zero-width space, the line separators) without decoding
		} else {
			r, size = utf8.DecodeRuneInString(s)
		}
		if !invisible(r) || r == '\u0085' && !nel {
			break
		}
		s = s[size:]
	}
	for len(s) > 0 {
		r, size := rune(0), 3
		if n := len(s); n >= 3 && s[n-3] == 0xe2 && s[n-2] == 0x80 && s[n-1]&0xc0 == 0x80 {
			r = 0x2000 | rune(s[n-1]&0x3f)
		} else {
			r, size = utf8.DecodeLastRuneInString(s)
		}
		if !invisible(r) || r == '\u0085' && !nel {
			break
		}
		s = s[:len(s)-size]
	}
	return s
}

// trimTagLines drops the lines at the ends of a body that hold one summary, analysis or
// think tag alone (rule "Trim"): an opener or a closer left over where the block was cut
// (<sumary><analysis> then the text). Only a body that opens with '<' or ends with '>' can
// have one; a body with a code fence keeps them.
func trimTagLines(body string, nel bool) string {
	if (len(body) == 0 || body[0] != '<' && body[len(body)-1] != '>') || indexRun3(body, '`') >= 0 || indexRun3(body, '~') >= 0 {
		return body // a tag line in fenced code is quoted
	}
	for len(body) > 0 && body[0] == '<' {
		end := tagLineEnd(body)
		if end < 0 {
			break
		}
		if end < len(body) {
			end += TerminatorLen(body, end)
		}
		body = trimRobust(body[end:], nel)
	}
	for len(body) > 0 && body[len(body)-1] == '>' {
		start := tagLineStart(body)
		if start < 0 {
			break
		}
		body = trimRobust(body[:start], nel)
	}
	return body
}

// tagLineEnd returns the end of the first line of s (the start of its terminator) where that
// line holds one summary, analysis or think tag and blanks (<analysis>, </ Summary >,
// <sumary>), else -1. It reads the tag and the blanks around it, not the rest of a line.
func tagLineEnd(s string) int {
	p := blanksInLine(s, 0)
	if p == len(s) || s[p] != '<' {
		return -1
	}
	p = skipBlanks(s, p+1)
	if p < len(s) && s[p] == '/' {
		p = skipBlanks(s, p+1)
	}
	from := p
	for p < len(s) && isASCIILetter(s[p]) {
		p++
	}
	if name, ok := tagNameOf(s[from:p]); !ok || name == nameExample {
		return -1
	}
	if p = skipBlanks(s, p); p == len(s) || s[p] != '>' {
		return -1
	}
	if p = blanksInLine(s, p+1); p < len(s) && TerminatorLen(s, p) == 0 {
		return -1
	}
	return p
}

// tagLineStart returns the start of the last line of s where that line holds one summary,
// analysis or think tag and blanks, else -1; tagLineEnd read from the end.
func tagLineStart(s string) int {
	p := blanksInLineBefore(s, len(s))
	if p == 0 || s[p-1] != '>' {
		return -1
	}
	p = skipBlanksBack(s, p-1)
	to := p
	for p > 0 && isASCIILetter(s[p-1]) {
		p--
	}
	if name, ok := tagNameOf(s[p:to]); !ok || name == nameExample {
		return -1
	}
	p = skipBlanksBack(s, p)
	if p > 0 && s[p-1] == '/' {
		p = skipBlanksBack(s, p-1)
	}
	if p == 0 || s[p-1] != '<' {
		return -1
	}
	if p = blanksInLineBefore(s, p-1); p > 0 && !endsTerminator(s, p) {
		return -1
	}
	return p
}

// blanksInLine returns the position of the first character of s at or after i that is not
// invisible or that ends a line (a line terminator is invisible too).
func blanksInLine(s string, i int) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if c != ' ' && c != '\t' && c != '\v' && c != '\f' {
				return i // visible, or "\n" or "\r"
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if size == 1 && r == utf8.RuneError || !invisible(r) || TerminatorLen(s, i) > 0 {
			return i
		}
		i += size
	}
	return i
}

// blanksInLineBefore is blanksInLine read back from i: the start of the run of invisible
// characters that ends at i, stopping after a line terminator.
func blanksInLineBefore(s string, i int) int {
	for i > 0 && !endsTerminator(s, i) {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if size == 1 && r == utf8.RuneError || !invisible(r) {
			return i
		}
		i -= size
	}
	return i
}

// endsTerminator reports whether a line terminator ends right before s[i].
func endsTerminator(s string, i int) bool {
	c := s[i-1]
	return c == '\n' || c == '\r' || endsTerminatorAt(s, i)
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
