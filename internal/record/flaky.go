package record

import (
	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/redact"
)

// Variation is how much the answers recorded for one input differ: measured flakiness.
type Variation struct {
	// Source is the id of the case whose conversation was sent.
	Source string `json:"source"`
	// Models lists the models that answered, in first-seen order.
	Models            []string `json:"models"`
	Samples           int      `json:"samples"`
	DistinctResponses int      `json:"distinct_responses"`
	Truncated         int      `json:"truncated"`
	// Empty counts answers with no text (blank, or thinking only).
	Empty      int                  `json:"empty"`
	Extractors []ExtractorVariation `json:"extractors"`
}

// ExtractorVariation is how one extractor's results vary over the samples of an input.
type ExtractorVariation struct {
	Extractor string `json:"extractor"`
	// Distinct counts the different results (found or not, and the summary text).
	Distinct int `json:"distinct_extractions"`
	Found    int `json:"found"`
	NotFound int `json:"not_found"`
	// Coverage and BoundaryCoverage are the ranges of eval's scores of the extracted
	// summaries.
	Coverage         Spread `json:"coverage"`
	BoundaryCoverage Spread `json:"boundary_coverage"`
}

// Spread is the range of a score over samples. Min and Max are nil when no sample had a
// defined score (nothing to count, as eval.Share says).
type Spread struct {
	Min *float64 `json:"min"`
	Max *float64 `json:"max"`
}

func (s *Spread) add(share eval.Share) {
	v, ok := share.Value()
	if !ok {
		return
	}
	if s.Min == nil || v < *s.Min {
		s.Min = &v
	}
	if s.Max == nil || v > *s.Max {
		s.Max = &v
	}
}

// Width returns Max - Min, and false when the spread is undefined.
func (s Spread) Width() (float64, bool) {
	if s.Min == nil {
		return 0, false
	}
	return *s.Max - *s.Min, true
}

// Measure groups recorded cases by the case they derive from and measures, per group,
// how the answers and each extractor's results and scores differ. Groups come in the
// order their first case does; extractors in compact.Extractors order.
func Measure(cases []*corpus.Case, extractors []compact.Extractor) []Variation {
	var order []string
	groups := map[string][]*corpus.Case{}
	for _, c := range cases {
		src := c.Origin.DerivedFrom
		if _, ok := groups[src]; !ok {
			order = append(order, src)
		}
		groups[src] = append(groups[src], c)
	}
	out := make([]Variation, 0, len(order))
	for _, src := range order {
		out = append(out, measure(src, groups[src], extractors))
	}
	return out
}

func measure(src string, cases []*corpus.Case, extractors []compact.Extractor) Variation {
	v := Variation{Source: src, Samples: len(cases), Models: []string{}}
	responses := map[string]bool{}
	models := map[string]bool{}
	for _, c := range cases {
		responses[c.Response] = true
		if !models[c.Origin.Model] {
			models[c.Origin.Model] = true
			v.Models = append(v.Models, c.Origin.Model)
		}
		if c.Origin.Truncated {
			v.Truncated++
		}
		if compact.TrimJS(c.Response) == "" {
			v.Empty++
		}
	}
	v.DistinctResponses = len(responses)
	for _, ex := range extractors {
		ev := ExtractorVariation{Extractor: ex.Name}
		seen := map[compact.Extraction]bool{}
		for _, c := range cases {
			got := ex.Extract(c.Response)
			seen[compact.Extraction{Summary: got.Summary, OK: got.OK}] = true
			if got.OK {
				ev.Found++
			} else {
				ev.NotFound++
			}
			in, ok := eval.FromCase(c)
			if !ok {
				continue
			}
			r := eval.Score(in, eval.Options{Extractor: ex, Redact: redact.String})
			ev.Coverage.add(r.Coverage)
			ev.BoundaryCoverage.add(r.BoundaryCoverage)
		}
		ev.Distinct = len(seen)
		v.Extractors = append(v.Extractors, ev)
	}
	return v
}
