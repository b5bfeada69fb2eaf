package pipeline

import (
	"testing"
	"unsafe"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/redact"
)

// TestDetachKeepsNoConversation: no text of a detached eval result lies inside the
// memory of its case's conversation or response, so that the results eval keeps for every
// case keep none of the cases alive.
func TestDetachKeepsNoConversation(t *testing.T) {
	c, err := corpus.Open([]string{corpusDir})
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := compact.Lookup("seed")
	opt := eval.Options{Extractor: seed, Redact: redact.String}
	scored, facts := 0, 0
	for _, k := range c.Cases {
		in, ok := eval.FromCase(k)
		if !ok {
			continue
		}
		scored++
		var texts []string
		for _, m := range in.Conversation {
			texts = append(texts, m.Text)
			for _, tc := range m.ToolCalls {
				texts = append(texts, tc.Input)
			}
		}
		texts = append(texts, in.Response)
		res := detach(eval.Score(in, opt))
		var kept []string
		for _, list := range [][]eval.Fact{res.Misattributed, res.Missed, res.Leaked, res.PreviousSummaryLost} {
			for _, f := range list {
				kept = append(kept, f.Text)
			}
		}
		for _, f := range res.BoundaryFacts {
			kept = append(kept, f.Text)
		}
		for _, s := range kept {
			facts++
			if within := inside(s, texts); within {
				t.Fatalf("%s: the detached fact %.40q lies inside the case's texts", k.ID, s)
			}
		}
	}
	if scored == 0 || facts == 0 {
		t.Fatalf("%d cases scored, %d facts checked: the test checks nothing", scored, facts)
	}
}

// inside reports whether s's bytes lie within the memory of one of texts.
func inside(s string, texts []string) bool {
	if s == "" {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	for _, t := range texts {
		if t == "" {
			continue
		}
		start := uintptr(unsafe.Pointer(unsafe.StringData(t)))
		if p >= start && p < start+uintptr(len(t)) {
			return true
		}
	}
	return false
}
