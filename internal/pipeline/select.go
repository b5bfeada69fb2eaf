package pipeline

import (
	"fmt"
	"strings"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/textdiff"
	"github.com/compacteval/compacteval/report"
)

// selectCases keeps the entries sel matches and records the selection in the report; a
// category no case has, or a selection of nothing, is an error.
func selectCases(r *report.Report, sel report.Selection, entries []corpus.Entry) ([]corpus.Entry, error) {
	match, err := sel.Matcher()
	if err != nil {
		return nil, err
	}
	var picked []corpus.Entry
	for _, e := range entries {
		if match(e.ID, e.Categories) {
			picked = append(picked, e)
		}
	}
	if why := unknownCategories(sel.Categories, entries); why != "" {
		return nil, fmt.Errorf("-category: %s in %s", why, r.Corpus.Dir) // a typo would shrink the selection unseen
	}
	if len(picked) == 0 {
		return nil, fmt.Errorf("the selection (%s) matches none of the %d cases in %s", sel.Criteria(), len(entries), r.Corpus.Dir)
	}
	sel.Cases, sel.Of = len(picked), len(entries)
	r.Selection = &sel
	return picked, nil
}

// unknownCategories says which of want no case has, each with the closest category a case
// has (within two edits), or returns "".
func unknownCategories(want []string, entries []corpus.Entry) string {
	have := map[string]bool{}
	for _, c := range entries {
		for _, cat := range c.Categories {
			have[cat] = true
		}
	}
	var why []string
	for _, w := range want {
		if have[w] {
			continue
		}
		best, bestD := "", 3
		for cat := range have {
			if d := textdiff.EditDistance(w, cat); d < bestD || d == bestD && cat < best {
				best, bestD = cat, d
			}
		}
		if best != "" {
			why = append(why, fmt.Sprintf("no case has category %s (did you mean %s?)", w, best))
		} else {
			why = append(why, "no case has category "+w)
		}
	}
	return strings.Join(why, "; ")
}
