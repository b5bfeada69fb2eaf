// Package abtest compares two versions of the compaction prompt by what a model writes
// with each: compacteval review with a model in the loop.
//
// Every input (a compaction point of a session, or an eval case with a conversation) is
// sent to the model once per side and sample, each side with its own instruction (its
// module's buildCompactionInstruction, kept-tail note included); each side's extractor takes
// the summary out of its answers and eval scores both against the same conversation and
// kept tail. Per input, the paired difference of each measure is head's mean over samples
// minus base's; over inputs, the mean difference has a paired Student-t 95% interval and
// a verdict (stats.go).
//
// The calls go through internal/record: the replay cache (keyed by model, parameters,
// messages and instruction), -offline, batches, and the answers written as cases with
// their origin recorded.
package abtest

import (
	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
)

// SchemaVersion is the version of the Result JSON document. 2: facts are objects with
// their weight, samples list their boundary facts, inputs not scored are listed.
const SchemaVersion = 2

// Side is one version of the prompt and the extractor.
type Side struct {
	// Name is base or head; Desc says what it is (the module file).
	Name string
	Desc string
	// Prompt builds the instruction sent after the conversation.
	Prompt func(compact.Options) (string, error)
	// Extract takes the summaries out of answers, in order.
	Extract func(texts []string) ([]compact.Extraction, error)
}

// Input is one conversation both sides summarize.
type Input struct {
	// Case holds what is sent: its conversation, kept tail and id (its first category
	// names the folder the recorded cases go to).
	Case *corpus.Case
	// Eval is what is scored against: the same conversation, the cut, probes and a
	// previous summary. Its Response and Summary are set per answer.
	Eval eval.Input
}

// Measures, in the order the tables show them. SummaryTokens is a found summary's length
// (pi's estimate: UTF-16 code units / 4) and Compression that over the length of what it
// replaces (the messages before the kept tail, and an earlier summary).
const (
	MeasureScore         = "score"
	MeasureCoverage      = "coverage"
	MeasureBoundary      = "boundary_coverage"
	MeasureLeakage       = "tail_leakage"
	MeasureLost          = "summary_lost"
	MeasureSummaryTokens = "summary_tokens"
	MeasureCompression   = "compression_ratio"
)

// Measures lists every measure.
var Measures = []string{MeasureScore, MeasureCoverage, MeasureBoundary, MeasureLeakage, MeasureLost, MeasureSummaryTokens, MeasureCompression}

// lowerIsBetter reports whether a fall of the measure is an improvement.
func lowerIsBetter(m string) bool { return m == MeasureLeakage || m == MeasureLost }

// isLength reports whether the measure is a length: neither better nor worse by itself,
// its verdict is longer or shorter.
func isLength(m string) bool { return m == MeasureSummaryTokens || m == MeasureCompression }

// Verdicts: better, worse or no difference; a length's is longer, shorter or no
// difference.
const (
	Better       = "better"
	Worse        = "worse"
	NoDifference = "no difference"
	// NotComparable is boundary coverage's verdict when eval cannot tell the recent
	// part of one side's summaries: it neither fails nor passes the run.
	NotComparable = "not comparable"
	Longer        = "longer"
	Shorter       = "shorter"
)

// Result is the A/B document. Lists are never nil.
type Result struct {
	SchemaVersion int    `json:"schema_version"`
	Provider      string `json:"provider"`
	Model         string `json:"model"`
	Samples       int    `json:"samples"`
	// Base and Head describe the sides.
	Base SideInfo `json:"base"`
	Head SideInfo `json:"head"`
	// Verdict is the headline score's verdict; MinDelta the fall the run tolerates.
	Verdict  Verdict `json:"verdict"`
	MinDelta float64 `json:"min_delta"`
	// Measures holds every measure's comparison, in Measures order.
	Measures []Comparison `json:"measures"`
	// Inputs holds every input scored, with every sample of both sides; Unscorable the
	// inputs left out, each with the reason.
	Inputs     []InputResult `json:"inputs"`
	Unscorable []Unscorable  `json:"unscorable"`
	// Lost lists the samples whose summary the extractor did not find, base then head;
	// HeadOnlyLost those head lost and base kept from the same answer (the same input,
	// sample and request: an extractor-only change). LostTest compares the rates lost
	// where the requests differ; nil when they never do.
	Lost         []Lost    `json:"lost"`
	HeadOnlyLost []Lost    `json:"head_only_lost"`
	LostTest     *LostTest `json:"lost_test"`
	// AllowedHeadLost is how many of HeadOnlyLost the run tolerates, and how many more
	// than base head may lose where the requests differ.
	AllowedHeadLost int `json:"allowed_head_lost"`
	// BoundaryComparable reports whether eval can tell the recent part of both sides'
	// summaries from their instructions (eval.Outline.Recent); when it cannot, boundary
	// coverage is counted on neither side, in its measure or in the score.
	BoundaryComparable bool `json:"boundary_comparable"`
	// Notes say how the sides' summaries were read where it is not by the titles eval
	// knows: a section read by its number, boundary coverage not comparable.
	Notes []string `json:"notes"`
	// MaxSummaryTokens is the most summary tokens head's summaries may average; 0 for
	// no limit.
	MaxSummaryTokens int `json:"max_summary_tokens"`
	// Spent is what this run spent: the calls it made and their cost, apart from the
	// recorded cost of the answers it reads (SideInfo.Cost). It is in the JSON only, so
	// that the Markdown and HTML of an -offline replay are the online run's, byte for byte.
	Spent *Spent `json:"spent"`
	// Failures say why the run fails; empty when it passes.
	Failures []string `json:"failures"`
}

