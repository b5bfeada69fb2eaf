// Package review compares two versions of the compaction module, or of compacteval's own
// extractors, for the reviewer of a change: the instruction text and every rendered
// instruction word by word, each extractor's output on every corpus case, the drift matrix
// and the eval scores.
//
// A version is a process that answers the reference protocol (docs/protocol.md): compacteval
// pipe built at a git revision, a TypeScript or JavaScript module bundled by esbuild and run
// under Node, or a user's command (internal/extractor starts them). An instruction text alone
// can stand for a version too; it is rendered with compact.BuildInstructionWith. Both versions
// run through internal/pipeline on the same corpus and are compared with gate.Check, so a
// review shows what the code change does to the same data, judged as the gate judges it.
package review

import (
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/gate"
	"github.com/compacteval/compacteval/report"
)

// SchemaVersion is the version of the Review JSON document. Adding a field keeps it; a
// change that breaks readers bumps it.
const SchemaVersion = 1

// Directions of a case whose output changed.
const (
	Toward  = "toward"  // base deviated from intended, head returns it
	Away    = "away"    // base returned intended, head deviates
	Neither = "neither" // both deviate, differently
)

// Review is what changed from base to head. Lists are never nil, so that JSON has [] for
// none.
type Review struct {
	SchemaVersion int      `json:"schema_version"`
	Base          *Version `json:"base"`
	Head          *Version `json:"head"`
	Corpus        Corpus   `json:"corpus"`

	// Instruction is the instruction text itself (COMPACTION_INSTRUCTION); Renders are the
	// messages built around it, for every reason with and without custom instructions and a
	// kept tail, and the stored continuation summary.
	Instruction TextChange   `json:"instruction"`
	Renders     []TextChange `json:"renders"`

	// Extractors compares each profile both versions have; Absent names those only one has.
	Extractors []ExtractorChange `json:"extractors"`
	Absent     []Absent          `json:"absent_profiles"`
	Drift      *DriftChange      `json:"drift"`
	Eval       *EvalChange       `json:"eval"`

	// EvalCode compares the eval/ folders of base and head when both are git revisions;
	// nil otherwise.
	EvalCode *EvalCode `json:"eval_code"`

	// Notes are what a stage could not compare, and why.
	Notes []string `json:"notes"`
	// Regressions are the changes that fail the review, as gate.Check finds them between
	// the base and head reports: a case moved away from intended, or a score that fell
	// (or, for tail leakage, rose) further than the gate config allows. Checks counts the
	// comparisons made.
	Regressions []gate.Regression `json:"regressions"`
	Checks      int               `json:"checks"`

	// Reports are the base and head reports the review compares; not part of the JSON.
	Reports [2]*report.Report `json:"-"`
}

// Passed reports whether nothing regressed.
func (r *Review) Passed() bool { return len(r.Regressions) == 0 }

// EvalCode is the eval/ folder of two git revisions. A review scores the summaries of
// both sides in its own process, with the eval package of the compacteval that runs it
// (normally head's), never each side with its own: when eval/ differs, a change to the
// scorer itself does not show in the eval scores, and Note says so.
type EvalCode struct {
	// BaseTree and HeadTree are the git tree hashes of eval/ at each commit; "" for a
	// commit without it.
	BaseTree string `json:"base_tree"`
	HeadTree string `json:"head_tree"`
	Differs  bool   `json:"differs"`
	// Note is the sentence the renderings show when Differs (no final period).
	Note string `json:"note,omitempty"`
}

// Corpus describes the cases both versions ran on.
type Corpus struct {
	Dir       string `json:"dir"`
	Cases     int    `json:"cases"`
	EvalCases int    `json:"eval_cases"`
	Pairs     int    `json:"drift_pairs"`
}

// TextChange is one text of both versions and their word diff.
type TextChange struct {
	// Name says which text: "instruction", or the render's reason and options.
	Name string `json:"name"`
	// BaseOK and HeadOK report whether the version has the text; Note says why not.
	BaseOK  bool   `json:"base_ok"`
	HeadOK  bool   `json:"head_ok"`
	Note    string `json:"note,omitempty"`
	Changed bool   `json:"changed"`
	// Diff is the word diff, "=" runs included, so that both texts can be rebuilt from it;
	// empty when the text did not change or a side lacks it.
	Diff []Edit `json:"diff"`

	base, head string
}

