package compact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// foldPlain is indexFold and lastIndexFold in their plain form: every index compared, the
// bytes lowered as asciiEqualFold does. indexFold's jump from one first byte to the next
// must find what it finds.
func foldPlain(s, sub string, from int, last bool) int {
	lower := func(x string) string {
		b := []byte(x)
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return string(b)
	}
	ls, lsub := lower(s), lower(sub)
	if last {
		for i := len(s) - len(sub); i >= from; i-- {
			if ls[i:i+len(sub)] == lsub {
				return i
			}
		}
		return -1
	}
	for i := from; i+len(sub) <= len(s); i++ {
		if ls[i:i+len(sub)] == lsub {
			return i
		}
	}
	return -1
}

// TestIndexFoldPlain holds indexFold and lastIndexFold to foldPlain from every position of
// generated texts made of the tags' pieces, in both cases, with letters and non-ASCII
// bytes between them, for the tags the profiles search (first byte no letter) and for
// patterns that start with a letter (the plain scan).
func TestIndexFoldPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 24))
	pieces := []string{"<", "[", "/", "summary", "SUMMARY", "Summary", "analysis", "ANALYSIS", ">", "]", "<summary>", "</SUMMARY>", "[/summary]", "s", "S", "\u212a", "é", "\n", " "}
	subs := []string{"<summary>", "</summary>", "<analysis>", "</analysis>", "[/summary]", "summary", "S", "<"}
	for c := 0; c < 3000; c++ {
		var b strings.Builder
		for n := r.IntN(24); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		for _, sub := range subs {
			for from := 0; from <= len(s)+1; from++ {
				if got, want := indexFold(s, sub, from), foldPlain(s, sub, from, false); got != want {
					t.Fatalf("indexFold(%q, %q, %d) = %d, want %d", s, sub, from, got, want)
				}
				if got, want := lastIndexFold(s, sub, from), foldPlain(s, sub, from, true); got != want {
					t.Fatalf("lastIndexFold(%q, %q, %d) = %d, want %d", s, sub, from, got, want)
				}
			}
		}
	}
}