// Passed reports whether the run found nothing that fails it.
func (r *Result) Passed() bool { return len(r.Failures) == 0 }

// SideInfo is one side's description and what its calls used.
type SideInfo struct {
	Desc string `json:"desc"`
	// Calls is the number of answers; TokensIn and TokensOut what the provider counted
	// for them (recorded in the cases, so a replay reports the same); Cost what they cost
	// at the price given, nil when no price is known.
	Calls     int      `json:"calls"`
	TokensIn  int      `json:"tokens_in"`
	TokensOut int      `json:"tokens_out"`
	Cost      *float64 `json:"cost_usd"`
	// Outline is the sections the side's instruction asks for, as eval reads its
	// summaries by them; nil when it numbers none (its summaries are read by the titles
	// eval knows).
	Outline *eval.Outline `json:"outline"`
	// Found counts the summaries the extractor found; Fallback those of them that no
	// block of a tag the instruction names holds (SampleResult.Fallback).
	Found    int `json:"summaries_found"`
	Fallback int `json:"summaries_by_fallback"`
	// Tags are the tags the side's instruction asks the summary to be written in: summary
	// (the seed's), else every tag it names with its closing form.
	Tags []string `json:"instruction_tags"`
}

// Verdict is a measure's verdict with its uncertainty.
type Verdict struct {
	Measure string `json:"measure"`
	// Verdict is better, worse or no difference (this run cannot tell one); longer or
	// shorter for a length.
	Verdict string `json:"verdict"`
	// Mean is the mean paired difference, head minus base; Low and High its paired
	// Student-t 95% interval. N is the number of inputs paired.
	Mean float64 `json:"mean"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	N    int     `json:"n"`
	// Detectable is the smallest difference this run would detect (95% interval, 80%
	// power, the standard error estimated) at this number of inputs and samples; nil
	// with fewer than two inputs.
	Detectable *float64 `json:"detectable"`
}

// Comparison is one measure: both sides' means and the verdict on their difference.
type Comparison struct {
	Verdict
	Base *float64 `json:"base"`
	Head *float64 `json:"head"`
}

// InputResult is one input: every sample of both sides and the paired differences.
type InputResult struct {
	ID     string         `json:"id"`
	Source string         `json:"source,omitempty"`
	Base   []SampleResult `json:"base"`
	Head   []SampleResult `json:"head"`
	// Delta is head's mean minus base's per measure; a measure with nothing to count on a
	// side has none.
	Delta map[string]float64 `json:"delta"`
}

// SampleResult is one answer of one side, scored.
type SampleResult struct {
	Sample int `json:"sample"`
	// Case is the id of the recorded case that holds the answer.
	Case string `json:"case"`
	// InstructionSHA256 is the hash of the instruction sent.
	InstructionSHA256 string `json:"instruction_sha256"`
	Found             bool   `json:"summary_found"`
	Summary           string `json:"summary"`
	// Values holds the measures; one with nothing to count is absent. A lost summary
	// scores 0.
	Values map[string]float64 `json:"values"`
	// Fallback is set when the summary was found, but in no block of a tag the side's
	// instruction names (<summary>...</summary>): the extractor's fallback took it.
	Fallback bool `json:"fallback,omitempty"`
	// Missed and Leaked are the facts eval found missing and re-told; Boundary every fact
	// of the boundary window, with whether the summary's recent part holds it.
	Missed    []Fact         `json:"missed"`
	Leaked    []Fact         `json:"leaked"`
	Boundary  []BoundaryFact `json:"boundary_facts"`
	TokensIn  int            `json:"tokens_in"`
	TokensOut int            `json:"tokens_out"`
}

// Fact is a fact of the conversation that eval looks for in a summary. Weight is how much
// it counts in the headline score (eval.Fact.Weight); 0 for a fact not counted so.
type Fact struct {
	Kind   string  `json:"kind"`
	Text   string  `json:"text"`
	Weight float64 `json:"weight,omitempty"`
}

// BoundaryFact is a fact of the boundary window and whether the summary's recent part
// holds it.
type BoundaryFact struct {
	Fact
	Held bool `json:"held"`
}

// Lost is a sample whose summary was not found.
type Lost struct {
	Side   string `json:"side"`
	Input  string `json:"input"`
	Sample int    `json:"sample"`
	Case   string `json:"case"`
}
