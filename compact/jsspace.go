package compact

import "unicode/utf8"

// IsJSSpace reports whether r is removed by JavaScript's String.prototype.trim: the
// WhiteSpace and LineTerminator code points of ECMAScript. Unlike unicode.IsSpace it includes
// U+FEFF and excludes U+0085.
func IsJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// TrimJS returns s without leading and trailing JavaScript whitespace, as
// String.prototype.trim does. Bytes that are not valid UTF-8 are never trimmed.
func TrimJS(s string) string {
	if s = trimASCIISpace(s); len(s) == 0 || s[0] < utf8.RuneSelf && s[len(s)-1] < utf8.RuneSelf {
		return s // ASCII at both ends: nothing to decode
	}
	return trimJSNonASCII(s)
}

// trimJSNonASCII is TrimJS for s, trimmed of ASCII blanks, with a non-ASCII end.
func trimJSNonASCII(s string) string {
	if !mayStartJSSpace(s) && !mayEndJSSpace(s) {
		return s // no space at either end: nothing to trim (a zero-width space or a letter)
	}
	return trimJSRunes(s)
}

// mayStartJSSpace reports whether s may start with a non-ASCII character that IsJSSpace
// reports, from its UTF-8 bytes: false means it does not (TestTrimJSQuickReject asks every
// character); true may be wrong, and trimJSRunes then decodes.
func mayStartJSSpace(s string) bool {
	if len(s) < 2 || s[0] < utf8.RuneSelf {
		return false
	}
	switch s[0] {
	case 0xc2: // U+00A0
		return s[1] == 0xa0
	case 0xe1: // U+1680
		return s[1] == 0x9a
	case 0xe2: // U+2000-U+200A, U+2028, U+2029, U+202F, U+205F; not U+200B-U+200F
		if len(s) < 3 {
			return true
		}
		c := s[2]
		return s[1] == 0x80 && (c <= 0x8a || c == 0xa8 || c == 0xa9 || c == 0xaf) || s[1] == 0x81 && c == 0x9f
	case 0xe3: // U+3000
		return s[1] == 0x80
	case 0xef: // U+FEFF
		return s[1] == 0xbb
	}
	return false
}

// mayEndJSSpace is mayStartJSSpace for the character that ends s: every non-ASCII
// character IsJSSpace reports ends in 0x80-0x8a, 0x9f, 0xa0, 0xa8, 0xa9, 0xaf or 0xbf.
func mayEndJSSpace(s string) bool {
	switch c := s[len(s)-1]; {
	case c < utf8.RuneSelf:
		return false
	case c <= 0x8a && c >= 0x80, c == 0x9f, c == 0xa0, c == 0xa8, c == 0xa9, c == 0xaf, c == 0xbf:
		return true
	}
	return false
}

// trimJSRunes is TrimJS rune by rune.
func trimJSRunes(s string) string {
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if size == 1 && r == utf8.RuneError || !IsJSSpace(r) {
			break
		}
		s = s[size:]
	}
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if size == 1 && r == utf8.RuneError || !IsJSSpace(r) {
			break
		}
		s = s[:len(s)-size]
	}
	return s
}

// trimASCIISpace returns s without the ASCII JavaScript whitespace at its ends (tab, line
// feed, vertical tab, form feed, carriage return, space), byte by byte: an ASCII byte is a
// whole character, so what is left starts and ends where a rune-by-rune trim of those
// characters would leave it.
func trimASCIISpace(s string) string {
	i, j := 0, len(s)
	for i < j && asciiSpace(s[i]) {
		i++
	}
	for j > i && asciiSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// asciiSpace reports the ASCII characters IsJSSpace reports: the space and tab, line feed,
// vertical tab, form feed and carriage return, which are 9 to 13 (one unsigned comparison).
func asciiSpace(c byte) bool {
	return c == ' ' || c-'\t' <= '\r'-'\t'
}

// isLineStart reports whether a JavaScript multiline ^ matches at byte offset i of s.
func isLineStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	switch s[i-1] {
	case '\n', '\r':
		return true
	}
	return i >= 3 && (s[i-3:i] == "\u2028" || s[i-3:i] == "\u2029")
}

// isLineEnd reports whether a JavaScript multiline $ matches at byte offset i of s.
func isLineEnd(s string, i int) bool {
	if i == len(s) {
		return true
	}
	switch s[i] {
	case '\n', '\r':
		return true
	}
	return len(s)-i >= 3 && (s[i:i+3] == "\u2028" || s[i:i+3] == "\u2029")
}
