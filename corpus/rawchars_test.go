package corpus

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"unicode"
	"unicode/utf8"
)

// rawCharsByRune is rawChars as FORMAT.md states it, a rune at a time: the definition its
// ASCII fast path is held to.
func rawCharsByRune(p *parser, data []byte) {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			p.add(line, col, "invalid UTF-8 byte 0x%02x", data[i])
		case r == '\n':
			line, col = line+1, 0
		case r == '\t' || r == ' ':
		case unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zs, unicode.Zl, unicode.Zp, unicode.Co, unicode.Cs) || r == 0xFFFE || r == 0xFFFF:
			p.add(line, col, "raw %U in the file: write it as an escape in a double-quoted scalar (%s)", r, strconv.QuoteRune(r))
		}
		i += size
		col++
	}
}

// TestRawCharsFastPath: every ASCII byte alone and in random files of ASCII, other runes
// and broken UTF-8 gets the problems, lines and columns of the rune-at-a-time definition.
func TestRawCharsFastPath(t *testing.T) {
	var inputs [][]byte
	for c := 0; c < utf8.RuneSelf; c++ {
		inputs = append(inputs, []byte{'a', byte(c), 'b', '\n', byte(c)})
	}
	pieces := []string{"a", " ", "\t", "\n", "\r", "\x00", "\x1f", "\x7f", "é", "\u00a0", "\u200b", "\u2028", "\ufeff", "\xff", "\xe2\x80", "\U0001F600", "\ufffe"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		var b []byte
		for range rng.IntN(40) {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		inputs = append(inputs, b)
	}
	for _, in := range inputs {
		fast, slow := &parser{file: "f.yaml"}, &parser{file: "f.yaml"}
		fast.rawChars(in)
		rawCharsByRune(slow, in)
		if !slices.Equal(fast.problems, slow.problems) {
			t.Fatalf("rawChars(%q) = %v, want %v", in, fast.problems, slow.problems)
		}
	}
}
