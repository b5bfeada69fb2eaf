package drift

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/compacteval/compacteval/compact"
)

// eachLineByBytes is eachLine a byte at a time: the definition its searches are held to.
func eachLineByBytes(s string, f func(string)) {
	emit := func(l string) {
		if l = compact.TrimJS(l); l != "" {
			f(l)
		}
	}
	start := 0
	for i := 0; i < len(s); {
		n := compact.TerminatorLen(s, i)
		if n == 0 {
			i++
			continue
		}
		emit(s[start:i])
		i += n
		start = i
	}
	emit(s[start:])
}

// TestEachLine holds eachLine to eachLineByBytes on random texts of every terminator, the
// bytes that begin one without being one, and parts of them cut short.
func TestEachLine(t *testing.T) {
	pieces := []string{"a", "line", " ", "\t", "\n", "\r", "\r\n", "\n\r", "\u2028", "\u2029", "\u0085",
		"\xc2", "\xe2", "\xe2\x80", "\xe2\x80\xa7", "\u2014", "\u00a0", "\u00e9", "\u00c2", "\xc2\xc2\x85", "\xe2\xe2\x80\xa8", "\ufeff"}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		var s []byte
		for range rng.IntN(30) {
			s = append(s, pieces[rng.IntN(len(pieces))]...)
		}
		var got, want []string
		eachLine(string(s), func(l string) { got = append(got, l) })
		eachLineByBytes(string(s), func(l string) { want = append(want, l) })
		if !slices.Equal(got, want) {
			t.Fatalf("eachLine(%q) = %q, want %q", s, got, want)
		}
	}
}
