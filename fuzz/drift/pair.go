package drift

import (
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

// Pair is a well-formed answer split into its parts: the analysis text and the summary text,
// both trimmed, with "\n" line ends.
type Pair struct {
	// ID is the corpus case the pair comes from; empty for a pair made by NewPair.
	ID       string
	Analysis string
	Summary  string
}

// markers are the strings a clean pair must not hold: the tags the operators control, and
// every line terminator other than "\n" (the operators own line terminators too).
var markers = []string{"<analysis", "</analysis", "<summary", "</summary", "<example", "</example", "</think", "\r", "\u2028", "\u2029", "\u0085"}

// NewPair returns the pair of analysis and summary, trimmed, and whether it is clean: a
// non-empty summary and no tag or line terminator other than "\n" in either text. Operators
// accept any pair, but the intended judgement is only sound for a clean one.
func NewPair(analysis, summary string) (Pair, bool) {
	p := Pair{Analysis: compact.TrimJS(analysis), Summary: compact.TrimJS(summary)}
	if p.Summary == "" {
		return p, false
	}
	for _, m := range markers {
		if strings.Contains(p.Analysis, m) || strings.Contains(p.Summary, m) {
			return p, false
		}
	}
	return p, true
}

// SplitResponse splits a well-formed response, "<analysis>\n" A "\n</analysis>", blank space,
// "<summary>\n" S "\n</summary>" and optional trailing blank space, into the clean pair (A, S).
// It reports false for any other shape and for a pair that is not clean.
func SplitResponse(response string) (Pair, bool) {
	const (
		open    = "<analysis>\n"
		close   = "\n</analysis>"
		sumOpen = "<summary>\n"
		sumEnd  = "\n</summary>"
	)
	rest, ok := strings.CutPrefix(response, open)
	if !ok {
		return Pair{}, false
	}
	analysis, rest, ok := strings.Cut(rest, close)
	if !ok {
		return Pair{}, false
	}
	rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t\n"), sumOpen)
	if !ok {
		return Pair{}, false
	}
	summary, ok := strings.CutSuffix(strings.TrimRight(rest, " \t\n"), sumEnd)
	if !ok {
		return Pair{}, false
	}
	return NewPair(analysis, summary)
}

// PairsFromCorpus returns the pairs of the cases in category well-formed whose response
// SplitResponse accepts and whose summary is the case's intended one, in case order. Other
// cases are skipped.
func PairsFromCorpus(cases []*corpus.Case) []Pair {
	var pairs []Pair
	for _, c := range cases {
		if !c.HasCategory("well-formed") || !c.Intended.Found {
			continue
		}
		p, ok := SplitResponse(c.Response)
		if !ok || p.Summary != c.Intended.Summary {
			continue
		}
		p.ID = c.ID
		pairs = append(pairs, p)
	}
	return pairs
}
