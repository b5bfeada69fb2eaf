package eval

import "math"

// SchemaVersion is the version of the Report JSON document. Adding a field keeps it; a
// change that breaks readers (a renamed or removed field, a new meaning) bumps it.
const SchemaVersion = 1

// Report is the JSON document compacteval score -json writes, for reports and gates.
type Report struct {
	SchemaVersion int `json:"schema_version"`
	// Extractor names the profile run on responses; inputs that came with their summary
	// (sessions) say "given" in their path instead.
	Extractor string `json:"extractor"`
	// KeepTokens and BoundaryWindow are the options in force (0: the default rule).
	KeepTokens     int      `json:"keep_tokens"`
	BoundaryWindow int      `json:"boundary_window"`
	Sources        []Source `json:"sources"`
	Cases          []Result `json:"cases"`
	Totals         Totals   `json:"totals"`
}

// Source is one path the inputs were read from.
type Source struct {
	Path   string `json:"path"`
	Format string `json:"format"`
	// Cases counts the inputs read; Skipped the corpus cases without a conversation.
	Cases   int    `json:"cases"`
	Skipped int    `json:"skipped,omitempty"`
	Stats   *Stats `json:"stats,omitempty"`
}

// NewReport returns the report of results scored with opt; the caller fills Sources.
func NewReport(results []Result, opt Options) Report {
	if results == nil {
		results = []Result{}
	}
	return Report{
		SchemaVersion:  SchemaVersion,
		Extractor:      opt.extractor().Name,
		KeepTokens:     opt.keepTokens(),
		BoundaryWindow: opt.BoundaryWindow,
		Sources:        []Source{},
		Cases:          results,
		Totals:         Total(results),
	}
}

// Aggregate is a share over many cases.
type Aggregate struct {
	// Cases counts the cases with a value; Mean is the mean of their values (four
	// decimals), nil when there is none; Pooled adds up their hits and counts.
	Cases  int      `json:"cases"`
	Mean   *float64 `json:"mean"`
	Pooled Share    `json:"pooled"`

	sum float64
}

func (a *Aggregate) add(s Share) {
	v, ok := s.Value()
	if !ok {
		return
	}
	a.Cases++
	a.sum += v
	a.Pooled.Hit += s.Hit
	a.Pooled.Of += s.Of
	m := math.Round(a.sum/float64(a.Cases)*1e4) / 1e4
	a.Mean = &m
}

// Totals sums the results of a report.
type Totals struct {
	Cases        int `json:"cases"`
	SummaryFound int `json:"summary_found"`
	// NotEnoughToJudge counts the cases with too few facts to judge
	// (Result.NotEnoughToJudge); their coverage and boundary coverage are left out of the
	// aggregates below, as their score is.
	NotEnoughToJudge int `json:"not_enough_to_judge"`

	// Score is the mean of the cases' headline scores: the run's headline score.
	Score Mean `json:"score"`

	Coverage                Aggregate `json:"coverage"`
	BoundaryCoverage        Aggregate `json:"boundary_coverage"`
	TailLeakage             Aggregate `json:"tail_leakage"`
	UserMessages            Aggregate `json:"user_messages"`
	ConstraintsVerbatim     Aggregate `json:"constraints_verbatim"`
	PreviousSummarySurvival Aggregate `json:"previous_summary_survival"`
	Copied                  Aggregate `json:"copied"`
	// WeightedCoverage and WeightedBoundaryCoverage are the means of the cases' weighted
	// measures (Result.WeightedCoverage), cases not enough to judge left out.
	WeightedCoverage         Mean `json:"weighted_coverage"`
	WeightedBoundaryCoverage Mean `json:"weighted_boundary_coverage"`

	FakeUserTurns int `json:"fake_user_turns"`
	Misattributed int `json:"misattributed"`
	// SectionsComplete counts the summaries with all nine sections in order.
	SectionsComplete int `json:"sections_complete"`
	BoundaryComputed int `json:"boundary_computed"`
	SummaryTokens    int `json:"summary_tokens"`
	SummarizedTokens int `json:"summarized_tokens"`
	// SecretsLeaked counts the cases whose summary carries a secret of the conversation;
	// Formats the cases per summary format recognised.
	SecretsLeaked int            `json:"secrets_leaked"`
	Formats       map[string]int `json:"formats"`
}

// Mean is the mean of numbers over many cases: Cases counts those with a value, Mean is
// nil when there is none (four decimals).
type Mean struct {
	Cases int      `json:"cases"`
	Mean  *float64 `json:"mean"`

	sum float64
}

func (m *Mean) add(v *float64) {
	if v == nil {
		return
	}
	m.Cases++
	m.sum += *v
	x := math.Round(m.sum/float64(m.Cases)*1e4) / 1e4
	m.Mean = &x
}

func (m *Mean) addWeighted(w Weighted) {
	if v, ok := w.Value(); ok {
		m.add(&v)
	}
}

// Total returns the totals of results.
func Total(results []Result) Totals {
	t := Totals{Formats: map[string]int{}}
	for i := range results {
		t.Add(&results[i])
	}
	return t
}

// Add adds r to the totals, as Total would have counted it among its results: a caller
// that does not hold its results totals them as they come.
func (t *Totals) Add(r *Result) {
	if t.Formats == nil {
		t.Formats = map[string]int{}
	}
	t.Cases++
	t.Score.add(r.Score)
	t.Copied.add(r.Copied)
	if r.SecretsLeaked > 0 {
		t.SecretsLeaked++
	}
	if r.Format != "" {
		t.Formats[r.Format]++
	}
	if r.Found {
		t.SummaryFound++
	}
	if r.NotEnoughToJudge {
		t.NotEnoughToJudge++
	} else {
		t.Coverage.add(r.Coverage)
		t.BoundaryCoverage.add(r.BoundaryCoverage)
		t.WeightedCoverage.addWeighted(r.WeightedCoverage)
		t.WeightedBoundaryCoverage.addWeighted(r.WeightedBoundaryCoverage)
	}
	t.TailLeakage.add(r.TailLeakage)
	t.UserMessages.add(r.UserMessages)
	t.ConstraintsVerbatim.add(r.ConstraintsVerbatim)
	if r.PreviousSummarySurvival != nil {
		t.PreviousSummarySurvival.add(*r.PreviousSummarySurvival)
	}
	t.FakeUserTurns += r.FakeUserTurns
	t.Misattributed += len(r.Misattributed)
	if r.Sections.Complete() {
		t.SectionsComplete++
	}
	if r.BoundaryComputed {
		t.BoundaryComputed++
	}
	t.SummaryTokens += r.SummaryTokens
	t.SummarizedTokens += r.SummarizedTokens
}
