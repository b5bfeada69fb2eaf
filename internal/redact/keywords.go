package redact

import (
	"fmt"
	"slices"
	"strings"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
)

// keywordSet finds the keywords of a set of rules in a text in one pass (Aho-Corasick, the
// automaton gitleaks' own detector uses for the same prefilter): a rule names its keywords
// by number, and runs only around the ones the text holds. Searching each rule's keywords
// in turn was most of the time of a short message: gitleaks' 217 rules have 241 keywords.
type keywordSet struct {
	trie  *ahocorasick.Trie
	words []string // by number
}

// newKeywordSet numbers the keywords of every rule (each a lowercase list, in rule order)
// and builds the automaton: ids[i] are the numbers of rules[i]'s keywords. A keyword may not
// hold a line end (a window is made of whole lines around it).
func newKeywordSet(rules [][]string) (set *keywordSet, ids [][]int) {
	set = &keywordSet{}
	number := map[string]int{}
	ids = make([][]int, len(rules))
	for i, kws := range rules {
		for _, k := range kws {
			if k == "" || strings.ContainsAny(k, "\r\n") || k != lowerASCII(k) {
				panic(fmt.Sprintf("redact: keyword %q is empty, spans lines or is not lowercase", k))
			}
			n, ok := number[k]
			if !ok {
				n = len(set.words)
				number[k] = n
				set.words = append(set.words, k)
			}
			ids[i] = append(ids[i], n)
		}
	}
	set.trie = ahocorasick.NewTrieBuilder().AddStrings(set.words).Build()
	return set, ids
}

// hit is one keyword found: its number and where it starts.
type hit struct{ word, pos int }

// found is where the keywords of a set are in one text.
type found struct {
	hits []hit  // in the order of their ends
	has  []bool // by keyword number; nil when the text holds none
	text string // the lowercase text searched
	set  *keywordSet
}

// find returns every occurrence of every keyword in lower (ASCII lowercase), overlapping
// ones included.
func (k *keywordSet) find(lower string) *found {
	f := &found{text: lower, set: k}
	k.trie.Walk([]byte(lower), func(end, n, word int64) bool {
		if f.has == nil {
			f.has = make([]bool, len(k.words))
		}
		f.hits = append(f.hits, hit{word: int(word), pos: int(end - n + 1)})
		f.has[word] = true
		return true
	})
	return f
}

// holds reports whether the text holds one of the keywords ids; no ids means always.
func (f *found) holds(ids []int) bool {
	if len(ids) == 0 {
		return true
	}
	if f.has == nil {
		return false
	}
	for _, id := range ids {
		if f.has[id] {
			return true
		}
	}
	return false
}

// windows returns the merged byte ranges of the text around each occurrence of the keywords
// ids: the lines that hold one and windowLines on each side. They are the ranges
// windowsOf returns for the same keywords: an occurrence that windowsOf's search steps over
// (it overlaps the one before) lies on the same line, so it adds no range.
func (f *found) windows(ids []int) [][2]int {
	var ws [][2]int
	for _, h := range f.hits {
		if slices.Contains(ids, h.word) {
			k := f.set.words[h.word]
			ws = append(ws, [2]int{linesBack(f.text, h.pos, windowLines), linesForward(f.text, h.pos+len(k), windowLines)})
		}
	}
	return mergeWindows(ws)
}

// mergeWindows sorts ws by start and joins those that overlap or touch.
func mergeWindows(ws [][2]int) [][2]int {
	if len(ws) == 0 {
		return nil
	}
	slices.SortFunc(ws, func(a, b [2]int) int { return a[0] - b[0] })
	out := ws[:1]
	for _, w := range ws[1:] {
		last := &out[len(out)-1]
		if w[0] <= last[1] {
			last[1] = max(last[1], w[1])
			continue
		}
		out = append(out, w)
	}
	return out
}