// ExtractorChange is one extractor profile's output on every corpus case, base and head.
type ExtractorChange struct {
	Name string `json:"name"`
	// Cases counts the cases run; BaseIntended and HeadIntended those returning the
	// intended result.
	Cases        int `json:"cases"`
	BaseIntended int `json:"base_intended"`
	HeadIntended int `json:"head_intended"`
	// Changed counts the cases whose output changed, Toward, Away and Neither by direction.
	Changed int `json:"changed"`
	Toward  int `json:"toward"`
	Away    int `json:"away"`
	Neither int `json:"neither"`
	// AllowedAway is how many cases may move away (the gate's allowed_drop.intended_cases).
	AllowedAway int `json:"allowed_away"`
	// Categories holds the changed cases by category, in corpus order.
	Categories []CategoryChange `json:"categories"`
}

// CategoryChange holds the changed cases of one category (a case's folder).
type CategoryChange struct {
	Category string       `json:"category"`
	Cases    []CaseChange `json:"cases"`
}

// CaseChange is a case whose output changed.
type CaseChange struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Categories []string `json:"categories"`
	Direction  string   `json:"direction"`
	Intended   Output   `json:"intended"`
	Base       Output   `json:"base"`
	Head       Output   `json:"head"`
}

// Output is a summary, or none found.
type Output struct {
	Found   bool   `json:"found"`
	Summary string `json:"summary"`
}

// Absent is a profile only one version has.
type Absent struct {
	Profile string `json:"profile"`
	// In is the version that has it: base or head.
	In string `json:"in"`
}

// DriftChange is the drift matrix of each profile, base and head, on the same samples.
type DriftChange struct {
	Seed       int64      `json:"seed"`
	N          int        `json:"n"`
	Extractors []string   `json:"extractors"`
	Rows       []DriftRow `json:"rows"`
}

// DriftRow is a row of the drift matrix: an operator applied alone, or a total.
type DriftRow struct {
	// Group is identity, single, composed or all.
	Group     string `json:"group"`
	Operator  string `json:"operator"`
	Samples   int    `json:"samples"`
	Ambiguous int    `json:"ambiguous"`
	Found     int    `json:"intended_found"`
	// Cells has one cell per extractor, in Extractors order.
	Cells []DriftCell `json:"cells"`
}

// DriftCell counts one extractor's outcomes in a row, base and head (drift.Cell defines
// them).
type DriftCell struct {
	Extractor  string `json:"extractor"`
	BaseExact  int    `json:"base_exact"`
	HeadExact  int    `json:"head_exact"`
	BaseLeaked int    `json:"base_analysis_leaked"`
	HeadLeaked int    `json:"head_analysis_leaked"`
	BaseLost   int    `json:"base_summary_lost"`
	HeadLost   int    `json:"head_summary_lost"`
}

// EvalChange is the eval score of every eval case with the base and head extractor.
type EvalChange struct {
	Extractor string     `json:"extractor"`
	Cases     []EvalCase `json:"cases"`
	// Score is the run's headline score (eval.Totals.Score), base and head; Coverage and
	// BoundaryCoverage are the means over the cases.
	Score            MeanChange `json:"score"`
	Coverage         MeanChange `json:"coverage"`
	BoundaryCoverage MeanChange `json:"boundary_coverage"`
	TailLeakage      MeanChange `json:"tail_leakage"`
}

// EvalCase is one eval case's scores.
type EvalCase struct {
	ID               string      `json:"id"`
	BaseFound        bool        `json:"base_summary_found"`
	HeadFound        bool        `json:"head_summary_found"`
	Score            MeanChange  `json:"score"` // the case's headline score (eval.Result.Score)
	Coverage         ShareChange `json:"coverage"`
	BoundaryCoverage ShareChange `json:"boundary_coverage"`
	TailLeakage      ShareChange `json:"tail_leakage"`
}

// ShareChange is a share, base and head; Delta is head minus base, nil when either has
// nothing to count.
type ShareChange struct {
	Base  eval.Share `json:"base"`
	Head  eval.Share `json:"head"`
	Delta *float64   `json:"delta"`
}

// MeanChange is a mean, base and head (nil when no case has a value), and head minus base.
type MeanChange struct {
	Base  *float64 `json:"base"`
	Head  *float64 `json:"head"`
	Delta *float64 `json:"delta"`
}
