package compact

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// jsWhitespace lists every code point that String.prototype.trim removes (ECMAScript
// WhiteSpace and LineTerminator, with Unicode's Zs category as of Unicode 15), each with why.
var jsWhitespace = []struct {
	r      rune
	reason string
}{
	{'\t', "CHARACTER TABULATION: WhiteSpace <TAB>"},
	{'\n', "LINE FEED: LineTerminator <LF>"},
	{'\v', "LINE TABULATION: WhiteSpace <VT>"},
	{'\f', "FORM FEED: WhiteSpace <FF>"},
	{'\r', "CARRIAGE RETURN: LineTerminator <CR>"},
	{' ', "SPACE: Zs"},
	{0x00A0, "NO-BREAK SPACE: WhiteSpace <NBSP>, also Zs"},
	{0x1680, "OGHAM SPACE MARK: Zs"},
	{0x2000, "EN QUAD: Zs"},
	{0x2001, "EM QUAD: Zs"},
	{0x2002, "EN SPACE: Zs"},
	{0x2003, "EM SPACE: Zs"},
	{0x2004, "THREE-PER-EM SPACE: Zs"},
	{0x2005, "FOUR-PER-EM SPACE: Zs"},
	{0x2006, "SIX-PER-EM SPACE: Zs"},
	{0x2007, "FIGURE SPACE: Zs"},
	{0x2008, "PUNCTUATION SPACE: Zs"},
	{0x2009, "THIN SPACE: Zs"},
	{0x200A, "HAIR SPACE: Zs"},
	{0x2028, "LINE SEPARATOR: LineTerminator <LS>"},
	{0x2029, "PARAGRAPH SEPARATOR: LineTerminator <PS>"},
	{0x202F, "NARROW NO-BREAK SPACE: Zs"},
	{0x205F, "MEDIUM MATHEMATICAL SPACE: Zs"},
	{0x3000, "IDEOGRAPHIC SPACE: Zs"},
	{0xFEFF, "ZERO WIDTH NO-BREAK SPACE (BOM): WhiteSpace <ZWNBSP>; strings.TrimSpace keeps it"},
}

// notJSWhitespace lists near misses: code points one might expect trim to remove.
var notJSWhitespace = []struct {
	r      rune
	reason string
}{
	{0x0085, "NEXT LINE: unicode.IsSpace says yes and strings.TrimSpace removes it; JavaScript keeps it"},
	{0x180E, "MONGOLIAN VOWEL SEPARATOR: left Zs in Unicode 6.3"},
	{0x200B, "ZERO WIDTH SPACE: Cf, not Zs"},
	{0x200C, "ZERO WIDTH NON-JOINER: Cf"},
	{0x200D, "ZERO WIDTH JOINER: Cf"},
	{0x2060, "WORD JOINER: Cf"},
	{0x001C, "FILE SEPARATOR: unicode.IsSpace is false too, but Python's str.strip removes it"},
	{0x0000, "NUL"},
	{0xFFFE, "noncharacter, a byte-swapped BOM"},
	{0xFFFD, "REPLACEMENT CHARACTER, what invalid UTF-8 decodes to"},
}

func TestIsJSSpace(t *testing.T) {
	for _, c := range jsWhitespace {
		if !IsJSSpace(c.r) {
			t.Errorf("IsJSSpace(%U) = false, want true: %s", c.r, c.reason)
		}
		s := string(c.r)
		if got := TrimJS(s + "x" + s); got != "x" {
			t.Errorf("TrimJS(%U x %U) = %q, want \"x\": %s", c.r, c.r, got, c.reason)
		}
	}
	for _, c := range notJSWhitespace {
		if IsJSSpace(c.r) {
			t.Errorf("IsJSSpace(%U) = true, want false: %s", c.r, c.reason)
		}
		s := string(c.r)
		if got := TrimJS(s + "x" + s); got != s+"x"+s {
			t.Errorf("TrimJS(%U x %U) = %q, want it unchanged: %s", c.r, c.r, got, c.reason)
		}
	}
}

