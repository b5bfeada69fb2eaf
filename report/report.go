// Package report is the document compacteval run writes (report.json): its types, the
// selection of cases a run ran on, and reading and writing it as JSON.
//
// The JSON document is the one canonical result of a run: the Markdown, HTML and JUnit
// renderers and the gate read only it. It is a leaf of plain data: it imports the result
// types of the stages (eval.Report, drift.MatrixResult, fuzz.Result) and nothing that
// runs an extractor or talks to a model, so a program that reads a report.json compiles
// neither. A Go program may also json.Unmarshal a report.json into a Report directly;
// Parse adds the check of the schema version and the renaming of legacy names. The
// document is deterministic for a given corpus and tool version (no timestamps, sorted
// everywhere), so two runs can be compared byte for byte.
package report

import (
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz"
	"github.com/compacteval/compacteval/fuzz/drift"
)

// SchemaVersion is the version of the report.json document. Adding a field keeps it; a
// change that breaks readers bumps it, and the gate refuses a baseline of another version.
const SchemaVersion = 1

// Report is the document compacteval run writes.
type Report struct {
	SchemaVersion int `json:"schema_version"`
	// Tool is the compacteval that made the report.
	Tool Tool `json:"tool"`
	// Complete is true when every stage ran; a partial report never passes the gate.
	Complete bool     `json:"complete"`
	Stages   []string `json:"stages"`
	Corpus   Corpus   `json:"corpus"`
	// Selection, when set, says the run ran on some of the corpus's cases (-run, -category,
	// -failed); the gate compares only those. Absent for a run on every case.
	Selection *Selection `json:"selection,omitempty"`
	// Extractors summarises each extractor over the corpus, seed first.
	Extractors []Extractor `json:"extractors"`
	// Problems are the regressions of this run against what the corpus records: golden
	// files that differ, deviations from intended that known_deviations does not list, and
	// listed deviations that no longer happen.
	Problems []Problem `json:"problems"`
	// Cases are the cases in corpus order, unless Stored holds them (then Cases is nil and
	// the JSON document lists Stored's): read them with AllCases, which takes either.
	Cases []Case `json:"cases"`
	// Stored, when set, holds the cases instead of Cases; it is not part of the JSON
	// document, whose "cases" are its cases.
	Stored CaseSource `json:"-"`
	// Drift is the drift matrix with a fixed seed; Eval the scores of every eval case.
	Drift drift.MatrixResult `json:"drift"`
	Eval  eval.Report        `json:"eval"`
	// StoredEval, when set, holds the eval cases instead of Eval.Cases (then Eval.Cases is
	// nil and the JSON document lists StoredEval's); Eval.Totals are theirs all the same.
	// Read them with AllEvalCases, which takes either.
	StoredEval EvalSource `json:"-"`
	// Fuzz holds a fuzz run of each extractor (compacteval fuzz); absent otherwise.
	Fuzz []*fuzz.Result `json:"fuzz,omitempty"`
}

// Tool is the build of compacteval that made a report.
type Tool struct {
	// Module is the main module's version ("v0.3.0", or "(devel)" for a build from a
	// checkout).
	Module string `json:"module"`
	// Revision is the VCS commit the binary was built from, with Modified when the tree had
	// changes; empty when the build carries no VCS stamp (go run, go test).
	Revision string `json:"revision,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the toolchain's version.
	Go string `json:"go"`
}

// Corpus describes the corpus the run read.
type Corpus struct {
	// Dir names the corpus for people: "embedded", a folder, or both joined by " + ".
	Dir string `json:"dir"`
	// SHA256 digests the cases (corpus.Digest): the gate compares two runs only when it is
	// the same. Sources say where the cases came from.
	SHA256     string          `json:"sha256"`
	Sources    []corpus.Source `json:"sources"`
	Cases      int             `json:"cases"`
	Categories []Count         `json:"categories"`
	Origins    map[string]int  `json:"origins"`
	// LoadProblems counts the case files that did not load (each is also a Problem).
	LoadProblems int `json:"load_problems"`
}

// Count is a number of cases in a category.
type Count struct {
	Category string `json:"category"`
	Cases    int    `json:"cases"`
	// Intended counts the cases where an extractor returned the intended result.
	Intended int `json:"intended,omitempty"`
}

// Extractor is one extractor's record over the corpus.
type Extractor struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	// External is true for a module or a command (docs/protocol.md), whose answers do not
	// say which path decided.
	External bool `json:"external,omitempty"`
	// Reference, when set, says why a built-in profile is a reference behaviour
	// (compact.ReferenceOnly): another agent's formatter, reported for comparison and not
	// held to the intended summary.
	Reference string `json:"reference,omitempty"`
	// Intended counts the cases where it returns the intended result, out of Cases.
	Cases    int     `json:"cases"`
	Intended int     `json:"intended"`
	Rate     float64 `json:"intended_rate"`
	// KnownDeviations counts the cases that list it in known_deviations.
	KnownDeviations int     `json:"known_deviations"`
	Categories      []Count `json:"categories"`
	// GoldenMismatches counts the cases whose golden file differs or is missing, out of
	// GoldenChecked (0 where the corpus has no goldens for the extractor).
	GoldenMismatches int `json:"golden_mismatches"`
	GoldenChecked    int `json:"golden_checked,omitempty"`
	// DriftExact is the share of exact recoveries over every unambiguous drift sample.
	DriftExact float64 `json:"drift_exact"`
}

// Problem is one regression found by the run.
type Problem struct {
	// Kind is golden-mismatch, golden-missing, unlisted-deviation, stale-deviation or
	// load-error.
	Kind      string `json:"kind"`
	Case      string `json:"case"`
	Extractor string `json:"extractor,omitempty"`
	Detail    string `json:"detail"`
}

// Case is one corpus case and what each extractor made of it. Response and Intended are
// kept only for cases shown in detail (a problem, or a deviation of seed or robust).
type Case struct {
	ID            string   `json:"id"`
	Title         string   `json:"title"`
	Categories    []string `json:"categories"`
	Origin        string   `json:"origin"`
	IntendedFound bool     `json:"intended_found"`
	Response      string   `json:"response,omitempty"`
	Intended      string   `json:"intended,omitempty"`
	Results       []Result `json:"results"`
}

// Result is one extractor's output on a case.
type Result struct {
	Extractor       string `json:"extractor"`
	OK              bool   `json:"ok"`
	Path            string `json:"path"`
	MatchesIntended bool   `json:"matches_intended"`
	// KnownDeviation is the case's known_deviations reason for this extractor.
	KnownDeviation string `json:"known_deviation,omitempty"`
	// Golden is match, mismatch or missing; empty when goldens were not checked.
	Golden string `json:"golden,omitempty"`
	// GoldenPath is the path the golden file records, where Golden is mismatch. PathOnly
	// is true where the golden's ok and summary equal the output byte for byte and only
	// the path that decided differs: not a change of behaviour.
	GoldenPath string `json:"golden_path,omitempty"`
	PathOnly   bool   `json:"path_only,omitempty"`
	// Summary is the output, kept where the case is shown in detail.
	Summary *string `json:"summary,omitempty"`
}

// Detailed are the extractors whose deviations the reports show in full: the port and
// compacteval's own extractor.
var Detailed = map[string]bool{"seed": true, "robust": true}
