package compact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// plainTagNameOf is tagNameOf's plain definition: the name folded to lower case, then one
// switch and summaryMisspelling.
func plainTagNameOf(s string) (tagName, bool) {
	if len(s) < 5 || len(s) > 8 {
		return 0, false
	}
	switch l := strings.ToLower(s); {
	case l == "summary" || summaryMisspelling(l):
		return nameSummary, true
	case l == "analysis":
		return nameAnalysis, true
	case l == "example":
		return nameExample, true
	case l == "think" || l == "thinking":
		return nameThink, true
	}
	return 0, false
}

// summaryMisspelling reports a tag name one edit away from "summary" that keeps its first
// two letters (sumary, summery, summmary). "summaries" and other words are two or more
// edits away.
func summaryMisspelling(name string) bool {
	const want = "summary"
	if len(name) < len(want)-1 || len(name) > len(want)+1 || name == want || !strings.HasPrefix(name, "su") {
		return false
	}
	a, b := name, want
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

// oneEdit returns every string one deletion, substitution or insertion of a letter of
// letters away from s.
func oneEdit(s, letters string) []string {
	var out []string
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			out = append(out, s[:i]+s[i+1:])
		}
		for _, c := range letters {
			out = append(out, s[:i]+string(c)+s[i:])
			if i < len(s) {
				out = append(out, s[:i]+string(c)+s[i+1:])
			}
		}
	}
	return out
}

// TestTagNameOfPlain holds tagNameOf to plainTagNameOf on the names, every name one or two
// edits from them, in random letter case, and random runs of letters.
func TestTagNameOfPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 1))
	const letters = "abcdeghiklmnorstuyzAMSUY"
	var names []string
	for _, n := range []string{"summary", "analysis", "example", "think", "thinking", "su", "sum"} {
		names = append(names, n)
		for _, e := range oneEdit(n, letters) {
			names = append(names, e)
			names = append(names, oneEdit(e, "asuymz")...)
		}
	}
	for range 20000 {
		b := make([]byte, r.IntN(10))
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		names = append(names, string(b))
	}
	matched := 0
	for _, n := range names {
		for _, s := range []string{n, strings.ToUpper(n), randomCase(r, n)} {
			got, gotOK := tagNameOf(s)
			want, wantOK := plainTagNameOf(s)
			if got != want || gotOK != wantOK {
				t.Fatalf("tagNameOf(%q) = %d, %v, want %d, %v", s, got, gotOK, want, wantOK)
			}
			if gotOK {
				matched++
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d of the names are tags: the test asks too few", matched)
	}
}

func randomCase(r *rand.Rand, s string) string {
	b := []byte(s)
	for i := range b {
		if r.IntN(2) == 0 {
			b[i] ^= 0x20
		}
	}
	return string(b)
}

// TestNextTagStartAsMayStartTag holds nextTagStart, which passes a '<' before asking
// mayStartTag where the next byte alone decides (tagStartByte, a letter, closerNameStart), to
// mayStartTag itself: on "<" and every three bytes of those a tag's start is made of, and
// after them and before them bytes that put the '<' past the six read by hand. It fails
// with 'd' taken after "</".
func TestNextTagStartAsMayStartTag(t *testing.T) {
	alphabet := "/ \tsSaAtTeEdDxX<>\n"
	for _, pre := range []string{"", "x", "xxx", "xxxx", "xxxxx", "xxxxxx", "xxxxxxxxxxxxxxxxxx"} {
		for _, a := range alphabet {
			for _, b := range alphabet {
				for _, c := range alphabet {
					text := pre + "<" + string(a) + string(b) + string(c)
					want := -1
					for i := range len(text) {
						if text[i] == '<' && mayStartTag(text, i) {
							want = i
							break
						}
					}
					if got := nextTagStart(text, 0); got != want {
						t.Errorf("nextTagStart(%q, 0) = %d, want %d (the first '<' mayStartTag accepts)", text, got, want)
					}
				}
			}
		}
	}
}