// TestIsJSSpaceMatchesUnicodeZs checks the set against Go's Unicode tables: every Zs code point,
// the ECMAScript extras, and nothing else. It fails if a Unicode update moves a space.
func TestIsJSSpaceMatchesUnicodeZs(t *testing.T) {
	extra := map[rune]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, 0x2028: true, 0x2029: true, 0xFEFF: true}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.Is(unicode.Zs, r) || extra[r]
		if got := IsJSSpace(r); got != want {
			t.Errorf("IsJSSpace(%U) = %v, want %v (Zs or ECMAScript extra)", r, got, want)
		}
	}
}

func TestTrimJSInvalidUTF8(t *testing.T) {
	for _, tc := range []struct{ in, want, reason string }{
		{"\xff x \xff", "\xff x \xff", "invalid bytes are not whitespace"},
		{" \xff ", "\xff", "blanks around an invalid byte go"},
		{"\xe2\x80", "\xe2\x80", "a truncated U+2028 is not a line terminator"},
		{"\u2028\xe2\x80", "\xe2\x80", "a whole U+2028 before it is"},
		{"", "", "empty stays empty"},
	} {
		if got := TrimJS(tc.in); got != tc.want {
			t.Errorf("TrimJS(%q) = %q, want %q: %s", tc.in, got, tc.want, tc.reason)
		}
	}
}

func TestLineStartAndEnd(t *testing.T) {
	for _, term := range []string{"\n", "\r", "\u2028", "\u2029"} {
		s := "a" + term + "b"
		if !isLineStart(s, len(s)-1) {
			t.Errorf("isLineStart(%q, before b) = false, want true: %q ends a line in JavaScript", s, term)
		}
		if !isLineEnd(s, 1) {
			t.Errorf("isLineEnd(%q, 1) = false, want true: %q ends a line in JavaScript", s, term)
		}
	}
	for _, term := range []string{"\u0085", "\v", "\f", "\u2028"[:2]} {
		s := "a" + term + "b"
		if isLineStart(s, len(s)-1) || isLineEnd(s, 1) {
			t.Errorf("%q is taken as a line terminator; JavaScript's ^ and $ do not", term)
		}
	}
	if !isLineStart("ab", 0) || !isLineEnd("ab", 2) || isLineStart("ab", 1) || isLineEnd("ab", 1) {
		t.Errorf("^ must hold at the start only and $ at the end only of a text without terminators")
	}
}

// TestTrimJSQuickReject holds TrimJS, which returns a text whose ends mayStartJSSpace and
// mayEndJSSpace pass over without decoding, to trimJSRunes for every character at each end
// of a text and alone, and for every truncation of its UTF-8 encoding.
func TestTrimJSQuickReject(t *testing.T) {
	spaces := 0
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if IsJSSpace(r) {
			spaces++
		}
		enc := string(r)
		for n := 1; n <= len(enc); n++ {
			e := enc[:n]
			for _, s := range []string{e, e + "x", "x" + e, e + "x" + e, "\u200b" + e, e + "\u200b"} {
				if got, want := TrimJS(s), trimJSRunes(s); got != want {
					t.Fatalf("TrimJS(%q) = %q, want %q", s, got, want)
				}
			}
		}
	}
	if spaces < 18 {
		t.Fatalf("only %d non-ASCII characters are JavaScript spaces: the test asks no space", spaces)
	}
}

// TestASCIISpace holds asciiSpace to IsJSSpace on every byte: true only for ASCII spaces.
func TestASCIISpace(t *testing.T) {
	for c := range 256 {
		if got, want := asciiSpace(byte(c)), c < utf8.RuneSelf && IsJSSpace(rune(c)); got != want {
			t.Errorf("asciiSpace(%#x) = %v, want %v", c, got, want)
		}
	}
}
